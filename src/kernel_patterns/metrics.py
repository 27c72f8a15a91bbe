"""Clustering and ranking metrics of the source texts.

Clustering (eq. 5.1–5.4 of the GP clustering paper): :func:`reference_error`,
:func:`cluster_error`, :func:`f_score`; :func:`clustering_accuracy` (best one-to-one
matching of cluster labels to classes, the accuracy of the soft geodesic kernel k-means paper).
Ranking: :func:`mean_zero_one_error`, :func:`mean_absolute_error`, :func:`kendall_tau` and
:func:`ordinal_concordance_index`; ranks may be numbers or a pandas ordered categorical, whose
categories are the ranks in their order (as the rankers read them).

All take the reference labels first and the predicted labels second; labels may be any
hashable values (strings, integers), and the label names need not agree between the two.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linear_sum_assignment

from ._validation import categorical_parts, check_labels, check_n_clusters

__all__ = [
    "cluster_error",
    "clustering_accuracy",
    "contingency_table",
    "f_score",
    "kendall_tau",
    "mean_absolute_error",
    "mean_zero_one_error",
    "ordinal_concordance_index",
    "reference_error",
    "spectral_lower_bound",
]


def _pair(labels_true: ArrayLike, labels_pred: ArrayLike) -> tuple[NDArray[Any], NDArray[Any]]:
    t = check_labels(labels_true, "labels_true")
    p = check_labels(labels_pred, "labels_pred")
    if t.shape[0] != p.shape[0]:
        raise ValueError(
            f"labels_true and labels_pred must have the same length; got {t.shape[0]} and "
            f"{p.shape[0]}."
        )
    return t, p


def contingency_table(labels_true: ArrayLike, labels_pred: ArrayLike) -> NDArray[np.int64]:
    """``n[r, c]``: points of reference cluster r assigned to cluster c.

    Rows follow the sorted unique reference labels, columns the sorted unique predicted labels.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The reference labels (classes).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels to evaluate.

    Returns
    -------
    table : ndarray of shape (n_classes, n_clusters)
        The counts ``n[r, c]``.

    Examples
    --------
    >>> contingency_table([0, 0, 1, 1], ["a", "b", "b", "b"])
    array([[1, 1],
           [0, 2]])
    """
    t, p = _pair(labels_true, labels_pred)
    ti, pi = _codes(t, "labels_true"), _codes(p, "labels_pred")
    n = np.zeros((ti.max() + 1, pi.max() + 1), dtype=np.int64)
    np.add.at(n, (ti, pi), 1)
    return n


def _codes(labels: NDArray[Any], name: str) -> NDArray[np.intp]:
    """Positions of the labels among their sorted unique values; labels of types that do
    not compare (str and int in one object array) are a ``TypeError`` naming ``name``, as
    scikit-learn's cluster metrics refuse them (here without numpy's traceback)."""
    try:
        _, inverse = np.unique(labels, return_inverse=True)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in labels.tolist()})
        raise TypeError(
            f"{name} mixes labels of types {', '.join(kinds)}, which cannot be sorted "
            f"together; give labels of one type (e.g. np.asarray({name}, dtype=str))."
        ) from None
    return inverse.ravel()


def reference_error(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Reference error rate, eq. 5.1: ``RE = 1 − Σ_r max_c n_rc / n``.

    Zero when every reference cluster lies inside one found cluster (merging is not penalised).

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The reference labels (classes).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels to evaluate.

    Returns
    -------
    score : float
        RE in [0, 1]; 0 is perfect.

    Examples
    --------
    >>> reference_error([0, 0, 1, 1], [0, 0, 0, 0])
    0.0
    >>> reference_error([0, 0, 1, 1], [0, 1, 2, 2])
    0.25
    """
    n = contingency_table(labels_true, labels_pred)
    return float(1.0 - n.max(axis=1).sum() / n.sum())


def cluster_error(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Cluster error rate, eq. 5.1: ``CE = 1 − Σ_c max_r n_rc / n``.

    Zero when every found cluster lies inside one reference cluster (splitting is not penalised).

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The reference labels (classes).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels to evaluate.

    Returns
    -------
    score : float
        CE in [0, 1]; 0 is perfect.

    Examples
    --------
    >>> cluster_error([0, 0, 1, 1], [0, 0, 0, 0])
    0.5
    """
    n = contingency_table(labels_true, labels_pred)
    return float(1.0 - n.max(axis=0).sum() / n.sum())


def f_score(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Overall F score, eq. 5.2–5.4: ``Σ_r (n_r/n) max_c F_rc`` with
    ``F_rc = 2 R P / (R + P)``, recall ``n_rc/n_c``, precision ``n_rc/n_r``
    (so ``F_rc = 2 n_rc / (n_r + n_c)``). One when the clusters match the reference exactly.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The reference labels (classes).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels to evaluate.

    Returns
    -------
    score : float
        FScore in [0, 1]; 1 is perfect.

    Examples
    --------
    >>> f_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    >>> round(f_score([0, 0, 1, 1], [0, 0, 0, 0]), 4)
    0.6667
    """
    n = contingency_table(labels_true, labels_pred).astype(np.float64)
    n_r = n.sum(axis=1)
    n_c = n.sum(axis=0)
    F = 2.0 * n / (n_r[:, None] + n_c[None, :])
    return float(np.sum(n_r / n.sum() * F.max(axis=1)))


def clustering_accuracy(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Accuracy under the best one-to-one matching of clusters to classes (Hungarian).

    Unmatched clusters (more clusters than classes, or the reverse) count as errors.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The reference labels (classes).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels to evaluate.

    Returns
    -------
    score : float
        Accuracy in [0, 1]; 1 is perfect.

    Examples
    --------
    >>> clustering_accuracy([0, 0, 1, 1, 2], [2, 2, 0, 0, 0])
    0.8
    """
    n = contingency_table(labels_true, labels_pred)
    rows, cols = linear_sum_assignment(n, maximize=True)
    return float(n[rows, cols].sum() / n.sum())


def _ranks(
    y_true: ArrayLike, y_pred: ArrayLike, numeric_for: str | None = None
) -> tuple[NDArray[Any], NDArray[Any]]:
    """``y_true`` and ``y_pred`` checked to be labels of the same length and, when the
    metric ``numeric_for`` names needs numbers, numeric."""
    t = check_labels(y_true, "y_true")
    p = check_labels(y_pred, "y_pred")
    if t.shape[0] != p.shape[0]:
        raise ValueError(
            f"y_true and y_pred must have the same length; got {t.shape[0]} and {p.shape[0]}."
        )
    if numeric_for is not None:
        for arr, name in ((t, "y_true"), (p, "y_pred")):
            if arr.dtype.kind not in "iufb":
                raise ValueError(f"{name} must {numeric_for}; got {arr.dtype}.")
    return t, p


def _ordinal(
    y_true: ArrayLike, y_pred: ArrayLike, numeric_for: str, scores: bool
) -> tuple[NDArray[Any], NDArray[Any]]:
    """:func:`_ranks` that also reads a pandas ordered categorical as the rankers do: its
    categories, in their order, are the ranks 0, 1, … of both arguments (the other one's
    labels are looked up among them; numeric scores that are not, with ``scores``, stay as
    they are). Two categoricals must have the same categories."""
    parts = {"y_true": categorical_parts(y_true), "y_pred": categorical_parts(y_pred)}
    given = [(name, cat) for name, cat in parts.items() if cat is not None]
    if not given:
        return _ranks(y_true, y_pred, numeric_for)
    for name, (cat, _) in given:
        if not bool(getattr(cat, "ordered", False)):
            raise ValueError(f"{name} is an unordered categorical: ranks need ordered "
                             "categories.")
    order = np.asarray(given[0][1][0].categories)
    if len(given) == 2 and order.tolist() != list(given[1][1][0].categories):
        raise ValueError("y_true and y_pred are ordered categoricals with different "
                         f"categories: {order.tolist()} and {list(given[1][1][0].categories)}.")
    import pandas as pd

    out = []
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        part = parts[name]
        if part is not None:
            codes = np.asarray(part[1]).ravel()
            if (codes < 0).any():
                raise ValueError(f"{name} contains missing values (NaN); every point needs a "
                                 "rank.")
        else:
            arr = check_labels(y, name)
            codes = np.asarray(pd.Index(order).get_indexer(arr))
            if (codes < 0).any():
                if scores and arr.dtype.kind in "iufb":
                    out.append(arr)  # scores f(x): only their order is read
                    continue
                bad = sorted({repr(v) for v in arr[codes < 0].tolist()})
                raise ValueError(f"{name} holds values that are not categories of the ranks "
                                 f"{order.tolist()}: {', '.join(bad[:5])}.")
        out.append(codes.astype(np.intp))
    return _ranks(out[0], out[1], numeric_for)


def mean_zero_one_error(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean zero-one error (MZE): the share of points whose predicted rank is wrong.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true ranks.
    y_pred : array-like of shape (n_samples,)
        The predicted ranks (or scores, where the metric orders them).

    Returns
    -------
    score : float
        MZE in [0, 1]; 0 is perfect.

    Examples
    --------
    >>> mean_zero_one_error([1, 2, 3, 3], [1, 3, 3, 1])
    0.5
    """
    t, p = _ranks(y_true, y_pred)
    return float(np.mean(t != p))


def mean_absolute_error(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean absolute error (MAE) between ranks: ``mean |y − ŷ|`` (numeric ranks).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true ranks: numbers, or a pandas ordered categorical (its categories in order).
    y_pred : array-like of shape (n_samples,)
        The predicted ranks (or scores, where the metric orders them).

    Returns
    -------
    score : float
        MAE, in ranks; 0 is perfect.

    Examples
    --------
    >>> mean_absolute_error([1, 2, 3, 3], [1, 3, 3, 1])
    0.75
    """
    t, p = _ordinal(y_true, y_pred, "hold numeric ranks for the MAE", scores=False)
    return float(np.mean(np.abs(t.astype(np.float64) - p.astype(np.float64))))


def kendall_tau(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Kendall's τ-b rank correlation between true ranks and predictions (scipy).

    ``y_pred`` may be predicted ranks or scores f(x); τ-b corrects for ties on both sides.
    1 means the same order, −1 the reverse. A constant ``y_true`` or ``y_pred`` (or a single
    point) is a ``ValueError``: τ-b is undefined there.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true ranks: numbers, or a pandas ordered categorical (its categories in order).
    y_pred : array-like of shape (n_samples,)
        The predicted ranks (or scores, where the metric orders them).

    Returns
    -------
    score : float
        τ-b in [−1, 1]; 1 is a perfect order.

    Examples
    --------
    >>> kendall_tau([1, 2, 3, 4], [0.1, 0.4, 0.3, 0.9])
    0.666...
    """
    from scipy.stats import kendalltau

    t, p = _ordinal(y_true, y_pred, "be numeric for Kendall's tau", scores=True)
    for arr, name, what in ((t, "y_true", "rank"), (p, "y_pred", "value")):
        if np.all(arr == arr[0]):  # one point, or constant
            raise ValueError(f"{name} holds a single {what}: Kendall's tau-b is undefined (no "
                             "pair of points it orders).")
    return float(kendalltau(t, p, variant="b").statistic)


def ordinal_concordance_index(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Concordance index for ordinal ranks (Harrell's C over pairs of different ranks).

    Among all pairs (i, j) with y_i < y_j, the share with ŷ_i < ŷ_j, ties in ``y_pred``
    counting ½. ``y_pred`` may be predicted ranks or scores f(x). 1 is a perfect order, ½ a
    random one. Computed in O(n log n) by sorting.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true ranks: numbers, or a pandas ordered categorical (its categories in order).
    y_pred : array-like of shape (n_samples,)
        The predicted ranks (or scores, where the metric orders them).

    Returns
    -------
    score : float
        C in [0, 1]; 1 is a perfect order, 0.5 chance.

    Examples
    --------
    >>> ordinal_concordance_index([1, 2, 3, 4], [0.1, 0.4, 0.3, 0.9])
    0.833...
    """
    from itertools import pairwise

    t, p = _ordinal(y_true, y_pred, "be numeric for the concordance index", scores=True)
    t = t.astype(np.float64)
    p = p.astype(np.float64)
    # for each point, count predictions of lower true ranks below / equal to its own
    order = np.argsort(t, kind="stable")
    t_sorted, p_sorted = t[order], p[order]
    groups = np.flatnonzero(np.r_[True, np.diff(t_sorted) != 0, True])
    concordant = 0.0
    tied = 0.0
    seen = np.empty(0)
    for a, b in pairwise(groups):
        block = p_sorted[a:b]
        if seen.size:
            below = np.searchsorted(seen, block, side="left")
            upto = np.searchsorted(seen, block, side="right")
            concordant += float(below.sum())
            tied += float((upto - below).sum())
        seen = np.sort(np.concatenate([seen, block]))
    sizes = np.diff(groups).astype(np.float64)
    n_pairs = (sizes.sum() ** 2 - (sizes**2).sum()) / 2.0
    if n_pairs == 0:
        raise ValueError("y_true holds a single rank: no comparable pairs.")
    return float((concordant + 0.5 * tied) / n_pairs)


def spectral_lower_bound(K: Any, n_clusters: int) -> float:
    """Prop. 8.28's lower bound on the k-means cost in feature space: Σ_{k>N} λ_k(K).

    For every clustering A into ``n_clusters`` groups, ss(A) of Prop. 8.24 (the kernel
    k-means ``inertia_``, eq. 8.12) is at least ``tr(K) − Σ_{k=1}^{N} λ_k``, the sum of all
    but the N largest eigenvalues. Only the N largest eigenvalues are computed (ARPACK
    within a bounded budget, with a dense or LOBPCG fallback, for large matrices; dense
    ``eigvalsh`` for small ones).

    Parameters
    ----------
    K : array of shape (n, n), scipy sparse matrix or KernelOperator
        A symmetric kernel matrix.
    n_clusters : int
        N, the number of clusters (1 ≤ N ≤ n).

    Returns
    -------
    bound : float

    Examples
    --------
    >>> import numpy as np
    >>> K = np.diag([3.0, 2.0, 1.0])
    >>> spectral_lower_bound(K, 2)
    1.0
    """
    from scipy import sparse

    from ._eigen import top_eigenpairs
    from ._validation import check_positive_int
    from .kernels import KernelOperator
    from .utils import check_square_kernel

    k = check_positive_int(n_clusters, "n_clusters")
    if isinstance(K, KernelOperator):
        n = K.n_samples
        trace = float(np.sum(K.diag()))
        A: Any = K.aslinearoperator()
        dense = None
        if n <= 500:
            dense = K.to_dense()
    elif sparse.issparse(K):
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"K must be a square kernel matrix; got shape {K.shape}.")
        n = K.shape[0]
        A = sparse.csr_array(K, dtype=np.float64)
        trace = float(A.diagonal().sum())
        dense = A.toarray() if n <= 500 else None
    else:
        dense = check_square_kernel(K, "K")
        n = dense.shape[0]
        A = dense
        trace = float(np.trace(dense))
    check_n_clusters(k, n)
    if dense is not None or k >= n - 1:
        M = np.asarray(dense if dense is not None else K.to_dense(), dtype=np.float64)
        top = np.linalg.eigvalsh(M)[::-1][:k]
    else:
        # ARPACK within a bounded budget, then a dense or LOBPCG fallback (a clustered top
        # spectrum made a bare eigsh iterate for minutes)
        def matmat(V: Any) -> Any:
            return A @ V

        top = top_eigenpairs(matmat, n, k, random_state=0)[0]
    return float(trace - np.sum(top))
