"""Shared estimator machinery of :class:`KernelKMeans` and :class:`SoftKernelKMeans`:
parameters, validation, the kernel operator, initial labels and centroid scores of new points.

Operators. ``approximation="auto"`` (the default) is the exact kernel up to 10,000 samples
and Nyström beyond (:func:`~kernel_patterns._fit.resolve_approximation`).
``approximation="exact"`` with ``operator="auto"`` holds K in memory once (dense)
or, when the N × N matrix exceeds the memory budget, raises :class:`MemoryBudgetError`
*before allocating*, naming ``approximation="nystrom"``: kernel k-means reads all of K every
pass, so recomputing it (the chunked operator) costs N² kernel evaluations per iteration,
hours at N = 100,000. ``operator="chunked"`` stays available as an explicit opt-in.
``approximation="nystrom"`` clusters with ``K ≈ F Fᵀ`` (memory O(N m), never N²); its fitted
state for new points is the landmarks, the feature map and the k centroids in feature space
(k × r), never the N × r training features.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._fit import AUTO_APPROXIMATION_CONSTRAINTS, FitSetup, prepare_operator, resolve_kernel
from .._tails import apply_to
from .._validation import check_matrix, check_n_clusters
from .._warnings import user_stacklevel
from ..kernels import (
    Kernel,
    KernelOperator,
    check_kernel_input,
    make_kernel,
    make_operator,
    operator_backend,
)
from ..utils import (
    OPERATOR_PARAMETER_CONSTRAINTS,
    is_precomputed,
    kernel_columns,
)
from ._kmeans_init import (
    _init_all_but_k,
    _init_input_kmeans,
    _init_kmeans_plusplus,
    _init_random,
)

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.floating[Any]]


class _KernelKMeansBase(ClusterMixin, BaseEstimator):
    """Shared parameters, validation, initialisation and kernel rows for new points."""

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "kernel": [str, callable],
        "kernel_params": [dict, None],
        "init": [StrOptions({"k-means++", "random", "kmeans", "n-k+1"}), "array-like", callable],
        "n_init": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        **OPERATOR_PARAMETER_CONSTRAINTS,
        **AUTO_APPROXIMATION_CONSTRAINTS,
        "memory_budget": [Interval(Real, 0, None, closed="neither"), None],
        "feature_transform": [StrOptions({"auto", "yeo-johnson"}), None],
    }

    _sk_expected_failed_checks: ClassVar[dict[str, str]] = dict.fromkeys(
        ("check_sample_weight_equivalence_on_dense_data",
         "check_sample_weight_equivalence_on_sparse_data"),
        "the random seeding draws per sample, so repeating a point instead of weighting it "
        "changes the random stream; the clusters agree but their label numbers are "
        "permuted (scikit-learn's KMeans has the same exemption)",
    )

    # the parameters (each subclass's __init__ sets them with store_init_params, its
    # signature the one place they and their defaults are written)
    n_clusters: int
    kernel: Any
    kernel_params: dict[str, Any] | None
    init: Any
    n_init: int | str
    max_iter: int
    tol: float
    random_state: Any
    operator: str
    dtype: str
    approximation: Literal["auto", "exact", "nystrom"]
    n_landmarks: int | None
    landmarks: Literal["uniform", "kmeans++", "leverage"]
    memory_budget: float | None
    feature_transform: Literal["auto", "yeo-johnson"] | None

    @classmethod
    def _sk_check_instances(cls) -> list[Any]:
        """The estimator checks run the exact and the Nyström variant."""
        return [cls(), cls(approximation="nystrom", random_state=0)]

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self._is_precomputed()
        tags.input_tags.sparse = _kernel_accepts_sparse(self.kernel, self.kernel_params)
        return tags

    def _is_precomputed(self) -> bool:
        return is_precomputed(self.kernel)

    # -- fit helpers ---------------------------------------------------------------
    def _start_runs(
        self, X: ArrayLike, sample_weight: ArrayLike | None
    ) -> tuple[FloatArray, Kernel, KernelOperator, FloatArray, float, FloatArray, IntArray]:
        """The first step of both ``fit`` methods: the operator (:meth:`_prepare_fit`), the
        fitted ``feature_transform_`` (stored here: ``init`` centres go through it) and
        everything the restarts start from: validated data, kernel, operator, weights (over
        their largest, :func:`_relative_weights`) and the factor that brings the objective
        back to the given weights, the kernel's diagonal and the initial labels of every
        restart (n_runs × n_samples), drawn in order from one generator seeded by
        ``random_state``."""
        setup = self._prepare_fit(X)
        self.feature_transform_ = setup.feature_transform
        Xv, op = setup.X, setup.operator
        check_n_clusters(self.n_clusters, op.n_samples)
        w, w_scale = _relative_weights(sample_weight, Xv)
        diag = np.asarray(op.diag(), dtype=np.float64)
        rng = np.random.default_rng(check_random_state(self.random_state).randint(2**31 - 1))
        init = np.stack(
            [self._initial_labels(Xv, op, diag, w, rng) for _ in range(self._n_runs())]
        )
        return Xv, setup.kernel, op, w, w_scale, diag, init

    def _warn_degenerate(self, labels: IntArray, converged: bool, remedy: str | None) -> None:
        """Name a degenerate fit: clusters that hold no point (with ``remedy``; None when the
        caller has named them already), or no convergence (``converged`` False)."""
        used = int(np.unique(labels).size)
        if remedy is not None and used < self.n_clusters:
            warnings.warn(
                f"{type(self).__name__}: only {used} of the n_clusters={self.n_clusters} "
                f"clusters hold a point after fitting; {remedy}.",
                ConvergenceWarning,  # scikit-learn's KMeans warns so (a UserWarning)
                stacklevel=user_stacklevel(),
            )
        if not converged:
            warnings.warn(
                f"{type(self).__name__} did not converge in max_iter={self.max_iter} "
                "iterations (assignments still changing); raise max_iter or tol.",
                ConvergenceWarning,
                stacklevel=user_stacklevel(),
            )

    def fit_predict(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> IntArray:
        """Fit and return ``labels_``."""
        return self.fit(X, sample_weight=sample_weight).labels_

    def _prepare_fit(self, X: ArrayLike) -> FitSetup:
        """The shared fit path (:func:`prepare_operator`) with kernel k-means' operator rule:
        ``operator="auto"`` with the exact kernel is dense-or-raise (module docstring), unless
        an operator backend (``kernel_patterns.distributed.dask_backend``) decides where K
        lives. Sets ``approximation_``, the approximation used."""
        setup = prepare_operator(
            self, X, resolve_kernel(self.kernel, self.kernel_params),
            random_state=self._landmark_seed(),
            feature_transform=self.feature_transform,
            memory_budget=None if self.memory_budget is None else int(self.memory_budget),
            check_psd=True, min_samples=1, sparse_precomputed=False,
            dense_or_raise=operator_backend() is None,
        )
        self.approximation_ = setup.approximation
        return setup

    def _landmark_seed(self) -> int | None:
        """Seed of the Nyström landmarks, drawn from ``random_state`` apart from the restarts
        (also for ``approximation="auto"``, which may resolve to Nyström)."""
        if self.approximation == "exact":
            return None
        return int(check_random_state(self.random_state).randint(2**31 - 1)) ^ 0x5EED

    def _store_centroids(
        self, kernel: Kernel, X: FloatArray, op: KernelOperator, coef: FloatArray,
        within: FloatArray,
    ) -> None:
        """Keep what :meth:`_centroid_scores` needs for new points.

        ``coef`` (n × k) expands each centroid over the training points, ``within`` holds the
        centroids' squared norms. Exact fits keep ``coef`` and X (kernel rows of new points
        are needed anyway); Nyström fits keep the landmarks, the feature map (m × r) and the
        centroids in feature space ``Fᵀ coef`` (r × k): O(m d + m r + r k) memory.
        """
        self.kernel_ = kernel
        self._n_train = op.n_samples
        self._op_dtype = op.dtype
        self._centroid_sq_norms = within
        self._centroid_coef: FloatArray | None = None
        self._X_fit: FloatArray | None = None
        self._nystrom: tuple[FloatArray, FloatArray, FloatArray] | None = None
        # NystromKernelOperator and the Dask-built Nyström operator alike
        F = op.low_rank_factor()
        lm = op.landmark_map()
        if self.approximation_ == "nystrom" and F is not None and lm is not None:
            idx, feature_map = lm
            centroids = np.asarray(F.T @ coef.astype(F.dtype), dtype=np.float64)  # (r, k)
            self._nystrom = (X[idx].copy(), np.asarray(feature_map), centroids)
        else:
            self._centroid_coef = coef
            self._X_fit = None if self._is_precomputed() else X

    def _initial_labels(
        self,
        X: FloatArray,
        op: KernelOperator,
        diag: FloatArray,
        w: FloatArray,
        rng: np.random.Generator,
    ) -> IntArray:
        init = self.init
        k = self.n_clusters
        n = op.n_samples
        if isinstance(init, str):
            if init == "random":
                return _init_random(n, k, rng)
            if init == "n-k+1":
                return _init_all_but_k(n, k, rng)
            if init == "kmeans":
                if self._is_precomputed():
                    raise ValueError(
                        "init='kmeans' runs k-means in input space, which a precomputed kernel "
                        "does not have; use 'k-means++', 'random' or 'n-k+1'."
                    )
                return _init_input_kmeans(X, k, w, rng)
            return _init_kmeans_plusplus(op, diag, k, w, rng)
        if callable(init):
            return self._labels_from_callable(X, op, rng)
        arr = np.asarray(init)
        if arr.ndim == 2:  # centres, as KMeans takes them, in the units of the input
            if self._is_precomputed():
                raise ValueError(
                    "init as centres (an array of shape (n_clusters, n_features)) needs the "
                    "features, which kernel='precomputed' does not have; give initial labels "
                    f"of shape ({n},) or a string."
                )
            if arr.shape != (k, X.shape[1]) or arr.dtype.kind not in "iuf":
                raise ValueError(
                    f"init as centres must be a numeric array of shape (n_clusters, "
                    f"n_features) = ({k}, {X.shape[1]}); got shape {arr.shape} and dtype "
                    f"{arr.dtype}."
                )
            C = apply_to(self.feature_transform_, check_matrix(arr, "init", dtype=np.float64))
            return _nearest_centre(op, np.asarray(C, dtype=X.dtype))
        return self._check_init_labels(init, n)

    def _labels_from_callable(
        self, X: FloatArray, op: KernelOperator, rng: np.random.Generator
    ) -> IntArray:
        """``init(X, n_clusters, random_state)`` as scikit-learn's ``KMeans`` calls it.

        It may return initial centres, shape (n_clusters, n_features), which become
        centroids φ(c_j) in feature space (each point starts in the nearest one), or initial
        labels, shape (n_samples,). ``random_state`` is a ``RandomState`` drawn from this
        estimator's ``random_state`` (one per restart).
        """
        k, n = self.n_clusters, op.n_samples
        out = np.asarray(self.init(X, k, np.random.RandomState(int(rng.integers(2**31 - 1)))))
        if out.shape == (n,) and out.dtype.kind in "iu":
            return self._check_init_labels(out, n)
        if out.ndim == 2 and out.shape == (k, X.shape[1]) and not self._is_precomputed():
            return _nearest_centre(op, check_matrix(out, "the centres init returned",
                                                    dtype=X.dtype))
        want = "" if self._is_precomputed() else f" or centres of shape ({k}, {X.shape[1]})"
        raise ValueError(
            f"init as a callable must return integer labels of shape ({n},){want}; got an "
            f"array of shape {out.shape} and dtype {out.dtype}."
        )

    def _check_init_labels(self, init: ArrayLike, n: int) -> IntArray:
        lab = np.asarray(init)
        if lab.shape != (n,):
            raise ValueError(
                f"init as an array must hold one initial label per sample, shape ({n},); "
                f"got shape {lab.shape}."
            )
        if lab.dtype.kind not in "iu" or lab.min() < 0 or lab.max() >= self.n_clusters:
            raise ValueError(
                "init as an array must hold integer labels in [0, n_clusters) = "
                f"[0, {self.n_clusters})."
            )
        return lab.astype(np.intp)

    def _n_runs(self) -> int:
        if not isinstance(self.init, str) and not callable(self.init):
            if self.n_init not in ("auto", 1):
                what = "center position" if np.ndim(self.init) == 2 else "labels"
                warnings.warn(  # scikit-learn's KMeans' words and category
                    f"Explicit initial {what} passed: performing only one init in "
                    f"{type(self).__name__} instead of n_init={self.n_init} (n_init is "
                    "ignored).",
                    RuntimeWarning,
                    stacklevel=user_stacklevel(),
                )
            return 1
        return 10 if self.n_init == "auto" else int(self.n_init)

    # -- new points ----------------------------------------------------------------
    def _centroid_scores(self, X: ArrayLike, self_term: bool = False) -> FloatArray:
        """``‖μ_k‖² − 2⟨φ(x), μ_k⟩`` for new points (the squared distance minus k(x, x)).

        Exact fits: ``within − 2 K(X, X_train) coef``. Nyström fits: the features of the new
        points ``K(X, L) U_r Λ_r^{-1/2}`` against the k centroids in feature space.
        ``self_term=True`` adds k(x, x) (the squared distances ``‖φ(x) − μ_k‖²``, clipped at
        0 and 0 within round-off, :func:`_clip_roundoff`; Nyström: ``‖φ̃(x)‖²`` of the
        approximate kernel), which a precomputed kernel block between new and training
        points does not hold.
        """
        check_is_fitted(self, "labels_")  # set last: a failed fit leaves the model unfitted
        if self._nystrom is not None:
            landmarks, feature_map, centroids = self._nystrom
            Xv = self._new_points(X)
            Fx = kernel_columns(self.kernel_, Xv, landmarks, self._op_dtype)
            Fx = Fx.astype(np.float64) @ feature_map
            out = self._centroid_sq_norms[None, :] - 2.0 * (Fx @ centroids)
            if self_term:
                kxx = np.einsum("ij,ij->i", Fx, Fx)
                out += kxx[:, None]
                _clip_roundoff(out, kxx, self._centroid_sq_norms, Fx.shape[1])
            return out
        if self_term and self._is_precomputed():
            raise ValueError(
                "with kernel='precomputed', distances to the centroids need k(x, x) of the new "
                "points, which the (n_new, n_train) kernel block does not hold; use "
                "fit_transform on the training kernel, or pass a kernel function."
            )
        Kx = self._cross(X)
        assert self._centroid_coef is not None
        out = self._centroid_sq_norms[None, :] - 2.0 * (Kx @ self._centroid_coef)
        if self_term:
            kxx = np.asarray(self.kernel_.diag(self._new_points(X)), dtype=np.float64)
            out += kxx[:, None]
            _clip_roundoff(out, kxx, self._centroid_sq_norms, Kx.shape[1])
        return out

    def _new_points(self, X: ArrayLike) -> FloatArray:
        """New points validated against the fit (sparse as CSR when the kernel takes it)."""
        pre = self._is_precomputed()
        Xv = validate_data(self, X, dtype=[np.float64, np.float32], reset=False,
                           accept_sparse=False if pre else ("csr", "csc"))
        if sparse.issparse(Xv):
            return check_kernel_input(self.kernel_, Xv)
        return apply_to(self.feature_transform_, Xv)

    def _cross(self, X: ArrayLike) -> FloatArray:
        """``K(X_new, X_train)``: kernel rows for new points through the operator's ``cross``."""
        Xv = self._new_points(X)
        if self._is_precomputed():
            if Xv.shape[1] != self._n_train:
                raise ValueError(
                    f"the precomputed kernel for new points must have {self._n_train} columns "
                    f"(one per training point); got shape {Xv.shape}."
                )
            return np.asarray(Xv, dtype=np.float64)
        assert self._X_fit is not None
        op = make_operator(self.kernel_, self._X_fit, operator="chunked", dtype=self._op_dtype)
        return np.asarray(op.cross(Xv), dtype=np.float64)


def _kernel_accepts_sparse(kernel: Any, kernel_params: dict[str, Any] | None) -> bool:
    """The ``sparse`` input tag: whether the kernel takes scipy.sparse data."""
    try:
        return bool(make_kernel(kernel, kernel_params).accepts_sparse)
    except (TypeError, ValueError):  # an invalid kernel: fit will say so
        return False


def _relative_weights(sample_weight: ArrayLike | None, X: Any) -> tuple[FloatArray, float]:
    """``sample_weight`` checked (one finite, non-negative weight per sample, a positive sum)
    and divided by its largest, with that largest: only the weights' ratios shape a k-means
    fit, and weights of 1e-300 or 1e300 give the fit of equal weights instead of products
    that under- or overflow (the objective times the largest is the given weights' one).

    >>> _relative_weights([2.0, 4.0], np.zeros((2, 1)))
    (array([0.5, 1. ]), 4.0)
    """
    w = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    top = float(w.max())
    if not top > 0:
        raise ValueError("sample_weight must have a positive sum.")
    return w / top, top


def _best_run(objectives: ArrayLike) -> int:
    """Index of the best restart: the FIRST within round-off (1e-12 relative) of the minimum.

    Restarts that reach the same partition under permuted label numbers have objectives that
    differ only by round-off, which differs between BLAS paths (local vs Dask); taking the
    first such run keeps the labels identical across paths instead of flipping on noise.

    A run whose objective is NaN or infinite is never kept; when every run's is, the kernel
    values overflowed (a callable kernel, or a precomputed one, beyond float64's range) and
    the error says so instead of keeping a meaningless run.

    >>> _best_run([3.0, 1.0 + 1e-15, 1.0, 2.0])
    1
    """
    v = np.asarray(objectives, dtype=np.float64)
    finite = np.isfinite(v)
    if not finite.any():
        raise ValueError(
            "every restart's objective is NaN or infinite: the kernel's values or the "
            "sample weights overflow float64 in the distances to the centroids; rescale X "
            "(or the kernel matrix) and sample_weight."
        )
    lo = float(v[finite].min())
    return int(np.flatnonzero(finite & (v <= lo + 1e-12 * max(abs(lo), 1e-300)))[0])


def _nearest_centre(op: KernelOperator, C: FloatArray) -> IntArray:
    """Initial labels from centres ``C`` (n_clusters × n_features, in the units the kernel
    takes): each point in the nearest φ(c_j), by ‖φ(x) − φ(c)‖² − k(x, x) = k(c, c) −
    2 k(x, c)."""
    score = np.asarray(op.cross(C), dtype=np.float64).T * -2.0  # (n, k)
    score += np.asarray(op.cross_diag(C), dtype=np.float64)[None, :]
    return np.argmin(score, axis=1).astype(np.intp)


def _clip_roundoff(
    d2: FloatArray, kxx: FloatArray, mu2: FloatArray, n_terms: int
) -> FloatArray:
    """Squared feature-space distances ``d2 = k(x, x) − 2⟨φ(x), μ⟩ + ‖μ‖²`` (in place) with
    what is round-off set to 0 (below 0, or at most ``8 (n_terms + 2) ε (k(x, x) + ‖μ‖²)``,
    the error bound of the three terms, the middle one a sum of ``n_terms`` products). A
    point on its centroid got √(round-off), about 1e-7, for an exact 0 (scikit-learn's
    ``test_transform_centres``)."""
    tol = 8.0 * (n_terms + 2) * np.finfo(np.float64).eps
    scale = np.abs(kxx)[:, None] + np.abs(mu2)[None, :]
    d2[(d2 <= tol * scale) & np.isfinite(d2)] = 0.0  # an empty cluster stays at +inf
    return d2
