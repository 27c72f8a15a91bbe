"""The scikit-learn estimator :class:`GPClustering`, thin over :func:`gp_landscape`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..._fit import resolve_kernel
from ..._validation import FloatArray
from ...kernels import GPCovariance, Kernel
from ._inducing import Landmarks
from ._landscape import assign_kwargs
from ._solver import GP_PARAMETER_CONSTRAINTS, check_gp_kernel, gp_landscape
from ._tree import membership


class GPClustering(ClusterMixin, BaseEstimator):
    """Clustering by the variance of Gaussian-process regression (Kim & Lee 2007).

    The predictive variance ``σ²(x) = κ − kᵀC⁻¹k`` (eq. 3.1) of a GP fitted to the data is
    small where the data are dense. Every point descends ``dx/dt = −∇σ²`` (eq. 4.2) to a stable
    equilibrium point (SEP, a local minimum of σ²); two SEPs are adjacent at level r when
    every checked point of the segment between them has ``σ² ≤ r`` (eq. 4.3 with errata 1).
    The clusters are the connected components, and the merge levels of the SEPs form a
    hierarchy (errata 3): ``hierarchy_``, ``labels_at``.

    Parameters
    ----------
    kernel : Kernel, str, callable or None, default=None
        A differentiable covariance, e.g. ``GPCovariance(v0=1, v1=10, v2=1, l=400)`` (eq. 2.7),
        or ``"gp"``/``"rbf"`` with ``kernel_params``. None: an isotropic GPCovariance whose
        length scale ℓ₀ comes from the data
        (:func:`~kernel_patterns.cluster.gp.default_kernel`), exposed as ``kernel_``; with
        ``n_clusters`` too, ℓ₀ is shortened by factors of √2 (down to ℓ₀/4) until the
        landscape holds ``n_clusters`` groups of real size.
    kernel_params : dict, default=None
        Parameters of a named kernel.
    level : float, default=None
        The cutting level r (> 0): SEPs whose segment stays at or below r are one cluster.
        None chooses from the data: with a kernel, the support r* (the largest variance of a
        training point) without the merges below every training point
        (``data_level_components``); with ``kernel=None``,
        the clusters of greatest excess of mass read along a ladder of length scales
        (``excess_of_mass``, ``count_trace_``).
    n_clusters : int, default=None
        The ``n_clusters`` most persistent groups of the saddle hierarchy
        (``persistent_components``), each of at least
        ``max(min_cluster_size, N / (10 n_clusters))`` points; smaller basins merge into the
        cluster they open into, or are noise (-1). Too few such groups: a warning and fewer
        clusters (a ``ValueError`` when a given kernel has fewer SEPs). With
        ``kernel=None``, the clusters of ``GPClustering()`` where its count rule finds
        ``n_clusters`` itself (else the length scale is searched); data on a line
        (``principal_axis``) are cut at the valleys of
        largest dip (``dip_partition``). Give ``level`` or
        ``n_clusters``, not both.
    n_segment_points : int, default=20
        Points checked on each segment between two SEPs (the paper checks 10 to 20).
    merge_radius : float, default=0.1
        In units of the kernel length scale: converged points this close to a SEP join it.
    tol : float, default=1e-4
        Convergence of the descent: ``‖∇σ²‖ · length scale ≤ tol · r*``.
    max_iter : int, default=500
        Largest number of batched descent iterations.
    approximation : {"auto", "exact", "inducing"}, default="auto"
        ``"auto"``: ``"exact"`` up to 1,000 training points, ``"inducing"`` beyond.
        ``"exact"``: the variance of eq. 3.1 (O(N³)), every point flowed to its SEP.
        ``"inducing"``: the FITC inducing-point variance, the SEPs from the full flows of
        ``subsample`` points, every other point given the SEP of a lower training point it
        reaches by a checked segment, else assigned by
        :func:`~kernel_patterns.cluster.gp.assign_to_equilibria` (in more than 15 features,
        the SEP of its nearest subsample point). With ``kernel=None`` every point counts
        ``subsample / N`` in the variance.
    n_landmarks : int, default=None
        ``approximation="inducing"``: number m of inducing points (at most N). None: as many
        as resolve the length scale, from 300 to 1,000
        (``auto_n_landmarks``).
    landmarks : {"kmeans", "kmeans++", "uniform"}, default="kmeans"
        ``approximation="inducing"``: how the inducing points are chosen: k-means centres,
        data points by k-means++ D² sampling, or data points uniformly at random.
    subsample : int, default=None
        ``approximation="inducing"``: training points, drawn at random, whose full flows give
        the SEPs, r* and, with ``kernel=None``, the length scale (None: 2,000; at most N).
    assign_steps : int, default=10
        ``approximation="inducing"``: descent steps of the short flow of the points that
        fail the first segment check.
    batch_size : int, default=None
        ``approximation="inducing"``: points assigned per batch (None: as many as keep the
        temporaries under 64 MiB), and subsample points
        flowed together (None: 4,096).
    min_cluster_size : int, default=5
        Clusters with fewer training points are noise (label -1, as in HDBSCAN). With
        ``kernel=None`` and more than ``subsample`` points, a cluster holds at least
        ``min_cluster_size * N / subsample`` points.
    feature_transform : {"auto", "yeo-johnson"} or None, default="auto"
        Gaussianise the features (standardise, then Yeo-Johnson) before the landscape.
        ``"auto"``: with ``kernel=None`` when the median feature's excess kurtosis is above
        ``kernel_patterns.cluster.gp.TAIL_KURTOSIS``; ``"yeo-johnson"``: always; None: never.
        ``kernel_``, ``landscape_.equilibria`` and ``inducing_points_`` are then in the
        transformed space; ``equilibria_``, ``variance``, ``predict`` and the plots use the
        input's units. Data far from the origin (mean beyond 1e6 standard deviations) are
        centred instead, and that centring is ``feature_transform_``.
    random_state : int, RandomState instance or None, default=None
        Seeds the subsample and the inducing points, and, with neither ``level`` nor
        ``n_clusters``, Hopkins' test (``hopkins_test``) and
        the test of two modes (``unimodal_split_test``).

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of every training point (0, 1, ... in order of first appearance; -1: noise).
    n_clusters_ : int
        Clusters found (noise not counted).
    equilibria_ : ndarray of shape (n_equilibria, n_features)
        The SEPs, in the input's units.
    equilibrium_labels_ : ndarray of shape (n_equilibria,)
        Cluster of every SEP (-1: noise).
    basins_ : ndarray of shape (n_samples,)
        Index of the SEP of every training point.
    inducing_points_ : ndarray of shape (m, n_features) or None
        The inducing points (``approximation="inducing"``), else None.
    level_ : float
        The level used.
    max_variance_ : float
        r*, the largest variance of a training point (eq. 4.1); with
        ``approximation="inducing"``, of a ``subsample`` point.
    hierarchy_ : ndarray of shape (n_equilibria - 1, 4)
        scipy linkage matrix over the SEPs; heights are the merge (saddle) levels.
    kernel_ : Kernel
        The kernel used.
    feature_transform_ : sklearn Pipeline or None
        The fitted feature transform (or centring) the landscape lives behind, or None.
    landscape_ : GPLandscape
        The solver's result (:func:`~kernel_patterns.cluster.gp.gp_landscape`), with its
        :class:`~kernel_patterns.cluster.gp.GPHierarchy` (``landscape_.hierarchy``).
    n_iter_ : int
        Descent iterations of the fit (inducing: of the subsample's flow).
    count_trace_ : GPCountTrace or None
        Why these clusters (``kernel=None`` with neither ``level`` nor ``n_clusters``; else
        None): :class:`~kernel_patterns.cluster.gp.GPCountTrace`.
    probabilities_ : ndarray of shape (n_samples,)
        Membership strength in [0, 1]: 1 at the cluster's lowest SEP, 0 at ``level_`` and
        for noise (``membership``).
    outlier_scores_ : ndarray of shape (n_samples,)
        In [0, 1]: 0 at the cluster's peak, 1 at the training point of largest variance.
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

    Many points: inducing points, SEPs from a subsample, a short flow for the rest.

    >>> X, y = datasets.make_rings((2000, 4000), random_state=0)
    >>> X = datasets.scale_unit_interval(X)
    >>> gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=400), approximation="inducing",
    ...                   n_landmarks=200, subsample=500, random_state=0).fit(X)
    >>> gp.n_clusters_, gp.inducing_points_.shape
    (2, (200, 2))
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "kernel": [Kernel, str, callable, None],
        "kernel_params": [dict, None],
        **GP_PARAMETER_CONSTRAINTS,
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
        approximation: Literal["auto", "exact", "inducing"] = "auto",
        n_landmarks: int | None = None,
        landmarks: Landmarks = "kmeans",
        subsample: int | None = None,
        assign_steps: int = 10,
        batch_size: int | None = None,
        min_cluster_size: int = 5,
        feature_transform: Literal["auto", "yeo-johnson"] | None = "auto",
        random_state: Any = None,
    ) -> None:
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.level = level
        self.n_clusters = n_clusters
        self.n_segment_points = n_segment_points
        self.merge_radius = merge_radius
        self.tol = tol
        self.max_iter = max_iter
        self.approximation = approximation
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks
        self.subsample = subsample
        self.assign_steps = assign_steps
        self.batch_size = batch_size
        self.min_cluster_size = min_cluster_size
        self.feature_transform = feature_transform
        self.random_state = random_state

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
        _refuse_sparse(X)
        Xv = validate_data(self, X, dtype=np.float64, ensure_min_samples=2, copy=True)
        land = gp_landscape(
            Xv, self._resolve_kernel(), level=self.level, n_clusters=self.n_clusters,
            n_segment_points=self.n_segment_points, merge_radius=self.merge_radius,
            tol=self.tol, max_iter=self.max_iter, approximation=self.approximation,
            n_landmarks=self.n_landmarks, landmarks=self.landmarks,
            subsample=self.subsample, assign_steps=self.assign_steps,
            batch_size=self.batch_size, min_cluster_size=self.min_cluster_size,
            feature_transform=self.feature_transform, random_state=self.random_state,
        )
        self.landscape_ = land
        self.inducing_points_ = land.inducing_points
        self.kernel_ = land.kernel
        self.feature_transform_ = land.transform
        self.max_variance_ = land.max_variance
        self.level_ = land.level
        self.equilibria_ = land.input_equilibria
        self.equilibrium_variance_ = land.equilibrium_variance
        self.equilibrium_labels_ = land.equilibrium_labels
        self.basins_ = land.basins
        self.hierarchy_ = land.hierarchy.linkage
        self.n_iter_ = land.n_iter
        self.labels_ = land.labels
        self.n_clusters_ = land.n_clusters
        self.count_trace_ = land.count_trace
        v = land.training_variance
        self.probabilities_, self.outlier_scores_ = membership(
            land.variance(Xv) if v is None else v, land.labels, land.basins,
            land.equilibrium_variance, land.level)
        return self

    def _resolve_kernel(self) -> Kernel | None:
        """The kernel object (None: the solver chooses one from the data)."""
        if self.kernel is None:
            if self.kernel_params:
                raise ValueError("kernel_params needs a kernel name (kernel='gp' or 'rbf').")
            return None
        return check_gp_kernel(resolve_kernel(self.kernel, self.kernel_params))

    def assign_params(self) -> dict[str, Any]:
        """Keyword arguments of :func:`~kernel_patterns.cluster.gp.assign_to_equilibria`
        for this fit, for a driver that assigns partitions of points elsewhere::

            land = est.landscape_  # with a feature_transform_, X_part goes through it first
            basins = assign_to_equilibria(land.model, land.transform.transform(X_part)
                                          if land.transform else X_part, land.equilibria,
                                          **est.assign_params()).basins
            labels = est.equilibrium_labels_[basins]

        ``predict`` instead gives every point the SEP of the nearest of ``landscape_.flowed``
        (``landscape_.assign``).
        """
        check_is_fitted(self)
        land = self.landscape_
        return assign_kwargs(land.length_scale, self.max_variance_, land.options)

    # ------------------------------------------------------------------ queries
    def _check_X(self, X: ArrayLike) -> FloatArray:
        check_is_fitted(self)
        _refuse_sparse(X)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def variance(self, X: ArrayLike) -> FloatArray:
        """σ²(x) = κ − kᵀC⁻¹k (eq. 3.1) at every row of ``X``, clipped at 0."""
        Xv = self._check_X(X)
        return self.landscape_.variance(Xv)

    def variance_gradient(self, X: ArrayLike) -> FloatArray:
        """∇σ²(x) in closed form at every row of ``X``, shape (n_points, n_features); with
        respect to the transformed features when ``feature_transform_`` is set."""
        Xv = self._check_X(X)
        return self.landscape_.gradient(Xv)

    def labels_at(
        self, level: float | None = None, n_clusters: int | None = None, *,
        min_cluster_size: int | None = None,
    ) -> NDArray[Any]:
        """Labels of the training points at another level, or for another cluster count.

        Cuts ``hierarchy_`` (no refit). Give exactly one of ``level`` (> 0) and ``n_clusters``
        (≥ 1: the cut nearest ``level_`` with that many clusters). Groups of fewer than
        ``min_cluster_size`` training points (default: the fit's) are noise, -1.
        """
        check_is_fitted(self)
        return self.landscape_.labels_at(level, n_clusters, min_cluster_size=min_cluster_size)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Cluster of new points: flow them to an equilibrium (Corollary 1).

        A point that reaches a known SEP takes its cluster; one that stops elsewhere takes that
        of the SEP whose segment to it has the lowest largest variance. With
        ``approximation="inducing"``: the cluster of the SEP of the nearest subsample point.
        On training points near a basin boundary it can differ from ``labels_``.
        """
        Xv = self._check_X(X)
        return self.landscape_.predict(Xv)

    # ------------------------------------------------------------------ sklearn
    @classmethod
    def _sk_check_instances(cls) -> list[GPClustering]:
        # a fixed short length scale (0.2): the checks' small sets have too few SEPs under
        # the data-driven kernel for the n_clusters they set
        k = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=25.0)
        inducing = cls(kernel=k, approximation="inducing", n_landmarks=25, subsample=30,
                       random_state=0)
        return [cls(kernel=k), inducing]


def _refuse_sparse(X: Any) -> None:
    """A TypeError for sparse ``X`` that says what the dense copy would cost."""
    if not sparse.issparse(X):
        return
    n, d = X.shape
    nbytes = 8.0 * n * d
    size = f"{nbytes / 1e6:.3g} MB" if nbytes < 1e9 else f"{nbytes / 1e9:.3g} GB"
    raise TypeError(
        "GPClustering needs dense coordinates (it moves every point down the variance "
        f"gradient); X is a sparse {n} x {d} matrix, {size} as a dense array. Reduce its "
        "features first (e.g. sklearn.decomposition.TruncatedSVD) or pass X.toarray()."
    )
