"""On-line ranking: the kernel ranking perceptron (Algorithm 8.14, Shawe-Taylor & Cristianini).

The pure solver :func:`_online_ranking_pass` and the estimator :class:`OnlineRanking`.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, check_random_state

from .._fit import resolve_kernel
from .._warnings import user_stacklevel
from ..kernels import RBF, Kernel, Precomputed, make_operator
from ._common import (
    RankerMixin,
    check_classes,
    decode_ranks,
    encode_ranks,
    kernel_rows,
    validate_X,
)

__all__ = ["OnlineRanking", "_online_ranking_pass"]

FloatArray = NDArray[np.float64]

#: with a data-driven RBF width (``gamma="scale"``, the default), the perceptron uses this
#: multiple of it (see :class:`OnlineRanking`)
WIDTH_FACTOR = 0.1


def _perceptron_kernel(kernel: Kernel, X: Any) -> Kernel:
    """The kernel with its data-driven width set from ``X``; an RBF ``"scale"`` width is
    multiplied by :data:`WIDTH_FACTOR`."""
    if isinstance(kernel, Precomputed):
        return kernel
    data_width = kernel.needs_data_scale()
    kernel = resolve_kernel(kernel, None, X)
    if data_width and isinstance(kernel, RBF):
        return RBF(float(kernel.gamma) * WIDTH_FACTOR)
    return kernel


def _online_ranking_pass(
    K: FloatArray,
    f: FloatArray,
    y: NDArray[np.intp],
    alpha: FloatArray,
    b: NDArray[np.int64],
    order: NDArray[np.intp] | None = None,
    averages: tuple[FloatArray, FloatArray, NDArray[np.int64]] | None = None,
) -> int:
    """One pass of Algorithm 8.14 over the examples in ``order``; updates in place.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Kernel matrix of the examples of this pass.
    f : ndarray of shape (n,)
        Current f(x_i) (including any earlier support vectors); kept up to date.
    y : ndarray of int of shape (n,)
        Ranks 0, …, R − 1.
    alpha : ndarray of shape (n,)
        Dual coefficients of these examples (α_i of the algorithm).
    b : ndarray of int of shape (R − 1,)
        Finite thresholds b_1 … ``b_{|Y|−1}`` (``b_{|Y|}`` = ∞ implicit), integer and ordered.
    order : ndarray of int, default=range(n)
    averages : (sum_alpha, sum_b, steps), default=None
        Running sums for the averaged ranker, updated in place: ``steps`` (an int array of
        one element) counts the examples presented so far; an update Δ at the example that
        is number t (from 1) adds (t − 1)·Δ to ``sum_alpha`` / ``sum_b``. After c examples the
        average of the c rankers that followed each example is α − sum_alpha / c (and
        b − sum_b / c for the thresholds), without storing them.

    Returns
    -------
    n_updates : int
        Number of mistakes (each one updates α_i and the thresholds).

    Notes
    -----
    Erratum 8: Code Fragment 8.2 prints "y' = y' ∓ 1" on lines 5 and 8 where the thresholds
    b_{y'} are meant, and its line 7 is α_i ← α_i + y_i − y (a decrement, since y > y_i).
    """
    n_updates = 0
    for i in range(y.shape[0]) if order is None else order:
        pred = int(np.searchsorted(b, f[i], side="right"))  # r(x) = min{y : f(x) < b_y}
        d = int(y[i]) - pred
        if averages is not None:
            t = int(averages[2][0])  # examples before this one
            averages[2][0] += 1
        if d == 0:
            continue
        alpha[i] += d  # lines 4 and 7: α_i ← α_i + y_i − y
        if d > 0:
            b[pred : y[i]] -= 1  # line 5: b_{y'} ← b_{y'} − 1, y' = y, …, y_i − 1
        else:
            b[y[i] : pred] += 1  # line 8: b_{y'} ← b_{y'} + 1, y' = y_i, …, y − 1
        if averages is not None:
            averages[0][i] += t * d
            if d > 0:
                averages[1][pred : y[i]] -= t
            else:
                averages[1][y[i] : pred] += t
        f += d * K[:, i]
        n_updates += 1
    return n_updates


class OnlineRanking(RankerMixin, BaseEstimator):
    """On-line kernel ranking (the ranking perceptron, Algorithm 8.14), in dual form.

    Each example is ranked with the current f(x) = Σ α_j k(x_j, x) and integer thresholds b;
    a mistake moves α_i by y_i − ŷ and the thresholds between the two ranks by one, which
    keeps b ordered (Shawe-Taylor & Cristianini, §8.1.2). ``fit`` makes passes over the data
    until a pass makes no mistake (or ``max_iter`` passes); ``partial_fit`` presents examples
    once, one at a time in their order, and can be called again with new data.

    By default the ranker returned is the **averaged** perceptron (Freund & Schapire, 1999;
    for this ranking perceptron, Harrington, ICML 2003): α and b averaged over the rankers that
    followed every example presented, computed from running sums at no extra cost; it is far
    steadier on noisy ranks than the last ranker of a pass. ``average=False`` gives the book's
    ranker, to which Theorem 8.15 applies.

    The perceptron has no regulariser: the kernel's smoothness is its only control of
    capacity. With the data-driven RBF width (``gamma="scale"``, γ₀ = 1 / (n_features ·
    Var X), the default) it uses γ = 0.1 γ₀ (``WIDTH_FACTOR``; ``kernel_`` records it); give a
    numeric ``gamma`` to set it yourself. How these defaults were measured is in the user
    guide (Ranking).

    Parameters
    ----------
    kernel : str, Kernel or callable, default="rbf"
        scipy.sparse ``X`` (CSR/CSC) works with the kernels that compute on it (linear,
        polynomial, cosine, RBF, Laplacian, sigmoid); others raise ``TypeError``.
        The default, ``RBF(gamma="scale")``, takes its width from the data: ``X * c + b``
        (c > 0, b the same on every column) gives the same result; different shifts per
        column may not (:class:`~kernel_patterns.kernels.RBF`).
    kernel_params : dict, default=None
    max_iter : int, default=30
        Maximum passes over the data in ``fit``.
    shuffle : bool, default=True
        Visit the examples in a new random order on each pass of ``fit`` (``partial_fit``
        keeps the order it is given).
    random_state : int, RandomState or None, default=None
        Seeds the shuffling.
    average : bool, default=True
        Return the averaged ranker (see above); ``False``: the last one, Algorithm 8.14 as
        printed.
    classes : array-like of shape (n_ranks,), default=None
        The rank labels from the lowest rank to the highest (e.g. ``["low", "mid",
        "high"]``): gives labels without a numeric order their order; ``predict`` returns
        these labels. ``None``: the categories of a pandas ordered categorical ``y``, else the
        numeric order of the labels.

    Attributes
    ----------
    classes_ : ndarray of shape (n_ranks,)
        The rank labels in rank order (``predict`` returns them).
    thresholds_ : ndarray of shape (n_ranks - 1,)
        b_1 ≤ … ≤ ``b_{|Y|−1}``; ``b_{|Y|}`` = ∞ is implicit. Integers with ``average=False``;
        averages of integer thresholds (still ordered) with ``average=True``.
    dual_coef_ : ndarray of shape (n_support,)
        α_i of the points ever updated (integers with ``average=False``).
    support_vectors_ : ndarray of shape (n_support, n_features)
        (``None`` with a precomputed kernel; ``support_`` indexes its columns instead.)
    n_updates_ : int
        Total number of updates (mistakes) so far: k of Theorem 8.15.
    n_seen_ : int
        Number of training examples (ℓ): the rows of ``fit``, or all rows given to
        ``partial_fit``.
    n_iter_ : int
        Passes made by the last ``fit`` (1 per ``partial_fit`` call).
    converged_ : bool
        Whether the last pass of ``fit`` made no mistake.

    Notes
    -----
    A perceptron: mistakes drive the updates, where mord's threshold models minimise the
    logistic loss, and there is no ``predict_proba`` (:ref:`ranking-and-mord`).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns import OnlineRanking
    >>> X = np.linspace(0, 1, 30)[:, None]
    >>> y = np.repeat([1, 2, 3], 10)
    >>> r = OnlineRanking(kernel="linear", random_state=0).fit(X, y)
    >>> bool(r.converged_), bool((r.predict(X) == y).all())
    (True, True)
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "kernel": [Kernel, str, callable],  # a name is looked up at fit (make_kernel)
        "kernel_params": [dict, None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "average": ["boolean"],
        "classes": ["array-like", None],
    }

    def __init__(
        self,
        kernel: str | Kernel | Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        *,
        max_iter: int = 30,
        shuffle: bool = True,
        random_state: Any = None,
        average: bool = True,
        classes: ArrayLike | None = None,
    ) -> None:
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.average = average
        self.classes = classes

    # ------------------------------------------------------------------ fitting
    def fit(self, X: ArrayLike, y: ArrayLike) -> OnlineRanking:
        """Passes of Algorithm 8.14 over (X, y) until one makes no mistake or ``max_iter``."""
        self._validate_params()
        kernel = resolve_kernel(self.kernel, self.kernel_params)
        Xv = validate_X(self, X, reset=True, kernel=kernel)
        kernel = _perceptron_kernel(kernel, Xv)  # kernel_ holds the width used
        classes, ranks = encode_ranks(y, self.classes)
        _check_lengths(Xv, ranks)
        rng = check_random_state(self.random_state)
        K = np.asarray(make_operator(kernel, Xv).to_dense(), dtype=np.float64)
        n = ranks.shape[0]
        alpha = np.zeros(n)
        b = np.zeros(classes.shape[0] - 1, dtype=np.int64)
        f = np.zeros(n)
        averages = (np.zeros(n), np.zeros(b.shape[0]), np.zeros(1, dtype=np.int64))
        n_updates, n_iter, converged = 0, 0, False
        for n_iter in range(1, self.max_iter + 1):  # noqa: B007 - n_iter is reported
            order = rng.permutation(n) if self.shuffle else None
            mistakes = _online_ranking_pass(K, f, ranks, alpha, b, order, averages)
            n_updates += mistakes
            if mistakes == 0:
                converged = True
                break
        support = np.flatnonzero((alpha != 0) | (averages[0] != 0))  # ever updated
        self.kernel_ = kernel
        self.classes_ = classes
        self.support_ = support
        self.support_vectors_ = None if isinstance(kernel, Precomputed) else Xv[support].copy()
        self._set_state(alpha[support], averages[0][support], b, averages[1],
                        int(averages[2][0]))
        self.n_train_ = n
        self.n_updates_ = n_updates
        self.n_seen_ = n
        self.n_iter_ = n_iter
        self.converged_ = converged
        return self

    def _set_state(self, coef: FloatArray, sum_coef: FloatArray, b: NDArray[np.int64],
                   sum_b: FloatArray, steps: int) -> None:
        """Keep the on-line state (for ``partial_fit``) and expose the ranker it defines."""
        self._raw_coef, self._sum_coef = coef, sum_coef
        self._raw_thresholds, self._sum_thresholds, self._n_steps = b, sum_b, steps
        if self.average and steps > 0:
            self.dual_coef_ = coef - sum_coef / steps
            self.thresholds_ = b - sum_b / steps
        else:
            self.dual_coef_ = coef.astype(np.float64)
            self.thresholds_ = b.copy()

    def partial_fit(self, X: ArrayLike, y: ArrayLike,
                    classes: ArrayLike | None = None) -> OnlineRanking:
        """Present the examples of (X, y) once, in order (one example or a batch).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Rank labels, each among the ranks fixed on the first call.
        classes : array-like of shape (n_ranks,), default=None
            Every rank label, from the lowest rank to the highest, as scikit-learn's
            ``partial_fit`` estimators take it. Needed on the first call unless that first
            batch already holds every rank (or the estimator's ``classes`` parameter is
            set); ignored afterwards. A later batch holding a label not among ``classes_``
            is an error that says so: ranks are never added after the first call, because
            the thresholds between existing ranks would have no history for the new one.

        Returns
        -------
        self : OnlineRanking
        """
        first = not hasattr(self, "thresholds_")
        if first:
            self._validate_params()
            kernel = resolve_kernel(self.kernel, self.kernel_params)
            if isinstance(kernel, Precomputed):
                raise ValueError(
                    "partial_fit needs the kernel between batches: it cannot use a "
                    "precomputed kernel; use fit."
                )
            given = classes if classes is not None else self.classes
            if given is None:
                try:
                    all_classes, _ = encode_ranks(y, keep_all=True)
                except ValueError as exc:
                    raise ValueError(
                        f"{exc} On the first call of partial_fit, pass classes= (every rank "
                        "label, in order) unless the first batch holds every rank."
                    ) from None
            else:
                all_classes = check_classes(given)
        else:
            kernel, all_classes = self.kernel_, self.classes_
            if self.support_vectors_ is None:
                raise ValueError("partial_fit cannot continue a fit with a precomputed kernel.")
        Xv = validate_X(self, X, reset=first, kernel=kernel)
        try:
            ranks = decode_ranks(all_classes, y)
        except ValueError as exc:
            raise ValueError(
                f"{exc} partial_fit fixes the ranks on its first call: pass classes= (every "
                "rank label, in order) to that first call when a batch may lack some ranks."
            ) from None
        _check_lengths(Xv, ranks)
        if first:
            # a data-driven width (RBF(gamma="scale")) comes from the first batch
            kernel = _perceptron_kernel(kernel, Xv)
            X_sv: Any = np.empty((0, Xv.shape[1]), dtype=np.float64)
            coef, sum_coef = np.empty(0), np.empty(0)
            b = np.zeros(all_classes.shape[0] - 1, dtype=np.int64)
            sum_b = np.zeros(b.shape[0])
            n_updates = n_seen = steps = 0
        else:
            X_sv = self.support_vectors_
            coef, sum_coef = self._raw_coef, self._sum_coef
            b, sum_b = self._raw_thresholds.copy(), self._sum_thresholds.copy()
            n_updates, n_seen, steps = self.n_updates_, self.n_seen_, self._n_steps
        op = make_operator(kernel, Xv)
        K = np.asarray(op.to_dense(), dtype=np.float64)
        f = (make_operator(kernel, X_sv, operator="chunked").cross(Xv) @ coef
             if coef.size else np.zeros(Xv.shape[0]))
        alpha = np.zeros(Xv.shape[0])
        averages = (np.zeros(Xv.shape[0]), sum_b, np.array([steps], dtype=np.int64))
        n_updates += _online_ranking_pass(K, f, ranks, alpha, b, None, averages)
        new = np.flatnonzero((alpha != 0) | (averages[0] != 0))

        self.kernel_ = kernel
        self.classes_ = all_classes
        self.support_vectors_ = (
            sparse.vstack([X_sv, Xv[new]], format="csr")  # sparse X stays sparse
            if sparse.issparse(X_sv) or sparse.issparse(Xv) else np.vstack([X_sv, Xv[new]]))
        self._set_state(np.concatenate([coef, alpha[new]]),
                        np.concatenate([sum_coef, averages[0][new]]), b, sum_b,
                        int(averages[2][0]))
        self.support_ = np.arange(self.dual_coef_.shape[0])
        self.n_train_ = n_seen + Xv.shape[0]
        self.n_updates_ = n_updates
        self.n_seen_ = n_seen + Xv.shape[0]
        self.n_iter_ = 1
        self.converged_ = False
        return self

    # ------------------------------------------------------------------ outputs
    def decision_function(self, X: ArrayLike) -> FloatArray:
        """f(x) = Σ_j α_j k(x_j, x) (a precomputed kernel: X of shape (n_new, n_train))."""
        check_is_fitted(self)
        Xv = validate_X(self, X, reset=False, kernel=self.kernel_)
        Kx = kernel_rows(self.kernel_, self.support_vectors_, self.support_, self.n_train_, Xv)
        return np.asarray(Kx @ self.dual_coef_, dtype=np.float64)

    def bound(self, delta: float = 0.05) -> float:
        """Generalisation bound of Theorem 8.15 (eq. 8.5), holding with probability 1 − δ:

        P(r(x) ≠ y) ≤ (k ln ℓ + ln(ℓ / (2δ))) / (ℓ − k),

        with k = ``n_updates_`` and ℓ = ``n_seen_``. The theorem assumes the final ranker
        ranks the training set correctly (``converged_``; a warning otherwise) and
        1 ≤ k ≤ ℓ/2: k = 0 is counted as 1, and for k > ℓ/2 the trivial bound 1.0 is returned.
        The result is capped at 1.

        Examples
        --------
        >>> import numpy as np
        >>> X = np.linspace(0, 1, 40)[:, None]
        >>> r = OnlineRanking(kernel="linear").fit(X, np.repeat([0, 1], 20))
        >>> 0 < r.bound(0.05) <= 1
        True
        """
        check_is_fitted(self)
        if not 0.0 < float(delta) < 1.0:
            raise ValueError(f"delta must be in (0, 1); got {delta}.")
        if not self.converged_:
            warnings.warn(
                "Theorem 8.15 assumes the ranker ranks its training set correctly; this one "
                "did not converge (or was trained with partial_fit), so the bound is indicative.",
                UserWarning, stacklevel=user_stacklevel(),
            )
        ell, k = self.n_seen_, max(self.n_updates_, 1)
        if k > ell / 2:
            return 1.0
        value = (k * math.log(ell) + math.log(ell / (2.0 * delta))) / (ell - k)
        return float(min(value, 1.0))


def _check_lengths(X: FloatArray, y: NDArray[np.intp]) -> None:
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X and y have different numbers of samples: {X.shape[0]} and {y.shape[0]}."
        )
