"""The kernel k-means estimator, :class:`KernelKMeans` (Algorithm 8.22 of Shawe-Taylor &
Cristianini), thin over the lock-step Lloyd solver of :mod:`~._kernel_kmeans_solver`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin, _fit_context
from sklearn.utils.validation import _check_sample_weight, validate_data

from ..utils import store_init_params
from ._degenerate import held_first
from ._kernel_kmeans_solver import (
    FloatArray,
    IntArray,
    _hard_distances,
    _lloyd_kernel_kmeans_runs,
)
from ._kmeans_base import _best_run, _clip_roundoff, _KernelKMeansBase


class KernelKMeans(ClassNamePrefixFeaturesOutMixin, TransformerMixin, _KernelKMeansBase):
    """Kernel k-means (Algorithm 8.22 of Shawe-Taylor & Cristianini; eq. 6.3 of Rogers &
    Girolami) with the exact feature-space distance.

    Parameters
    ----------
    n_clusters : int, default=8
        As scikit-learn's ``KMeans`` and every estimator here that needs a count;
        :class:`~kernel_patterns.GPClustering` finds its own.
    kernel : str, Kernel or callable, default="rbf"
        A kernel object, a name (``"rbf"``, ``"linear"``, ``"geodesic"``, ... with
        ``kernel_params``), ``"precomputed"`` (then ``X`` is the square kernel matrix, checked
        to be symmetric and positive semidefinite, else ``ValueError``) or a callable.
        The default, ``RBF(gamma="scale")``, takes its width from the data: ``X * c + b``
        (c > 0, b the same on every column) gives the same result; different shifts per
        column may not (:class:`~kernel_patterns.kernels.RBF`).
    kernel_params : dict, default=None
    init : {"k-means++", "random", "kmeans", "n-k+1"}, callable or array
        ``"random"``: random balanced assignments; ``"kmeans"``: the labels of standard
        k-means in input space; ``"n-k+1"``: N − K + 1 points in cluster 0 and K − 1 random
        points alone (file ``003``); ``"k-means++"``: k-means++ seeding in feature space; an
        array of shape (n_samples,): initial labels; of shape (n_clusters, n_features):
        initial centres in the units of ``X``, as ``KMeans`` takes them (each point starts
        in the nearest φ(c_j) in feature space). With an array ``n_init`` is ignored (one
        run). A callable is called as
        scikit-learn's ``KMeans`` calls it, ``init(X, n_clusters, random_state)`` (once per
        restart, ``random_state`` a ``RandomState``), and returns initial centres of shape
        (n_clusters, n_features) (each point starts in the nearest φ(c_j) in feature space)
        or initial labels of shape (n_samples,).
    n_init : int or "auto", default="auto"
        Restarts from different initialisations; the run of lowest ``inertia_`` is kept.
        ``"auto"``: 10, or 1 when ``init`` is an array (labels or centres).
    max_iter : int, default=300
        Iterations at most, counted as ``KMeans`` counts them: the assignment of ``init``
        and the centroids it gives are the first, each reassignment after it the next.
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
    approximation : {"auto", "exact", "nystrom"}, default="auto"
        ``"nystrom"``: cluster with ``K ≈ F Fᵀ`` from ``n_landmarks`` landmarks
        (:class:`~kernel_patterns.kernels.NystromKernelOperator`; memory O(N m), each pass
        O(N r k)). The same solver runs; at ``n_landmarks = n_samples`` it is the exact
        method. ``"auto"``: exact up to 10,000 samples, Nyström beyond (a kernel function
        and ``operator="auto"`` only; a precomputed or data-dependent kernel, such as the
        geodesic one, and an explicit ``operator`` stay exact). The choice made is
        ``approximation_``.
    n_landmarks : int, default=None
        Number of Nyström landmarks m (None: min(300, n_samples)); ignored when the
        kernel is exact (as scikit-learn ignores parameters of other options).
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    memory_budget : float, default=None
        Bytes allowed for the dense N × N kernel matrix (None: half the memory available at
        fit time). The solver's other buffers are O(N · n_clusters · n_init). Raise it to go
        up to the machine's ceiling (about 65,000 points in float32 on 24 GB).
    feature_transform : {"auto", "yeo-johnson"} or None, default="auto"
        Gaussianise the features before the kernel: each standardised, then Yeo-Johnson
        transformed (scikit-learn's ``PowerTransformer``). ``"auto"``: under the default
        data-driven width (``RBF(gamma="scale")``) when the features are heavy-tailed (the
        median feature's excess kurtosis above 1,
        ``kernel_patterns.cluster.gp.TAIL_KURTOSIS``): a dense core and a sparse tail set
        one width badly. Standardised breast cancer (3.0) 0.65 → 0.76 ARI, diabetes (2.2)
        0.40 → 0.52; light-tailed data and kernels with a width you give are left as they
        are. ``"yeo-johnson"``: always (dense features only); None: never. New points go
        through the same fitted transform (``feature_transform_``); the transform does not
        read ``sample_weight``, and a callable ``init`` sees the transformed features.
    verbose : int, default=0
        1: print each pass's inertia per restart and a summary of the restarts; the solver
        reports through a callback and never prints.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        The assignment to the final centroids, so ``labels_ == predict(X_train)`` also when
        ``max_iter`` or ``tol`` stopped the run (as scikit-learn's ``KMeans``).
    inertia_ : float
        Σ_i w_i ‖φ(x_i) − C_{f(x_i)}‖², eq. 8.12 in feature space (= ss(A) of Prop. 8.24),
        of ``labels_`` against the final centroids.
    n_iter_ : int
        Iterations of the kept run, counted as ``KMeans`` counts them: the assignment of
        ``init`` and its centroids is the first.
    approximation_ : {"exact", "nystrom"}
        The kernel the fit used (``approximation="auto"`` resolved).
    kernel_ : Kernel
        The kernel used (fitted on X for data-dependent kernels such as the geodesic one).
    feature_transform_ : sklearn Pipeline or None
        The fitted feature transform (``feature_transform``), or None.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when ``X`` has string column names (a DataFrame).

    Notes
    -----
    Empty clusters (a cluster that loses every point in a pass, or an initial labelling
    that leaves a cluster empty) are re-seeded with the point farthest from its centroid in
    feature space (weighted by ``sample_weight``), as scikit-learn's ``KMeans`` does in input
    space. New points go to the nearest centroid in feature space,
    ``argmin_k (D AᵀKA D)_kk − 2 (kᵀ A D)_k`` (the rule before Algorithm 8.22).
    :meth:`transform` gives the distances ``‖φ(x) − μ_k‖`` (``KMeans.transform`` in feature
    space) and :meth:`score` minus the objective of new points, as ``KMeans.score``.

    With ``kernel="linear"`` this is scikit-learn's ``KMeans``, whose own test suite passes
    (``tests/peers/test_sklearn_k_means.py``) but for these deliberate differences: an array
    ``init`` may hold initial labels as well as centres (a callable ``init`` is called once
    per restart, without ``KMeans``' one-init warning); ``tol`` bounds moved points, not a
    centre shift; the precision is the ``dtype`` parameter, not the input's. ``max_iter``
    and ``n_iter_`` count iterations as ``KMeans`` does (the assignment of ``init`` is the
    first), and a point on its centroid is at distance exactly 0.

    An emptied cluster is never re-seeded with a point that sits on its centroid (a
    duplicate of the rest of its cluster): that would split identical points across two
    clusters. With fewer distinct points than ``n_clusters`` the clusters left empty are
    numbered last (``labels_`` are 0 … used − 1, no gaps), get no centroid (``predict``
    never chooses them, ``transform`` gives them an infinite distance) and a
    ``ConvergenceWarning`` says so, as ``KMeans``' does.

    tslearn's ``KernelKMeans`` tests (``tests/peers/test_tslearn_clustering.py``) pass on flat
    feature vectors but for these deliberate differences: ``X`` is 2-D (a time-series set
    ``(n, sz, d)`` is passed as ``X.reshape(n, -1)``, and NaN-padded series of different
    lengths are refused as missing values); the global alignment kernel is tslearn's, not
    ours (the default is RBF); ``n_clusters > n_samples`` is a ``ValueError``, not an
    unfitted model; models are saved with pickle, not ``to_json`` / ``to_hdf5``.

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
    ...                   approximation="nystrom", n_landmarks=50, random_state=0).fit(X)
    >>> clustering_accuracy(y, ny.labels_)
    1.0

    Distances to the cluster means in feature space, as a DataFrame:

    >>> km.set_output(transform="pandas").transform(X[:2]).columns.tolist()
    ['kernelkmeans0', 'kernelkmeans1']
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **_KernelKMeansBase._parameter_constraints,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        kernel: Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        init: Any = "k-means++",
        n_init: int | str = "auto",
        max_iter: int = 300,
        tol: float = 0.0,
        random_state: Any = None,
        operator: str = "auto",
        dtype: str = "auto",
        approximation: Literal["auto", "exact", "nystrom"] = "auto",
        n_landmarks: int | None = None,
        landmarks: Literal["uniform", "kmeans++", "leverage"] = "uniform",
        memory_budget: float | None = None,
        feature_transform: Literal["auto", "yeo-johnson"] | None = "auto",
        verbose: int = 0,
    ) -> None:
        store_init_params(self, locals())

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> KernelKMeans:
        """Cluster ``X`` (or the precomputed kernel matrix ``X``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
            scipy.sparse CSR/CSC features work with the linear, polynomial, cosine, RBF,
            Laplacian and sigmoid kernels (e.g. ``kernel="cosine"`` on TF-IDF); other kernels
            raise ``TypeError``.
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None
            Weighted kernel k-means (Dhillon et al.): centroids are weighted means. Only the
            weights' ratios matter (the fit divides them by the largest); ``inertia_`` is in
            the units of the weights given.
        """
        Xv, kernel, op, w, w_scale, diag, init = self._start_runs(X, sample_weight)
        if self.verbose:
            print(f"Initialization complete: {init.shape[0]} restart(s)")
        # iterations as scikit-learn's KMeans counts them: the first is the assignment of
        # init (labels, or the assignment to its centres) with the centroids it gives; each
        # pass of the solver after it is the next (its reassignment and centroids), so
        # max_iter=m is KMeans' max_iter=m and n_iter_ is its n_iter_ (with the linear kernel)
        labs, inertias, passes = _lloyd_kernel_kmeans_runs(
            op, init, self.n_clusters, w, self.max_iter - 1, self.tol, diag,
            callback=_pass_printer(w_scale) if self.verbose else None,
        )
        n_iters = passes + 1
        b = _best_run(inertias)
        if self.verbose:
            for j, (e, t) in enumerate(zip(inertias, n_iters, strict=True)):
                print(f"Restart {j}: inertia {e * w_scale:.6g} after {t} iteration(s)")
            print(f"Kept restart {b}")
            it = int(n_iters[b])
            if it >= self.max_iter:
                print(f"Stopped at max_iter={self.max_iter}")
            elif self.tol == 0:
                print(f"Converged at iteration {it}: strict convergence.")
            else:
                print(f"Converged at iteration {it}: at most tol · n_samples points moved.")
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
        still_moving = bool(moved.any())
        if still_moving:
            labels = np.where(moved, best, labels).astype(np.intp)
            inertia = float(w @ dist[rows, labels])
        rank = held_first(labels, self.n_clusters)
        if rank is not None:
            # a cluster is left empty only when every point that could re-seed it sits on its
            # centroid (duplicates): the held clusters are numbered first (labels 0 … used − 1,
            # no gaps), the empty ones last with no centroid (new points never go there;
            # transform gives them an infinite distance)
            order = np.argsort(rank)
            labels = rank[labels]
            coef = coef[:, order]
            within = np.where(sizes > 0.0, within, np.inf)[order]
        self._store_centroids(kernel, Xv, op, coef, within)
        self.labels_ = labels
        self.inertia_ = inertia * w_scale  # in the units of the given weights
        self.n_iter_ = n_iter
        used = int(np.unique(labels).size)
        self._warn_degenerate(
            # converged unless max_iter stopped it with points still moving (a fixed point
            # reached at max_iter has converged)
            labels, n_iter < self.max_iter or not still_moving,
            "the points left to re-seed the others sit on their centroids. Number of distinct "
            f"clusters ({used}) found smaller than n_clusters ({self.n_clusters}). Possibly due "
            "to duplicate points in X: lower n_clusters",
        )
        return self

    def predict(self, X: ArrayLike) -> IntArray:
        """Nearest centroid in feature space for new points (the rule before Algorithm 8.22).

        With ``kernel="precomputed"``, ``X`` is the kernel between the new and the training
        points, shape (n_new, n_train).
        """
        return np.argmin(self._centroid_scores(X), axis=1).astype(np.intp)

    def transform(self, X: ArrayLike) -> FloatArray:
        """Distances ``‖φ(x) − μ_k‖`` of new points to the cluster means in feature space.

        Parameters
        ----------
        X : array-like of shape (n_new, n_features)
            Not available with ``kernel="precomputed"`` (the kernel block between new and
            training points lacks k(x, x)); :meth:`fit_transform` is.

        Returns
        -------
        ndarray of shape (n_new, n_clusters)
        """
        return np.sqrt(self._centroid_scores(X, self_term=True))

    def fit_transform(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> FloatArray:
        """Fit, then the distances of the training points to the cluster means (with
        ``kernel="precomputed"`` too: k(x, x) is then the diagonal of ``X``)."""
        self.fit(X, sample_weight=sample_weight)
        if not self._is_precomputed():
            return self.transform(X)
        K = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
        kxx = np.diagonal(K).astype(np.float64)
        d2 = self._centroid_scores(K) + kxx[:, None]
        return np.sqrt(_clip_roundoff(d2, kxx, self._centroid_sq_norms, K.shape[1]))

    def score(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> float:
        """Minus the objective of ``X`` against the fitted centroids, ``−Σ_i w_i min_k
        ‖φ(x_i) − μ_k‖²`` (eq. 8.12, as ``KMeans.score``; on the training points
        ``−inertia_``). Not available with ``kernel="precomputed"`` (see :meth:`transform`).
        """
        d2 = self._centroid_scores(X, self_term=True)
        w = _check_sample_weight(sample_weight, d2, dtype=np.float64)
        return -float(w @ d2.min(axis=1))

    @property
    def _n_features_out(self) -> int:
        """Number of :meth:`transform` columns (``get_feature_names_out``), set by fit."""
        return int(self._centroid_sq_norms.shape[0])


def _pass_printer(w_scale: float) -> Callable[[int, IntArray, FloatArray], None]:
    """:func:`_print_pass` with the inertias in the units of the given weights (the solver's
    are over the largest weight, ``w_scale``)."""
    return lambda i, runs, inertias: _print_pass(i, runs, [float(e) * w_scale for e in inertias])


def _print_pass(iteration: int, runs: IntArray, inertias: Sequence[float]) -> None:
    """``verbose`` output of one pass of the solver: the inertia of each restart still
    running, for its labels of iteration ``iteration`` (the pass then makes the next one)."""
    shown = ", ".join(f"{j}: {e:.6g}" for j, e in zip(runs, inertias, strict=True))
    print(f"Iteration {iteration}, inertia by restart {{{shown}}}")
