"""What the two rankers share: rank encoding, kernel rows for new points, predict and score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._validation import categorical_parts, check_labels, check_matrix
from ..kernels import Kernel, Precomputed, check_kernel_input, make_kernel, make_operator
from ..utils import is_precomputed

FloatArray = NDArray[np.float64]


def check_classes(classes: ArrayLike) -> NDArray[Any]:
    """The user's ordered rank labels (``classes=``): 1-D, at least two, no repeats."""
    cat = categorical_parts(classes)
    arr = np.asarray(cat[0].categories if cat is not None else classes)
    if arr.ndim != 1:
        raise ValueError(f"classes must be a 1-D list of rank labels in order; got shape "
                         f"{arr.shape}.")
    if arr.shape[0] < 2:
        raise ValueError(f"classes must list at least two rank labels; got {arr.tolist()}.")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError("classes must not contain NaN or inf.")
    if len({_key(v) for v in arr.tolist()}) != arr.shape[0]:
        raise ValueError(f"classes must not repeat a label; got {arr.tolist()}.")
    return arr


def _key(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def encode_ranks(y: ArrayLike, classes: ArrayLike | None = None,
                 keep_all: bool = False) -> tuple[NDArray[Any], NDArray[np.intp]]:
    """Map ordered labels to consecutive ranks 0, …, R − 1; return ``(classes, ranks)``.

    The order of the labels is, first, ``classes`` (the user's labels from lowest to highest
    rank: strings, non-contiguous integers, anything); else the categories of a pandas
    ``Categorical`` with ``ordered=True``; else the numeric order of numeric labels. Strings
    without ``classes`` have no order a ranker may assume: error. The returned classes are
    those present in ``y`` (all of ``classes`` with ``keep_all``), in rank order.
    """
    if y is None:
        raise ValueError("this ranker requires y to be passed, but the target y is None.")
    if classes is not None:
        order = check_classes(classes)
        codes = label_positions(order, y, "classes")
        if keep_all:
            return _at_least_two(order), codes
        present, ranks = np.unique(codes, return_inverse=True)
        return _at_least_two(order[present]), ranks.astype(np.intp).ravel()
    cat = categorical_parts(y)
    if cat is not None:
        if not bool(getattr(cat[0], "ordered", False)):
            raise ValueError("y is an unordered categorical: ranks need ordered categories "
                             "(or give their order with classes=).")
        codes = np.asarray(cat[1])
        if (codes < 0).any():
            raise ValueError("y contains missing values (NaN); every point needs a rank.")
        categories = np.asarray(cat[0].categories)
        if keep_all:
            return _at_least_two(categories), codes.astype(np.intp).ravel()
        present, ranks = np.unique(codes, return_inverse=True)
        labels: NDArray[Any] = categories[present]
    else:
        arr = np.asarray(y)
        if arr.dtype.kind == "c":
            raise ValueError("Complex data not supported: y must hold real, ordered ranks.")
        arr = check_labels(arr, "y")
        if arr.dtype.kind not in "iufb":
            raise ValueError(
                f"Unknown label type for ranking: y must hold numeric ranks or an ordered "
                f"pandas Categorical, or the order must be given with classes=; got dtype "
                f"{arr.dtype}, whose values have no rank order."
            )
        labels, ranks = np.unique(arr, return_inverse=True)
    return _at_least_two(labels), ranks.astype(np.intp).ravel()


def _at_least_two(classes: NDArray[Any]) -> NDArray[Any]:
    if classes.shape[0] < 2:
        raise ValueError(
            f"y has a single rank ({classes[0]}), i.e. one class; ranking needs at least two "
            "ranks."
        )
    return classes


def label_positions(classes: NDArray[Any], y: ArrayLike, where: str = "classes_",
                    ) -> NDArray[np.intp]:
    """Positions (ranks 0, …, R − 1) of the labels ``y`` in the ordered ``classes``.

    ``classes`` need not be sorted (strings in a given order, ordered categories): the lookup
    is by value. A label not among ``classes`` is an error naming it.
    """
    arr = check_labels(np.asarray(y, dtype=object) if categorical_parts(y) is not None else y, "y")
    index = {_key(v): i for i, v in enumerate(classes.tolist())}
    out = np.empty(arr.shape[0], dtype=np.intp)
    unknown = []
    for j, v in enumerate(arr.tolist()):
        i = index.get(_key(v))
        if i is None:
            unknown.append(v)
        else:
            out[j] = i
    if unknown:
        shown = sorted({repr(v) for v in unknown})[:5]
        raise ValueError(
            f"y contains labels that were not seen in fit (not in {where}): "
            f"{', '.join(shown)}; {where} = {classes.tolist()}."
        )
    return out


def decode_ranks(classes: NDArray[Any], y: ArrayLike) -> NDArray[np.intp]:
    """Ranks 0, …, R − 1 of labels that must be among the fitted ``classes`` (any order)."""
    return label_positions(classes, y, "classes_")


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
    thresholds_: NDArray[Any]
    kernel: Any
    kernel_params: dict[str, Any] | None

    if TYPE_CHECKING:  # each ranker defines it; declared here for the type checker only

        def decision_function(self, X: ArrayLike) -> FloatArray: ...

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()  # type: ignore[misc]
        tags.target_tags.required = True
        tags.input_tags.pairwise = self.kernel == "precomputed" or isinstance(
            self.kernel, Precomputed)
        tags.input_tags.sparse = takes_sparse(self.kernel, self.kernel_params)
        return tags

    def _predict_ranks(self, X: ArrayLike) -> NDArray[np.intp]:
        f = self.decision_function(X)
        # r(x) = min{y : f(x) < b_y} with b_R = ∞ (Definition 8.4): count of b_y ≤ f(x)
        return np.searchsorted(self.thresholds_, f, side="right").astype(np.intp)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predicted ranks, as the user's own labels: ``classes_[r]`` for rank r."""
        check_is_fitted(self)
        return self.classes_[self._predict_ranks(X)]

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
        """Negative mean absolute rank error, −MAE (greater is better; 0 is perfect).

        The error counts rank steps, not label differences: the true and predicted labels
        are first mapped to their positions in ``classes_`` (labels 10, 20, 40 are ranks 0,
        1, 2; ``["low", "mid", "high"]`` from ``classes=`` or an ordered categorical are 0, 1,
        2 whatever their alphabetical order). This follows scikit-learn's "greater is better"
        rule, so ``cross_val_score`` and ``GridSearchCV`` use it directly; the mean zero-one
        error is :func:`kernel_patterns.metrics.mean_zero_one_error`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True labels, each among ``classes_`` (a pandas ordered categorical is accepted).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights with a positive sum.

        Returns
        -------
        score : float
            −MAE in rank steps.
        """
        check_is_fitted(self)
        true = decode_ranks(self.classes_, y)
        pred = self._predict_ranks(X)
        if true.shape[0] != pred.shape[0]:
            raise ValueError(
                f"X and y have different lengths: {pred.shape[0]} and {true.shape[0]}."
            )
        w = None
        if sample_weight is not None:  # finite, non-negative, one per sample, as fit's
            w = _check_sample_weight(sample_weight, true, dtype=np.float64,
                                     ensure_non_negative=True)
            if not w.sum() > 0:
                raise ValueError("sample_weight must have a positive sum.")
        return -float(np.average(np.abs(true - pred), weights=w))


def takes_sparse(kernel: Any, kernel_params: dict[str, Any] | None = None) -> bool:
    """Whether a ranker with this kernel (a Kernel, or a name with its parameters) takes
    scipy.sparse features: the kernels that compute on them (not a precomputed kernel)."""
    if kernel is None or is_precomputed(kernel):
        return False
    try:
        return bool(make_kernel(kernel, kernel_params).accepts_sparse)
    except (TypeError, ValueError):  # an invalid kernel: fit will say so
        return False


def validate_X(estimator: Any, X: ArrayLike, reset: bool, kernel: Kernel | None = None
               ) -> FloatArray:
    """scikit-learn's feature-count bookkeeping, then our own finite/non-empty checks.

    scipy.sparse ``X`` is kept sparse (CSR) when ``kernel`` takes it (linear, polynomial,
    cosine, RBF, ...), else a ``TypeError`` names the kernel.
    """
    Xv = validate_data(estimator, X, reset=reset, dtype=np.float64,
                       accept_sparse=("csr", "csc") if takes_sparse(kernel) else False,
                       ensure_all_finite=True, ensure_min_samples=1)
    if sparse.issparse(Xv):
        assert kernel is not None  # accept_sparse=False otherwise
        return check_kernel_input(kernel, Xv, "X")  # type: ignore[return-value]
    return np.asarray(Xv, dtype=np.float64)
