"""The results of GP variance clustering as objects: :class:`GPLandscape`, which
:func:`~kernel_patterns.cluster.gp.gp_landscape` returns, and its :class:`GPHierarchy`.

Both answer questions after a fit without the estimator: labels of new points or at
another level, a picture (``.plot``, matplotlib imported lazily) and a table
(``.to_pandas()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._tails import apply_to
from ..._validation import MAX_MAGNITUDE, FloatArray, check_magnitude, check_matrix
from ...kernels import Kernel
from ._condensed import CondensedTree, condense
from ._cuts import components_at, level_for_n_clusters
from ._landscape import FlowOptions, InducingPlan, assign_points
from ._trace import GPCountTrace, pandas_module
from ._tree import level_for_count
from ._variance import VarianceFunction


def relabel(
    sep_components: NDArray[np.intp], assignment: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Number clusters 0, 1, ... in order of first appearance among the training points.

    Returns the cluster of every SEP and of every point (``assignment``: each point's SEP);
    -1 (noise) stays -1.
    """
    point_comp = sep_components[assignment]
    if sep_components.size == 0 or sep_components.max() < 0:
        return sep_components.copy(), point_comp
    kept = point_comp[point_comp >= 0]
    uniq, first = np.unique(kept, return_index=True)
    order = np.full(int(sep_components.max()) + 2, -1, dtype=np.intp)  # order[-1]: noise
    order[uniq] = np.argsort(np.argsort(first))
    # SEP components no training point reached (cannot happen in fit) keep a fresh number
    missing = np.flatnonzero(order[:-1] < 0)
    missing = missing[np.isin(missing, sep_components)]
    order[missing] = np.arange(uniq.size, uniq.size + missing.size)
    return order[sep_components], order[point_comp]


@dataclass
class GPHierarchy:
    """Single linkage of the SEPs over their saddle (merge) levels (errata 3).

    Attributes
    ----------
    linkage : ndarray of shape (n_equilibria - 1, 4)
        scipy linkage matrix; heights are the merge levels σ² (monotone).
    equilibrium_variance : ndarray of shape (n_equilibria,)
        σ² at every SEP.
    level : float
        The level the fit was cut at: the cut there gives the fit's clusters. Where the count
        rule (``fitted_tree``) kept two groups apart they
        merge just above it; it rises to the highest merge inside a cluster kept whole.
    equilibrium_labels : ndarray of shape (n_equilibria,) or None
        The fit's cluster of every SEP (-1: noise), which the dendrogram colours.
    saddle_linkage : ndarray of shape (n_equilibria - 1, 4) or None
        The saddle tree before the count rule's choices; None: ``linkage``.

    Examples
    --------
    >>> from kernel_patterns import GPClustering, datasets
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X, _ = datasets.make_rings((40, 60), random_state=0)
    >>> gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=100)).fit(
    ...     datasets.scale_unit_interval(X))
    >>> tree = gp.landscape_.hierarchy
    >>> int(tree.cut(n_clusters=2).max()) + 1
    2
    >>> list(tree.to_pandas().columns)
    ['left', 'right', 'level', 'size']
    """

    linkage: FloatArray
    equilibrium_variance: FloatArray
    level: float
    equilibrium_labels: NDArray[np.intp] | None = None
    saddle_linkage: FloatArray | None = None

    @property
    def n_equilibria(self) -> int:
        """Number of SEPs (leaves)."""
        return int(self.equilibrium_variance.shape[0])

    def level_for(self, n_clusters: int) -> float:
        """A level at which exactly ``n_clusters`` clusters exist (``ValueError`` if none)."""
        return level_for_n_clusters(self.linkage[:, 2], self.equilibrium_variance, n_clusters)

    def cut(self, level: float | None = None, n_clusters: int | None = None) -> NDArray[np.intp]:
        """Component of every SEP at ``level`` or for ``n_clusters`` (exactly one of them),
        numbered by the linkage.
        """
        level = _check_cut(self, level, n_clusters)
        return components_at(self.linkage, self.n_equilibria, level)

    def plot(self, ax: Any = None, *, title: str | None = None) -> Any:
        """Dendrogram of the SEPs merging at their saddle levels, the level dashed.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (default: a new figure).
        title : str, default=None
            Axes title above the dendrogram.

        Returns
        -------
        ax : matplotlib Axes
        """
        from ._plots import plot_hierarchy

        return plot_hierarchy(self, ax=ax, title=title)

    def to_pandas(self) -> Any:
        """The merges as a DataFrame: ``left``, ``right`` (scipy cluster ids), ``level`` and
        ``size``."""
        pd = pandas_module()
        Z = self.linkage
        return pd.DataFrame({
            "left": Z[:, 0].astype(np.intp), "right": Z[:, 1].astype(np.intp),
            "level": Z[:, 2], "size": Z[:, 3].astype(np.intp),
        })


def _check_count(n_clusters: Any) -> int:
    """``n_clusters`` of a cut, checked: an integer >= 1."""
    if isinstance(n_clusters, bool) or not isinstance(n_clusters, Integral):
        raise TypeError(f"n_clusters must be an integer; got {n_clusters!r}.")
    if n_clusters < 1:
        raise ValueError(f"n_clusters must be >= 1; got {n_clusters}.")
    return int(n_clusters)


def _check_cut(tree: GPHierarchy, level: float | None, n_clusters: int | None) -> float:
    """Validated level of a cut given by ``level`` or ``n_clusters`` (exactly one)."""
    if (level is None) == (n_clusters is None):
        raise ValueError("give exactly one of level and n_clusters.")
    if n_clusters is not None:
        level = tree.level_for(_check_count(n_clusters))
    assert level is not None
    if not (isinstance(level, Real) and np.isfinite(level) and level > 0):
        raise ValueError(f"level must be a finite number > 0; got {level!r}.")
    return float(level)


@dataclass
class GPLandscape:
    """One fitted GP variance landscape, cut at a level: what :func:`gp_landscape` returns.

    Attributes
    ----------
    kernel : Kernel
        The covariance used.
    model : VarianceFunction
        The variance σ² (exact, eq. 3.1, or inducing points) with its gradient.
    length_scale : float
        Unit of steps, merge radii and the convergence test.
    max_variance : float
        r*, the largest variance of a training point (inducing: of a subsample point).
    level : float
        The level the labels are cut at.
    equilibria : ndarray of shape (n_equilibria, n_features)
        The SEPs (in the space of ``transform`` when there is one).
    equilibrium_variance : ndarray of shape (n_equilibria,)
    equilibrium_labels : ndarray of shape (n_equilibria,)
        Cluster of every SEP at ``level``.
    hierarchy : GPHierarchy
        The saddle-level hierarchy over the SEPs.
    basins : ndarray of shape (n_samples,)
        SEP of every training point.
    labels : ndarray of shape (n_samples,)
        Cluster of every training point (0, 1, ... in order of first appearance; -1: noise).
    n_iter : int
        Descent iterations of the fit's flow.
    n_unconverged : int
        Points stopped by ``max_iter``.
    options : FlowOptions
        The flow and segment-check options (used again by :meth:`assign`).
    plan : InducingPlan or None
        Inducing points and subsample (``approximation="inducing"``), else None.
    transform : transformer or None
        The fitted feature transform every query goes through first; ``equilibria`` are in
        its space. None: the input's space.
    input_equilibria : ndarray of shape (n_equilibria, n_features)
        The SEPs in the units of the input.
    count_trace : GPCountTrace or None
        The landscapes read to choose the clusters (``kernel=None`` with neither ``level``
        nor ``n_clusters``), else None.
    min_cluster_size : int
        The least size of a cluster (:meth:`labels_at` makes smaller groups noise).
    training_variance : ndarray of shape (n_samples,) or None
        σ² at every training point, where the fit computed it; else None.
    flowed : ndarray of shape (n_subsample, n_features) or None
        ``approximation="inducing"``: the subsample's points, whose full flows gave the SEPs
        (:meth:`assign` gives a point the SEP of the nearest). Else None.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import gp_landscape
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> land = gp_landscape(X, GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), min_cluster_size=2)
    >>> land.labels, land.n_clusters, land.equilibria.shape
    (array([0, 0, 0, 1, 1, 1]), 2, (2, 2))
    >>> land.predict(np.array([[0.1, 0.0], [3.0, 3.1]]))
    array([0, 1])
    """

    kernel: Kernel
    model: VarianceFunction
    length_scale: float
    max_variance: float
    level: float
    equilibria: FloatArray
    equilibrium_variance: FloatArray
    equilibrium_labels: NDArray[np.intp]
    hierarchy: GPHierarchy
    basins: NDArray[np.intp]
    labels: NDArray[np.intp]
    n_iter: int
    n_unconverged: int
    options: FlowOptions
    plan: InducingPlan | None = field(default=None)
    transform: Any = field(default=None)
    input_equilibria: FloatArray = field(default=None)  # type: ignore[arg-type]
    count_trace: GPCountTrace | None = field(default=None)
    flowed: FloatArray | None = field(default=None)
    min_cluster_size: int = 1
    training_variance: FloatArray | None = field(default=None)

    def __post_init__(self) -> None:
        if self.input_equilibria is None:
            self.input_equilibria = self.equilibria

    @property
    def n_clusters(self) -> int:
        """Number of clusters among the training points (noise, -1, not counted)."""
        return int(self.labels.max()) + 1

    @property
    def n_noise(self) -> int:
        """Training points labelled noise (-1)."""
        return int(np.count_nonzero(self.labels < 0))

    @property
    def inducing_points(self) -> FloatArray | None:
        """The inducing points (``approximation="inducing"``), else None."""
        return None if self.plan is None else self.plan.U

    def _points(self, X: ArrayLike) -> FloatArray:
        """``X`` validated, in the space of the landscape (through ``transform``)."""
        Xv = check_matrix(X, "X")
        if Xv.shape[1] != self.equilibria.shape[1]:
            raise ValueError(
                f"X has {Xv.shape[1]} features, but the landscape has "
                f"{self.equilibria.shape[1]}."
            )
        check_magnitude(Xv, "X")  # the kernel squares the values, as in the fit
        Xv = Xv.astype(np.float64, copy=False)
        if self.transform is None:
            return Xv
        try:
            Z = apply_to(self.transform, Xv)
        except ValueError:  # the transform's own check of an output past float64
            Z = np.full_like(Xv, np.inf)
        top = float(np.abs(Z).max()) if Z.size else 0.0
        if not top <= MAX_MAGNITUDE:  # also NaN
            raise ValueError(
                f"X holds values (up to {float(np.abs(Xv).max()):.3g} in absolute value) that "
                f"the feature transform (feature_transform_) carries beyond {MAX_MAGNITUDE:.0e}"
                ", where the squares the kernel computes overflow float64: points that far "
                "from the training data have no place in the landscape."
            )
        return Z

    def variance(self, X: ArrayLike) -> FloatArray:
        """σ²(x) at every row of ``X`` (clipped at 0)."""
        return self.model.variance(self._points(X))

    def gradient(self, X: ArrayLike) -> FloatArray:
        """∇σ²(x) in closed form at every row of ``X`` (with respect to the transformed
        features when there is a ``transform``)."""
        return self.model.gradient(self._points(X))

    def assign(self, X: ArrayLike) -> NDArray[np.intp]:
        """Index of the SEP every row of ``X`` belongs to (Corollary 1).

        Exact: each point flows to an equilibrium and takes the SEP it reaches, else the one whose
        segment to it has the lowest largest variance. Inducing: the SEP of the nearest ``flowed``
        point.
        """
        flowed = None
        if self.plan is not None and self.flowed is not None:
            flowed = (self.flowed, self.basins[self.plan.subsample])
        return assign_points(self.model, self.equilibria, self.length_scale,
                             self.max_variance, self._points(X), self.options,
                             inducing=self.plan is not None, flowed=flowed)

    def predict(self, X: ArrayLike) -> NDArray[np.intp]:
        """Cluster of every row of ``X`` at ``level`` (the cluster of its SEP)."""
        return self.equilibrium_labels[self.assign(X)]

    def basin_sizes(self) -> FloatArray:
        """The weighted count of training points in every SEP's basin (``plan.weight`` each
        with inducing points, else 1).
        """
        weight = 1.0 if self.plan is None else self.plan.weight
        return weight * np.bincount(self.basins, minlength=self.hierarchy.n_equilibria)

    def labels_at(
        self, level: float | None = None, n_clusters: int | None = None, *,
        min_cluster_size: int | None = None,
    ) -> NDArray[np.intp]:
        """Labels of the training points at another level, or for another cluster count.

        Cuts ``hierarchy`` (no refit). Give exactly one of ``level`` (> 0) and ``n_clusters``
        (≥ 1: the cut nearest ``level`` with that many clusters, else a ``ValueError``). Groups of
        fewer than ``min_cluster_size`` training points (default: the fit's) are noise (-1).
        """
        if (level is None) == (n_clusters is None):
            raise ValueError("give exactly one of level and n_clusters.")
        least = self.min_cluster_size if min_cluster_size is None else min_cluster_size
        if isinstance(least, bool) or not isinstance(least, Integral) or least < 1:
            raise ValueError(f"min_cluster_size must be an integer >= 1; got {least!r}.")
        sizes = self.basin_sizes()
        if n_clusters is not None:
            level = level_for_count(self.hierarchy.linkage, sizes, int(least),
                                    _check_count(n_clusters), self.level)
        groups = self.hierarchy.cut(level=level)
        big = np.bincount(groups, weights=sizes) >= least
        return relabel(np.where(big[groups], groups, -1).astype(np.intp), self.basins)[1]

    def condensed_tree(self) -> CondensedTree:
        """``hierarchy`` condensed as HDBSCAN condenses its tree, the fitted clusters marked
        (a :class:`CondensedTree`).
        """
        return condense(self.hierarchy.linkage, self.equilibrium_variance, self.basin_sizes(),
                        self.min_cluster_size, self.level)

    def plot_condensed_tree(self, ax: Any = None, *, title: str | None = None) -> Any:
        """The condensed tree as an icicle, the fitted clusters outlined in their colours,
        the level dashed (matplotlib, imported lazily).

        Returns
        -------
        ax : matplotlib Axes
        """
        from ._plots import plot_condensed_tree

        return plot_condensed_tree(self.condensed_tree(), self.equilibrium_labels, self.level,
                                   ax=ax, title=title)

    def plot(
        self, X: ArrayLike | None = None, labels: ArrayLike | None = None, **kwargs: Any
    ) -> Any:
        """The variance of a 2-D landscape as a filled contour map (Figs 4 and 5 of the paper).

        The level contour is solid, the SEPs crosses, and the points ``X`` (if given) coloured by
        ``labels`` (default: :meth:`predict`). Keyword arguments (``ax``, ``level``, ``resolution``,
        ``margin``, ``title``, ``cmap``) are those of
        :func:`kernel_patterns.plotting.plot_variance_landscape`.

        Returns
        -------
        ax : matplotlib Axes
        """
        from ._plots import plot_landscape

        return plot_landscape(self, X, labels, **kwargs)

    def to_pandas(self) -> Any:
        """The SEPs as a DataFrame: coordinates ``x0, x1, ...`` (in the input's units),
        ``variance``, ``label`` and ``size`` (training points in the basin)."""
        pd = pandas_module()
        S = self.input_equilibria
        frame = pd.DataFrame(S, columns=[f"x{j}" for j in range(S.shape[1])])
        frame["variance"] = self.equilibrium_variance
        frame["label"] = self.equilibrium_labels
        frame["size"] = np.bincount(self.basins, minlength=S.shape[0])
        return frame
