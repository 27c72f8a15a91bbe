"""What the two rankers share: rank encoding, kernel rows for new points, predict and score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_labels, check_matrix
from ..kernels import Kernel, Precomputed, make_operator

FloatArray = NDArray[np.float64]


def encode_ranks(y: ArrayLike) -> tuple[NDArray[Any], NDArray[np.intp]]:
    """Map ordered labels to consecutive ranks 0, …, R − 1; return ``(classes, ranks)``.

    Numeric labels are ordered by value; a pandas ``Categorical`` with ``ordered=True`` by its
    categories. Other labels (strings, objects) have no order a ranker may assume: error.
    """
    if y is None:
        raise ValueError("this ranker requires y to be passed, but the target y is None.")
    cat: Any = getattr(y, "cat", None)  # pandas Series of categorical dtype
    values = getattr(cat, "codes", None) if cat is not None else None
    if values is None and getattr(y, "ordered", None) is not None and hasattr(y, "codes"):
        cat, values = y, y.codes  # a bare pandas Categorical
    if values is not None:
        if not bool(getattr(cat, "ordered", False)):
            raise ValueError("y is an unordered categorical: ranks need ordered categories.")
        codes = np.asarray(values)
        if (codes < 0).any():
            raise ValueError("y contains missing values (NaN); every point needs a rank.")
        categories = np.asarray(cat.categories)
        present, ranks = np.unique(codes, return_inverse=True)
        classes: NDArray[Any] = categories[present]
    else:
        arr = np.asarray(y)
        if arr.dtype.kind == "c":
            raise ValueError("Complex data not supported: y must hold real, ordered ranks.")
        arr = check_labels(arr, "y")
        if arr.dtype.kind not in "iufb":
            raise ValueError(
                f"Unknown label type for ranking: y must hold numeric ranks or an ordered "
                f"pandas Categorical; got dtype {arr.dtype}, whose values have no rank order."
            )
        classes, ranks = np.unique(arr, return_inverse=True)
    if classes.shape[0] < 2:
        raise ValueError(
            f"y has a single rank ({classes[0]}), i.e. one class; ranking needs at least two "
            "ranks."
        )
    return classes, ranks.astype(np.intp).ravel()


def decode_ranks(classes: NDArray[Any], y: ArrayLike) -> NDArray[np.intp]:
    """Ranks 0, …, R − 1 of labels that must be among ``classes``."""
    arr = check_labels(y, "y")
    idx = np.searchsorted(classes, arr)
    idx = np.clip(idx, 0, classes.shape[0] - 1)
    if not np.array_equal(classes[idx], arr):
        raise ValueError("y contains labels that were not seen in fit (not in classes_).")
    return idx.astype(np.intp)


def kernel_rows(kernel: Kernel, X_sv: FloatArray | None, support: NDArray[np.intp],
                n_train: int, X: ArrayLike) -> FloatArray:
    """k(X, x_i) for the support vectors i (through the kernel operator's ``cross``)."""
    if isinstance(kernel, Precomputed):
        Kn = check_matrix(X, "X")
        if Kn.shape[1] != n_train:
            raise ValueError(
                f"the precomputed kernel for new points must have {n_train} columns (one per "
                f"training point); got shape {Kn.shape}."
            )
        return np.asarray(Kn[:, support], dtype=np.float64)
    assert X_sv is not None
    if X_sv.shape[0] == 0:
        return np.zeros((check_matrix(X, "X").shape[0], 0))
    op = make_operator(kernel, X_sv, operator="chunked")  # lazy: no matrix is built here
    return np.asarray(op.cross(X), dtype=np.float64)


class RankerMixin:
    """predict / score for rankers with ``decision_function`` and ``thresholds_``."""

    classes_: NDArray[Any]
    thresholds_: FloatArray

    if TYPE_CHECKING:  # each ranker defines it; declared here for the type checker only

        def decision_function(self, X: ArrayLike) -> FloatArray: ...

    def _predict_ranks(self, X: ArrayLike) -> NDArray[np.intp]:
        f = self.decision_function(X)
        # r(x) = min{y : f(x) < b_y} with b_R = ∞ (Definition 8.4): count of b_y ≤ f(x)
        return np.searchsorted(self.thresholds_, f, side="right").astype(np.intp)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predicted ranks, as the original labels (``classes_``)."""
        check_is_fitted(self)
        return self.classes_[self._predict_ranks(X)]

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
        """Negative mean absolute rank error, −MAE (greater is better; 0 is perfect).

        The error counts rank steps: labels are first mapped to their positions in
        ``classes_`` (so labels 10, 20, 40 are ranks 0, 1, 2).
        """
        check_is_fitted(self)
        true = decode_ranks(self.classes_, y)
        pred = self._predict_ranks(X)
        if true.shape[0] != pred.shape[0]:
            raise ValueError(
                f"X and y have different lengths: {pred.shape[0]} and {true.shape[0]}."
            )
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        return -float(np.average(np.abs(true - pred), weights=w))


def validate_X(estimator: Any, X: ArrayLike, reset: bool) -> FloatArray:
    """scikit-learn's feature-count bookkeeping, then our own finite/non-empty checks."""
    Xv = validate_data(estimator, X, reset=reset, dtype=np.float64,
                       ensure_all_finite=True, ensure_min_samples=1)
    return np.asarray(Xv, dtype=np.float64)
