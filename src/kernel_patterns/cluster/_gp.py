"""Clustering by Gaussian-process variance (Kim & Lee, Neural Computation 2007).

The estimator :class:`GPClustering` is a thin layer over three pure solvers:

1. :func:`~._gp_variance.fit_variance_model`: the variance function σ² of eq. 3.1 (Cholesky of
   C, batched evaluation, closed-form gradient);
2. :func:`~._gp_flow.flow_to_equilibria`: every point moved at once down the gradient system
   eq. 4.2 to its stable equilibrium point (SEP);
3. :mod:`~._gp_graph`: segment checks between SEPs (eq. 4.3 corrected, errata 1), the saddle
   levels, the single-linkage hierarchy (errata 3) and the labels at a level.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import FloatArray
from ..kernels import RBF, GPCovariance, Kernel, Precomputed, make_kernel
from ._gp_flow import FlowResult, flow_to_equilibria
from ._gp_graph import (
    candidate_pairs,
    components_at,
    level_for_n_clusters,
    segment_levels,
    single_linkage,
)
from ._gp_variance import GPVarianceModel, fit_variance_model

#: kernel=None: the length scale is this quantile of the distance to the k-th neighbour.
AUTO_QUANTILE = 0.9
AUTO_NEIGHBOR = 5
#: kernel=None with n_clusters: length scales tried, as factors of the data-driven one, in
#: order (largest first) until one gives at least n_clusters SEPs with a clean cut (plus one
#: bisection step back when that one has more SEPs than clusters: at most 6 fits).
AUTO_SHRINK = tuple(2.0 ** (-k / 2) for k in range(5))


def auto_length_scale(X: FloatArray) -> float:
    """The data-driven length scale ℓ of :func:`default_kernel`, in the units of ``X``.

    The 90th percentile of the distance from each point to its 5th nearest neighbour (1 when
    every point is duplicated).
    """
    k = min(AUTO_NEIGHBOR, X.shape[0] - 1)
    dist = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)[0][:, k]
    ell = float(np.quantile(dist, AUTO_QUANTILE))
    return ell if ell > 0 else 1.0


def default_kernel(X: FloatArray, factor: float = 1.0) -> GPCovariance:
    """The GP covariance chosen from the data when ``kernel=None``.

    Rule (documented, no hidden tuning): ``v0 = 1`` and ``v1 = 10`` as in every experiment of
    the paper, noise ``v2 = 1`` (the paper never gives v2; 1 gives a smooth landscape whose
    level sets follow the data), and one isotropic length scale ``ℓ = factor ×`` the 90th
    percentile of the distance from each point to its 5th nearest neighbour
    (:func:`auto_length_scale`), so that all but the sparsest 10 % of points have five
    neighbours within one length scale; ``l = 1 / ℓ²`` (eq. 2.7 with errata 4).

    The kernel is isotropic in the units of ``X``: features are *not* rescaled one by one.
    Scale them first when their units differ (the paper scales its 2-D sets to [0, 1]), but
    note that per-feature scaling changes the geometry: on the paper's 20-D Gaussian set the 15
    pure-noise features have about 60 % of the range of the 5 informative ones, so scaling
    every feature to [0, 1] blows the noise up 1.7-fold against the separation of the means;
    with 40 points per cluster no length scale then separates the five clusters exactly,
    while the same sample in its own units (or shrunk by one common factor) is clustered
    perfectly for every ℓ from about 0.35 to 0.8 of its range. On the rings scaled to [0, 1]
    this rule gives ℓ ≈ 0.06 (l ≈ 280); on the 5-D Gaussians ℓ ≈ 0.18.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Validated training points.
    factor : float, default=1.0
        Multiplies the data-driven length scale (the ``n_clusters`` search of
        :class:`GPClustering` tries ``AUTO_SHRINK``).

    Returns
    -------
    GPCovariance
        ``GPCovariance(v0=1, v1=10, v2=1, l=1/ℓ²)`` with a scalar ``l``.

    Examples
    --------
    >>> from kernel_patterns import datasets
    >>> X, _ = datasets.make_rings(random_state=0)
    >>> k = default_kernel(datasets.scale_unit_interval(X))
    >>> k.v0, k.v1, k.v2, round(float(k.l))
    (1.0, 10.0, 1.0, 283)
    """
    ell = factor * auto_length_scale(X)
    return GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0 / ell**2)


def kernel_length_scale(kernel: Kernel, X: FloatArray) -> float:
    """The length scale used for steps, merge radii and the convergence test.

    GPCovariance: the smallest ``1/√l_m``; RBF: ``1/√(2γ)``; any other differentiable kernel:
    5 % of the largest feature range.
    """
    if isinstance(kernel, GPCovariance):
        return float(np.min(kernel.length_scale()))
    if isinstance(kernel, RBF):
        return float(1.0 / np.sqrt(2.0 * kernel.gamma))
    span = float(np.max(np.ptp(X, axis=0)))
    return 0.05 * span if span > 0 else 1.0


class GPClustering(ClusterMixin, BaseEstimator):
    """Clustering by the variance of Gaussian-process regression (Kim & Lee 2007).

    The predictive variance ``σ²(x) = κ − kᵀC⁻¹k`` (eq. 3.1) of a GP fitted to the data (all
    targets zero) is small where the data are dense. Its level set ``{σ² ≤ r*}`` with
    ``r* = max_i σ²(x_i)`` (eq. 4.1) splits into connected parts, the clusters. Every point
    descends ``dx/dt = −∇σ²`` (eq. 4.2) to a stable equilibrium point (SEP, a local minimum of
    σ²; errata 2); two SEPs are adjacent when all ``n_segment_points`` checked points on the
    segment between them have ``σ² ≤ r*`` (eq. 4.3 as corrected in errata 1); clusters are the
    connected components, and each point takes its SEP's cluster.

    The merge level of two SEPs (the largest σ² on their segment, refined) orders all merges
    into a hierarchy (errata 3: clusters can only merge as the level rises): ``hierarchy_``,
    ``labels_at`` and ``n_clusters``.

    Parameters
    ----------
    kernel : Kernel, str, callable or None, default=None
        A differentiable covariance, e.g. ``GPCovariance(v0=1, v1=10, v2=1, l=400)`` (eq. 2.7)
        or ``"gp"``/``"rbf"`` with ``kernel_params``. None chooses an isotropic GPCovariance
        from the data (see :func:`default_kernel`), exposed as ``kernel_``. With
        ``n_clusters`` too, the data-driven length scale ℓ₀ is tried first, then
        ``ℓ₀/√2, ℓ₀/2, ℓ₀/2^1.5, ℓ₀/4`` (``AUTO_SHRINK``) until the landscape has at least
        ``n_clusters`` basins and a level that gives exactly ``n_clusters`` clusters; the first
        (longest, smoothest) such ℓ is kept. When it has more basins than clusters, the
        geometric middle between it and the previous (too long) ℓ is tried once and kept if it
        works too (fewer spurious basins for the cut to isolate). At most six fits; only the
        first one when ℓ₀ works, as on every set of the paper in its own units. ℓ₀ is too long
        when the nearest neighbours are almost as far as the other clusters (high dimension,
        few points, or noise features inflated by per-feature scaling: the 20-D Gaussians
        scaled to [0, 1] with 40 points per cluster need ℓ₀/√2). The search only shrinks:
        starting above ℓ₀ (2ℓ₀ first) was measured to help the crabs (ARI 0.64 → 0.85 at 4
        clusters) but to break the rings and the spirals with ``n_clusters=2`` (ARI 1 → below
        0.2: at a long ℓ the few basins no longer follow the shapes).
    kernel_params : dict, default=None
        Parameters of a named kernel.
    level : float, default=None
        The cutting level r (> 0); None uses r* = the largest variance of a training point.
    n_clusters : int, default=None
        Choose the level that gives exactly this many clusters (error when impossible).
        Give ``level`` or ``n_clusters``, not both.
    n_segment_points : int, default=20
        Points checked on each segment between two SEPs (the paper checks 10 to 20).
    merge_radius : float, default=0.1
        In units of the kernel length scale: converged points this close to a SEP join it.
    tol : float, default=1e-4
        Convergence of the descent: ``‖∇σ²‖ · length scale ≤ tol · r*``.
    max_iter : int, default=500
        Largest number of batched descent iterations.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of every training point (0, 1, ... in order of first appearance).
    n_clusters_ : int
    equilibria_ : ndarray of shape (n_equilibria, n_features)
        The SEPs.
    equilibrium_labels_ : ndarray of shape (n_equilibria,)
        Cluster of every SEP.
    basins_ : ndarray of shape (n_samples,)
        Index of the SEP each training point flowed to.
    level_ : float
        The level used.
    max_variance_ : float
        r*, the largest variance of a training point (eq. 4.1).
    hierarchy_ : ndarray of shape (n_equilibria - 1, 4)
        scipy linkage matrix over the SEPs; heights are the merge (saddle) levels.
    kernel_ : Kernel
        The kernel used.
    n_iter_ : int
        Descent iterations of the fit.
    n_features_in_ : int

    Examples
    --------
    >>> from kernel_patterns import GPClustering, datasets
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X, y = datasets.make_rings(random_state=0)
    >>> X = datasets.scale_unit_interval(X)
    >>> gp = GPClustering(kernel=GPCovariance(v0=1, v1=10, v2=1, l=400)).fit(X)
    >>> gp.n_clusters_
    2
    >>> bool((gp.variance(gp.equilibria_) <= gp.level_).all())
    True
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "kernel": [Kernel, str, callable, None],
        "kernel_params": [dict, None],
        "level": [Interval(Real, 0, None, closed="neither"), None],
        "n_clusters": [Interval(Integral, 1, None, closed="left"), None],
        "n_segment_points": [Interval(Integral, 1, None, closed="left")],
        "merge_radius": [Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        kernel: Kernel | str | Callable[..., Any] | None = None,
        *,
        kernel_params: dict[str, Any] | None = None,
        level: float | None = None,
        n_clusters: int | None = None,
        n_segment_points: int = 20,
        merge_radius: float = 0.1,
        tol: float = 1e-4,
        max_iter: int = 500,
    ) -> None:
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.level = level
        self.n_clusters = n_clusters
        self.n_segment_points = n_segment_points
        self.merge_radius = merge_radius
        self.tol = tol
        self.max_iter = max_iter

    # ------------------------------------------------------------------ fit
    def fit(self, X: ArrayLike, y: Any = None) -> GPClustering:
        """Fit the variance function, flow the points to SEPs and label them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        if self.level is not None and self.n_clusters is not None:
            raise ValueError("give level or n_clusters, not both.")
        Xv = validate_data(self, X, dtype=np.float64, ensure_min_samples=2, copy=True)
        if self.n_clusters is not None and self.n_clusters > Xv.shape[0]:
            raise ValueError(
                f"n_clusters={self.n_clusters} is more than the {Xv.shape[0]} samples."
            )
        if self.kernel is None and self.n_clusters is not None:
            # kernel=None with n_clusters: the data-driven length scale, shrunk step by step
            # (AUTO_SHRINK, at most 6 fits) until the landscape has n_clusters basins.
            ell0 = auto_length_scale(Xv)
            n_clusters = int(self.n_clusters)
            error: ValueError | None = None
            found: tuple[_Landscape, float] | None = None
            for k, factor in enumerate(AUTO_SHRINK):
                try:
                    found = self._try_length_scale(Xv, factor, n_clusters)
                except ValueError as exc:
                    error = exc
                    continue
                if k > 0 and found[0].S.shape[0] > n_clusters:
                    # more basins than clusters: one bisection step back towards the last
                    # (too long) ℓ, kept if it still gives n_clusters (fewer spurious basins)
                    with contextlib.suppress(ValueError):
                        found = self._try_length_scale(
                            Xv, float(np.sqrt(factor * AUTO_SHRINK[k - 1])), n_clusters
                        )
                break
            if found is None:
                raise ValueError(
                    f"kernel=None: no length scale from {ell0:.3g} down to "
                    f"{ell0 * AUTO_SHRINK[-1]:.3g} gives n_clusters={self.n_clusters}; last "
                    f"try: {error}"
                ) from error
            fit, level = found
        else:
            fit = _fit_landscape(self, self._resolve_kernel(Xv), Xv)
            if self.n_clusters is not None:
                level = level_for_n_clusters(fit.Z[:, 2], fit.sep_var, int(self.n_clusters))
            else:
                level = fit.r_star if self.level is None else float(self.level)
        model, r_star, ell, flow, S, Z, sep_var = (
            fit.model, fit.r_star, fit.ell, fit.flow, fit.S, fit.Z, fit.sep_var
        )
        p = S.shape[0]
        sep_labels, labels = _relabel(components_at(Z, p, level), flow.assignment)

        self._model = model
        self._length_scale = ell
        self.kernel_ = fit.model.kernel
        self.max_variance_ = r_star
        self.level_ = level
        self.equilibria_ = S
        self.equilibrium_variance_ = sep_var
        self.equilibrium_labels_ = sep_labels
        self.basins_ = flow.assignment
        self.hierarchy_ = Z
        self.n_iter_ = flow.n_iter
        self.labels_ = labels
        self.n_clusters_ = int(labels.max()) + 1
        return self

    def _try_length_scale(
        self, X: FloatArray, factor: float, n_clusters: int
    ) -> tuple[_Landscape, float]:
        """Fit with the default kernel at ``factor`` × ℓ₀; ValueError when no level fits."""
        fit = _fit_landscape(self, self._resolve_kernel(X, factor), X)
        return fit, level_for_n_clusters(fit.Z[:, 2], fit.sep_var, n_clusters)

    def _resolve_kernel(self, X: FloatArray, factor: float = 1.0) -> Kernel:
        if self.kernel is None:
            if self.kernel_params:
                raise ValueError("kernel_params needs a kernel name (kernel='gp' or 'rbf').")
            return default_kernel(X, factor)
        kernel = make_kernel(self.kernel, self.kernel_params)
        if isinstance(kernel, Precomputed):
            raise ValueError(
                "GPClustering needs the coordinates of the points (it moves them down the "
                "variance gradient); kernel='precomputed' is not supported."
            )
        if not kernel.differentiable:
            raise ValueError(
                f"GPClustering needs a differentiable kernel (GPCovariance, RBF); "
                f"{type(kernel).__name__} has no gradient."
            )
        return kernel

    # ------------------------------------------------------------------ queries
    def _check_X(self, X: ArrayLike) -> FloatArray:
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def variance(self, X: ArrayLike) -> FloatArray:
        """σ²(x) = κ − kᵀC⁻¹k (eq. 3.1) at every row of ``X``, clipped at 0."""
        return self._model.variance(self._check_X(X))

    def variance_gradient(self, X: ArrayLike) -> FloatArray:
        """∇σ²(x) in closed form at every row of ``X``, shape (n_points, n_features)."""
        return self._model.gradient(self._check_X(X))

    def labels_at(self, level: float | None = None, n_clusters: int | None = None) -> NDArray[Any]:
        """Labels of the training points at another level, or for another cluster count.

        Cuts ``hierarchy_`` (no refit). Give exactly one of ``level`` (> 0) and
        ``n_clusters`` (≥ 1); ``ValueError`` when no level gives ``n_clusters`` clusters.
        """
        check_is_fitted(self)
        if (level is None) == (n_clusters is None):
            raise ValueError("give exactly one of level and n_clusters.")
        p = self.equilibria_.shape[0]
        if n_clusters is not None:
            if isinstance(n_clusters, bool) or not isinstance(n_clusters, Integral):
                raise TypeError(f"n_clusters must be an integer; got {n_clusters!r}.")
            if n_clusters < 1:
                raise ValueError(f"n_clusters must be >= 1; got {n_clusters}.")
            level = level_for_n_clusters(
                self.hierarchy_[:, 2], self.equilibrium_variance_, int(n_clusters)
            )
        assert level is not None
        if not (isinstance(level, Real) and np.isfinite(level) and level > 0):
            raise ValueError(f"level must be a finite number > 0; got {level!r}.")
        _, labels = _relabel(components_at(self.hierarchy_, p, float(level)), self.basins_)
        return labels

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Cluster of new points: flow them to an equilibrium (Corollary 1).

        A point that reaches a known SEP takes its cluster; one that stops elsewhere (far
        from the data) takes the cluster of the SEP it is best connected to: the one whose
        segment to it has the lowest largest variance.
        """
        Xv = self._check_X(X)
        model = self._model
        S = self.equilibria_
        p = S.shape[0]
        flow = flow_to_equilibria(
            model, Xv, length_scale=self._length_scale,
            variance_scale=max(self.max_variance_, 1e-300), tol=self.tol,
            max_iter=self.max_iter, merge_radius=self.merge_radius, known=S, share_new=False,
        )
        sep = flow.assignment.copy()
        new = np.flatnonzero(sep >= p)
        if new.size:
            E = flow.equilibria[sep[new]]
            I = np.repeat(np.arange(new.size), p)
            J = np.tile(np.arange(p), new.size)
            both = np.vstack([E, S])
            w = segment_levels(model, both, I, new.size + J, n_points=self.n_segment_points,
                               refine=False)
            sep[new] = np.argmin(w.reshape(new.size, p), axis=1)
        return self.equilibrium_labels_[sep]

    # ------------------------------------------------------------------ sklearn
    @classmethod
    def _sk_check_instances(cls) -> list[GPClustering]:
        # The checks set n_clusters=2 or 3 on 20 uniform points or 50 standardised blob
        # points, where the data-driven kernel finds fewer SEPs than that (an error by
        # design); a fixed short length scale (0.2) has enough SEPs on that data.
        return [cls(kernel=GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=25.0))]


@dataclass
class _Landscape:
    """One fit of the variance landscape: model, SEPs and their hierarchy (no level yet)."""

    model: GPVarianceModel
    r_star: float
    ell: float
    flow: FlowResult
    S: FloatArray
    Z: FloatArray
    sep_var: FloatArray


def _fit_landscape(est: GPClustering, kernel: Kernel, X: FloatArray) -> _Landscape:
    """Variance model (eq. 3.1), flow to SEPs (eq. 4.2) and the saddle-level hierarchy."""
    model = fit_variance_model(kernel, X)
    r_star = float(model.variance(X).max())
    ell = kernel_length_scale(kernel, X)
    flow = flow_to_equilibria(
        model, X, length_scale=ell, variance_scale=max(r_star, 1e-300),
        tol=est.tol, max_iter=est.max_iter, merge_radius=est.merge_radius,
    )
    S = flow.equilibria
    I, J = candidate_pairs(S)
    w = segment_levels(model, S, I, J, n_points=est.n_segment_points)
    Z = single_linkage(S.shape[0], I, J, w)
    return _Landscape(model, r_star, ell, flow, S, Z, model.variance(S))


def _relabel(
    sep_components: NDArray[np.intp], assignment: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Number clusters 0, 1, ... in order of first appearance among the training points."""
    point_comp = sep_components[assignment]
    _, first = np.unique(point_comp, return_index=True)
    order = np.full(sep_components.max() + 1, -1, dtype=np.intp)
    ranks = np.argsort(np.argsort(first))
    order[np.unique(point_comp)] = ranks
    # SEP components no training point reached (cannot happen in fit) keep a fresh number
    missing = order < 0
    order[missing] = np.arange(ranks.size, ranks.size + int(missing.sum()))
    return order[sep_components], order[point_comp]
