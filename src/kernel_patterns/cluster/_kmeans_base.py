"""Shared estimator machinery of :class:`KernelKMeans` and :class:`SoftKernelKMeans`:
parameters, validation, the kernel operator, initial labels and kernel rows for new points."""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClusterMixin, clone
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ..kernels import (
    OPERATOR_PARAMETER_CONSTRAINTS,
    Kernel,
    KernelOperator,
    Precomputed,
    make_kernel,
    make_operator,
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
        "init": [StrOptions({"k-means++", "random", "kmeans", "n-k+1"}), "array-like"],
        "n_init": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        **OPERATOR_PARAMETER_CONSTRAINTS,
    }

    _sk_expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the random seeding draws per sample, so repeating a point instead of weighting it "
            "changes the random stream; the clusters agree but their label numbers are "
            "permuted (scikit-learn's KMeans has the same exemption)"
        ),
    }

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self._is_precomputed()
        return tags

    def _is_precomputed(self) -> bool:
        k = self.kernel
        return (isinstance(k, str) and k.lower() == "precomputed") or isinstance(k, Precomputed)

    # -- fit helpers ---------------------------------------------------------------
    def _prepare_fit(
        self, X: ArrayLike, sample_weight: ArrayLike | None
    ) -> tuple[FloatArray, Kernel, KernelOperator, FloatArray, FloatArray]:
        Xv = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=1)
        n = Xv.shape[0]
        if n < self.n_clusters:
            raise ValueError(
                f"n_samples={n} should be >= n_clusters={self.n_clusters}: "
                "there are fewer samples than clusters."
            )
        w = _check_sample_weight(sample_weight, Xv, dtype=np.float64, ensure_non_negative=True)
        if not w.sum() > 0:
            raise ValueError("sample_weight must have a positive sum.")
        kernel = make_kernel(self.kernel, self.kernel_params)
        if hasattr(kernel, "fit"):  # data-dependent kernels (GeodesicKernel) learn from X
            kernel = clone(kernel).fit(Xv)
        op = make_operator(
            kernel,
            Xv,
            operator=self.operator,
            dtype=np.dtype(self.dtype),
            check_psd=True,
        )
        return Xv, kernel, op, w, np.asarray(op.diag(), dtype=np.float64)

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
        return self._check_init_labels(init, n)

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
        if not isinstance(self.init, str):
            if self.n_init not in ("auto", 1):
                warnings.warn(
                    "init is an array of labels: running once (n_init is ignored).",
                    UserWarning,
                    stacklevel=3,
                )
            return 1
        return 10 if self.n_init == "auto" else int(self.n_init)

    # -- new points ----------------------------------------------------------------
    def _cross(self, X: ArrayLike) -> FloatArray:
        """``K(X_new, X_train)``: kernel rows for new points through the operator's ``cross``."""
        check_is_fitted(self)
        Xv = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
        if self._is_precomputed():
            if Xv.shape[1] != self._n_train:
                raise ValueError(
                    f"the precomputed kernel for new points must have {self._n_train} columns "
                    f"(one per training point); got shape {Xv.shape}."
                )
            return np.asarray(Xv, dtype=np.float64)
        op = make_operator(
            self.kernel_, self._X_fit, operator="chunked", dtype=np.dtype(self.dtype)
        )
        return np.asarray(op.cross(Xv), dtype=np.float64)
