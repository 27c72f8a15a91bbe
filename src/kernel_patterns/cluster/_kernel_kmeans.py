"""The kernel k-means estimator, :class:`KernelKMeans` (Algorithm 8.22 of Shawe-Taylor &
Cristianini), thin over the lock-step Lloyd solver of :mod:`~._kernel_kmeans_solver`."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import _fit_context

from ._kernel_kmeans_solver import (
    FloatArray,
    IntArray,
    _hard_distances,
    _lloyd_kernel_kmeans_runs,
)
from ._kmeans_base import _best_run, _KernelKMeansBase


class KernelKMeans(_KernelKMeansBase):
    """Kernel k-means (Algorithm 8.22 of Shawe-Taylor & Cristianini; eq. 6.3 of Rogers &
    Girolami) with the exact feature-space distance.

    Parameters
    ----------
    n_clusters : int, default=8
    kernel : str, Kernel or callable, default="rbf"
        A kernel object, a name (``"rbf"``, ``"linear"``, ``"geodesic"``, ... with
        ``kernel_params``), ``"precomputed"`` (then ``X`` is the square kernel matrix, checked
        to be symmetric and positive semidefinite, else ``ValueError``) or a callable.
    kernel_params : dict, default=None
    init : {"k-means++", "random", "kmeans", "n-k+1"} or array of shape (n_samples,)
        ``"random"``: random balanced assignments; ``"kmeans"``: the labels of standard
        k-means in input space; ``"n-k+1"``: N − K + 1 points in cluster 0 and K − 1 random
        points alone (file ``003``); ``"k-means++"``: k-means++ seeding in feature space; an
        array: initial labels (then ``n_init`` is ignored).
    n_init : int or "auto", default="auto"
        Restarts from different initialisations; the run of lowest ``inertia_`` is kept.
        ``"auto"``: 10, or 1 when ``init`` is an array of labels.
    max_iter : int, default=300
    tol : float, default=0.0
        Stop when at most ``tol · n_samples`` points change cluster in a pass (0: iterate to
        a fixed point, which exists because every pass lowers eq. 8.12).
    random_state : int, RandomState or None
        Seeds the initialisations and the Nyström landmarks.
    operator : {"auto", "dense", "chunked"}, default="auto"
        How the exact K is held. ``"auto"`` (for kernel k-means): dense, computed once, when
        the N × N matrix fits ``memory_budget``; beyond it ``fit`` raises
        :class:`~kernel_patterns.kernels.MemoryBudgetError` before allocating, naming
        ``approximation="nystrom"``. ``"chunked"`` (an explicit opt-in) recomputes rows of K
        in blocks on every pass: exact in bounded memory, but N² kernel evaluations per pass.
        Ignored with ``approximation="nystrom"``.
    dtype : {"auto", "float64", "float32"}, default="auto"
        Precision of K (or of the Nyström features): ``"auto"`` is float64 up to 20,000
        samples and float32 beyond (half the memory, about twice the speed).
    approximation : {"exact", "nystrom"}, default="exact"
        ``"nystrom"``: cluster with ``K ≈ F Fᵀ`` from ``n_components`` landmarks
        (:class:`~kernel_patterns.kernels.NystromKernelOperator`; memory O(N m), each pass
        O(N r k)). The same solver runs; at ``n_components = n_samples`` it is the exact
        method.
    n_components : int, default=None
        Number of Nyström landmarks m (None: min(300, n_samples)); ignored with
        ``approximation="exact"`` (as scikit-learn ignores parameters of other options).
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    memory_budget : float, default=None
        Bytes allowed for the dense N × N kernel matrix (None: half the memory available at
        fit time). The solver's other buffers are O(N · n_clusters · n_init). Raise it to go
        up to the machine's ceiling (about 65,000 points in float32 on 24 GB).

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        The assignment to the final centroids, so ``labels_ == predict(X_train)`` also when
        ``max_iter`` or ``tol`` stopped the run (as scikit-learn's ``KMeans``).
    inertia_ : float
        Σ_i w_i ‖φ(x_i) − C_{f(x_i)}‖², eq. 8.12 in feature space (= ss(A) of Prop. 8.24),
        of ``labels_`` against the final centroids.
    n_iter_ : int
        Reassignment passes of the kept run.
    kernel_ : Kernel
        The kernel used (fitted on X for data-dependent kernels such as the geodesic one).
    n_features_in_ : int

    Notes
    -----
    Empty clusters (a cluster that loses every point in a pass, or an initial labelling
    that leaves a cluster empty) are re-seeded with the point farthest from its centroid in
    feature space (weighted by ``sample_weight``), as scikit-learn's ``KMeans`` does in input
    space. New points go to the nearest centroid in feature space,
    ``argmin_k (D AᵀKA D)_kk − 2 (kᵀ A D)_k`` (the rule before Algorithm 8.22).

    Examples
    --------
    >>> from kernel_patterns import KernelKMeans
    >>> from kernel_patterns.datasets import make_rings
    >>> X, y = make_rings(radii=(0.3, 2.0), random_state=0)  # a disc inside a ring
    >>> km = KernelKMeans(n_clusters=2, kernel="rbf", kernel_params={"gamma": 1.0},
    ...                   random_state=0).fit(X)
    >>> from kernel_patterns.metrics import clustering_accuracy
    >>> clustering_accuracy(y, km.labels_)
    1.0

    The same with a rank-50 Nyström approximation (memory O(N m), for large N):

    >>> ny = KernelKMeans(n_clusters=2, kernel="rbf", kernel_params={"gamma": 1.0},
    ...                   approximation="nystrom", n_components=50, random_state=0).fit(X)
    >>> clustering_accuracy(y, ny.labels_)
    1.0
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> KernelKMeans:
        """Cluster ``X`` (or the precomputed kernel matrix ``X``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None
            Weighted kernel k-means (Dhillon et al.): centroids are weighted means.
        """
        Xv, kernel, op, w, diag, init = self._start_runs(X, sample_weight)
        labs, inertias, n_iters = _lloyd_kernel_kmeans_runs(
            op, init, self.n_clusters, w, self.max_iter, self.tol, diag
        )
        b = _best_run(inertias)
        labels, inertia, n_iter = labs[b], float(inertias[b]), int(n_iters[b])
        dist, sizes, within = _hard_distances(op, labels, w, diag, self.n_clusters)
        rows = np.arange(op.n_samples)
        coef = np.zeros((op.n_samples, self.n_clusters))
        coef[rows, labels] = w / sizes[labels]
        # a run stopped by max_iter or tol has labels one step behind its centroids: as
        # scikit-learn's KMeans does, labels_ is the assignment to the final centroids (a point
        # moves only to a strictly nearer one), so that labels_ == predict(X_train)
        best = np.argmin(dist, axis=1)
        moved = dist[rows, best] < dist[rows, labels]
        if moved.any():
            labels = np.where(moved, best, labels).astype(np.intp)
            inertia = float(w @ dist[rows, labels])
        self._store_centroids(kernel, Xv, op, coef, within)
        self.labels_ = labels
        self.inertia_ = inertia
        self.n_iter_ = n_iter
        self._warn_degenerate(labels, n_iter, "lower n_clusters or widen the kernel")
        return self

    def _transform_distances(self, X: ArrayLike) -> FloatArray:
        return self._centroid_scores(X)

    def predict(self, X: ArrayLike) -> IntArray:
        """Nearest centroid in feature space for new points (the rule before Algorithm 8.22).

        With ``kernel="precomputed"``, ``X`` is the kernel between the new and the training
        points, shape (n_new, n_train).
        """
        return np.argmin(self._transform_distances(X), axis=1).astype(np.intp)
