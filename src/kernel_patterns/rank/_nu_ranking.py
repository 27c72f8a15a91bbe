"""ν-ranking (Algorithm 8.9, Shawe-Taylor & Cristianini, ch. 8), solved as a real QP.

The pure solver :func:`_nu_ranking_dual` (in ``_nu_ranking_solver``, re-exported here) and the
thin scikit-learn estimator :class:`NuRanking`.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ..kernels import KERNELS, Kernel, Precomputed, make_kernel, make_operator
from ._common import RankerMixin, encode_ranks, kernel_rows, validate_X
from ._nu_ranking_solver import (
    FORMULATIONS,
    SOLVERS,
    _nu_ranking_dual,
    _thresholds,
    max_feasible_nu,
)

__all__ = ["NuRanking", "_nu_ranking_dual", "max_feasible_nu"]

FloatArray = NDArray[np.float64]


class NuRanking(RankerMixin, BaseEstimator):
    """ν-ranking: ordinal regression with a margin between every pair of adjacent ranks.

    Solves the dual QP of Algorithm 8.9 (Computation 8.8 with C = 1/(νℓ)) of Shawe-Taylor &
    Cristianini, *Kernel Methods for Pattern Analysis*, §8.1.1, with the equality constraints
    corrected (erratum 8: Σ_{y_i=y} α^l_i = Σ_{y_i=y+1} α^u_i, y = 1, …, ``|Y|`` − 1). The ranker
    is r(x) = min{y : f(x) < b_y} with f(x) = Σ α_i k(x_i, x) (Definition 8.4).

    By Theorem 8.10 at most νℓ training points fail to reach the margin γ from both adjacent
    thresholds, and at least νℓ reach it.

    As with the ν-SVM, ν must exceed the share of training points that the ranks' overlap
    forces to violate the margin: with noisy ranks and a small ν (or a very smooth kernel,
    whose matrix is numerically low-rank) the optimum is f ≈ 0 and the ranker is
    meaningless; a warning says so. Noisy data typically wants ν between 0.5 and 1: choose it
    by cross-validation.

    Parameters
    ----------
    nu : float in (0, 1], default=0.1
        Bound on the fraction of margin errors; C = 1/(νℓ). A ν that leaves the QP infeasible
        (ν > 2 Σ_y min(n_y, n_{y+1}) / ℓ, possible with very unbalanced ranks) is an error.
    kernel : str, Kernel or callable, default="rbf"
        A kernel object, a name with ``kernel_params``, ``"precomputed"`` or a callable.
    kernel_params : dict, default=None
    solver : {"auto", "piqp", "clarabel"}, default="auto"
        Interior-point QP solver: piqp's dense solver or Clarabel. ``"auto"`` takes piqp up
        to 1,500 training points and Clarabel beyond, where it is faster
        (``benchmarks/bench_qp.py``).
    formulation : {"auto", "dense", "lifted"}, default="auto"
        QP form handed to the solver (see :func:`_nu_ranking_dual`); ``"auto"`` is dense for
        piqp and lifted for Clarabel.
    tol : float, default=1e-8
        Solver tolerance on the scaled duals νℓ·α ∈ [0, 1].
    max_iter : int, default=200
        Interior-point iterations.

    Attributes
    ----------
    classes_ : ndarray of shape (n_ranks,)
        The ordered labels; rank r of the QP is ``classes_[r]``.
    thresholds_ : ndarray of shape (n_ranks - 1,)
        b_1 ≤ … ≤ ``b_{|Y|−1}`` (``b_{|Y|}`` = ∞ is implicit).
    margin_ : float
        γ of Algorithm 8.9 in the scale of f.
    dual_coef_ : ndarray of shape (n_support,)
        α_i = α^u_i − α^l_i of the support vectors.
    alpha_upper_, alpha_lower_ : ndarray of shape (n_samples,)
        α^u and α^l of every training point.
    support_ : ndarray of shape (n_support,)
        Indices of the training points with α_i ≠ 0.
    n_iter_ : int
        Solver iterations.
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns import NuRanking
    >>> X = np.linspace(0, 1, 60)[:, None]
    >>> y = np.repeat([1, 2, 3], 20)
    >>> r = NuRanking(nu=0.2, kernel="rbf", kernel_params={"gamma": 2.0}).fit(X, y)
    >>> r.predict([[0.05], [0.5], [0.95]])
    array([1, 2, 3])
    >>> bool(np.all(np.diff(r.thresholds_) >= 0))
    True
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
        "kernel": [StrOptions(set(KERNELS)), Kernel, callable],
        "kernel_params": [dict, None],
        "solver": [StrOptions(set(SOLVERS))],
        "formulation": [StrOptions(set(FORMULATIONS))],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        nu: float = 0.1,
        kernel: str | Kernel | Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        *,
        solver: str = "auto",
        formulation: str = "auto",
        tol: float = 1e-8,
        max_iter: int = 200,
    ) -> None:
        self.nu = nu
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.solver = solver
        self.formulation = formulation
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X: ArrayLike, y: ArrayLike) -> NuRanking:
        """Solve the ν-ranking dual on (X, y); labels are ordered ranks (numeric or ordered
        categorical)."""
        self._validate_params()
        kernel = make_kernel(self.kernel, self.kernel_params)
        Xv = validate_X(self, X, reset=True)
        if not isinstance(kernel, Precomputed):
            kernel = kernel.with_data_scale(Xv)  # RBF(gamma="scale"): kernel_ holds the width
        classes, ranks = encode_ranks(y)
        if Xv.shape[0] != ranks.shape[0]:
            raise ValueError(
                f"X and y have different numbers of samples: {Xv.shape[0]} and {ranks.shape[0]}."
            )
        R = classes.shape[0]
        nu_max = max_feasible_nu(ranks, R)
        if self.nu > nu_max + 1e-12:
            raise ValueError(
                f"nu={self.nu} makes the ν-ranking QP infeasible for these rank counts "
                f"{np.bincount(ranks).tolist()}: choose nu <= {nu_max:.4g} "
                "(2 Σ_y min(n_y, n_{y+1}) / n_samples)."
            )
        op = make_operator(kernel, Xv)
        K = np.asarray(op.to_dense(), dtype=np.float64)
        alpha_u, alpha_l, info = _nu_ranking_dual(
            K, ranks, float(self.nu), n_ranks=R, solver=self.solver,
            formulation=self.formulation, tol=self.tol, max_iter=self.max_iter,
        )
        if "solved" not in info["status"].lower():
            warnings.warn(
                f"the {info['solver']} QP solver stopped with status {info['status']} after "
                f"{info['iterations']} iterations; the ranker may be inaccurate.",
                ConvergenceWarning, stacklevel=2,
            )
        alpha = alpha_u - alpha_l
        f = K @ alpha
        scale = float(alpha @ alpha) * max(float(np.max(np.abs(np.diag(K)))), 1e-300)
        if float(alpha @ f) <= 1e-8 * scale:
            warnings.warn(
                f"the ν-ranking solution is degenerate (f ≈ 0 within solver precision): with "
                f"nu={self.nu} the ranks' reduced hulls overlap in feature space. Increase nu "
                "(noisy ranks need a larger ν) or use a less smooth kernel.",
                ConvergenceWarning, stacklevel=2,
            )
        thresholds, gamma = _thresholds(f, ranks, alpha_u, alpha_l, info["C"], R)
        support = np.flatnonzero(np.abs(alpha) > 1e-8 * info["C"])

        self.kernel_ = kernel
        self.classes_ = classes
        self.alpha_upper_ = alpha_u
        self.alpha_lower_ = alpha_l
        self.support_ = support
        self.dual_coef_ = alpha[support]
        self.support_vectors_ = None if isinstance(kernel, Precomputed) else Xv[support].copy()
        self.n_train_ = Xv.shape[0]
        self.thresholds_ = thresholds
        self.margin_ = gamma
        self.n_iter_ = info["iterations"]
        return self

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """f(x) = Σ_i α_i k(x_i, x): the real-valued embedding the thresholds cut into ranks.

        With ``kernel="precomputed"``, X is the kernel between new and training points,
        of shape (n_new, n_train).
        """
        check_is_fitted(self)
        Xv = validate_X(self, X, reset=False)
        Kx = kernel_rows(self.kernel_, self.support_vectors_, self.support_, self.n_train_, Xv)
        return np.asarray(Kx @ self.dual_coef_, dtype=np.float64)

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.pairwise = self.kernel == "precomputed" or isinstance(
            self.kernel, Precomputed)
        return tags
