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

from .._fit import cap_landmarks, resolve_kernel
from .._validation import check_matrix
from .._warnings import user_stacklevel
from ..kernels import RBF, Kernel, Precomputed, make_operator
from ..utils import APPROXIMATION_PARAMETER_CONSTRAINTS, check_square_kernel
from ._common import RankerMixin, encode_ranks, kernel_rows, validate_X
from ._nu_ranking_features import _nu_ranking_features
from ._nu_ranking_select import (
    CV_MAX_ITER,
    CV_TOL,
    MAX_CV_SAMPLES,
    WIDTH_FACTORS,
    select_nu_and_width,
    stratified_subsample,
)
from ._nu_ranking_solver import (
    FORMULATIONS,
    SOLVERS,
    _mae_thresholds,
    _nu_ranking_dual,
    _thresholds,
    max_feasible_nu,
    resolve_solver,
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
    meaningless; a warning says so.

    The default ``nu="auto"`` chooses ν, the RBF width (when it is data-driven) and the
    threshold rule by a cross-validation inside ``fit`` over ν ∈ {0.4, 0.6, 0.8, 0.95}·ν_max,
    width × {0.1, 0.3, 1, 3} and the two threshold rules (5 folds up to 500 points, else 3
    folds on a rank-stratified subsample of 500), then fits once on all the data. How these
    defaults were chosen, and what they cost, is in the user guide (Ranking).

    Parameters
    ----------
    nu : float > 0 or "auto", default="auto"
        Bound on the fraction of margin errors; C = 1/(νℓ). A ν that leaves the QP infeasible
        (ν > ν_max = 2 Σ_y min(n_y, n_{y+1}) / ℓ; ν_max ≈ 1.6 for 5 balanced ranks) is an
        error. Below 1/ℓ the box α ≤ C no longer binds (Σ α = 1): every such ν is the same
        QP, the hard-margin ranking, solved as ν = 1/ℓ. ``"auto"``: chosen with the width
        and the threshold rule by the internal cross-validation above (``nu_``, ``kernel_``,
        ``threshold_rule_``, ``cv_results_`` record the choice).
    kernel : str, Kernel or callable, default="rbf"
        A kernel object, a name with ``kernel_params``, ``"precomputed"`` or a callable.
        scipy.sparse ``X`` (CSR/CSC) works with the kernels that compute on it (linear,
        polynomial, cosine, RBF, Laplacian, sigmoid); others raise ``TypeError``.
        The default, ``RBF(gamma="scale")``, takes its width from the data: ``X * c + b``
        (c > 0, b the same on every column) gives the same result; different shifts per
        column may not (:class:`~kernel_patterns.kernels.RBF`).
    kernel_params : dict, default=None
    solver : {"auto", "piqp", "clarabel", "smo"}, default="auto"
        piqp's dense interior-point QP solver, Clarabel's, or ``"smo"``: a decomposition
        solver written for this dual (SMO-style working sets that keep the per-rank equality
        constraints, as libsvm's ν-SVM; kernel rows read through the kernel operator and
        cached, so K need not be held when it does not fit). ``"auto"`` takes piqp up to 500
        training points and SMO beyond, where it is much faster (user guide, Ranking: Cost);
        the interior-point solvers are the reference the SMO is tested against.
    formulation : {"auto", "dense", "lifted"}, default="auto"
        QP form handed to an interior-point solver (see :func:`_nu_ranking_dual`); ``"auto"``
        is dense for piqp and lifted for Clarabel.
    tol : float, default=None
        Interior point (piqp, Clarabel, and the Nyström path's own): tolerance on the scaled
        duals νℓ·α ∈ [0, 1] (``None``: 1e-8). SMO: the largest KKT violation left in the
        gradient (libsvm's ``eps``; ``None``: 1e-3, libsvm's default).
    max_iter : int, default=None
        Interior-point iterations (``None``: 200; 100 on the Nyström path) or SMO steps
        (``None``: max(100,000, 100ℓ)).
    thresholds : {"auto", "kkt", "mae"}, default="auto"
        How the thresholds are placed on f: ``"kkt"`` from the KKT conditions of Algorithm
        8.9 (margin vectors at b_y ∓ γ); ``"mae"`` the ordered thresholds minimising the
        training mean absolute rank error of f (exact, by dynamic programming); ``"auto"``:
        chosen by the cross-validation with ``nu="auto"``, ``"kkt"`` with a given ν.
    classes : array-like of shape (n_ranks,), default=None
        The rank labels from the lowest rank to the highest (e.g. ``["low", "mid",
        "high"]``): gives labels without a numeric order their order; ``predict`` returns
        these labels. ``None``: the categories of a pandas ordered categorical ``y``, else the
        numeric order of the labels. Labels listed but absent from ``y`` are left out of
        ``classes_`` (no threshold can be fitted for them).
    approximation : {"exact", "nystrom"}, default="exact"
        ``"nystrom"``: the ν-ranking on the Nyström features F (ℓ × r, K ≈ F Fᵀ from
        ``n_landmarks`` landmarks; memory O(ℓ m), never ℓ²), solved by a primal–dual interior
        point whose Newton steps are r × r systems (``_nu_ranking_features``; with
        ``solver="auto"``). At ``n_landmarks = n_samples`` it is the exact ν-ranking (tested
        against piqp to 1e-6). With ``nu="auto"`` the choice is made as above, with the exact
        kernel on the rank-stratified subsample of at most 500 points, then one Nyström fit on
        all the data uses it. What it costs at scale is in the user guide (Ranking: Cost).
    n_landmarks : int, default=None
        Nyström landmarks m (None: min(300, n_samples)); ignored with
        ``approximation="exact"``.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    random_state : int, RandomState or None, default=None
        Seeds the Nyström landmarks (the exact fit makes no random choice).

    Attributes
    ----------
    classes_ : ndarray of shape (n_ranks,)
        The ordered labels (``predict`` returns them); rank r of the QP is ``classes_[r]``.
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
    nu_ : float
        The ν used (the one chosen with ``nu="auto"``).
    threshold_rule_ : {"kkt", "mae"}
        The threshold rule used.
    cv_results_ : dict or None
        With ``nu="auto"``: ``nu_ratio`` (ν/ν_max), ``width_factor``, ``thresholds`` and
        ``mae`` (held-out; NaN when no fold can be scored, every rank a single point) of every
        candidate; ``None`` with a given ν.
    landmark_indices_ : ndarray of shape (n_landmarks,) or None
        With ``approximation="nystrom"``: the training points used as landmarks;
        ``decision_function`` is then an expansion over them (``support_vectors_`` is None).
    n_features_in_ : int

    Notes
    -----
    The loss is the ν-ranking's margin loss (with two ranks, the ν-SVM's: the predictions are
    ``NuSVC``'s), not the logistic loss of mord's threshold models, and there is no
    ``predict_proba``; the user guide compares the two (:ref:`ranking-and-mord`).

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

    At scale, on Nyström features (here 30 landmarks):

    >>> big = NuRanking(nu=0.2, kernel="rbf", kernel_params={"gamma": 2.0},
    ...                 approximation="nystrom", n_landmarks=30, random_state=0).fit(X, y)
    >>> big.predict([[0.05], [0.5], [0.95]])
    array([1, 2, 3])
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "nu": [Interval(Real, 0.0, None, closed="neither"), StrOptions({"auto"})],
        "kernel": [Kernel, str, callable],  # a name is looked up at fit (make_kernel)
        "kernel_params": [dict, None],
        "solver": [StrOptions(set(SOLVERS))],
        "formulation": [StrOptions(set(FORMULATIONS))],
        "tol": [Interval(Real, 0.0, None, closed="neither"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "thresholds": [StrOptions({"auto", "kkt", "mae"})],
        "classes": ["array-like", None],
        **APPROXIMATION_PARAMETER_CONSTRAINTS,
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        nu: float | str = "auto",
        kernel: str | Kernel | Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        *,
        solver: str = "auto",
        formulation: str = "auto",
        tol: float | None = None,
        max_iter: int | None = None,
        thresholds: str = "auto",
        classes: ArrayLike | None = None,
        approximation: str = "exact",
        n_landmarks: int | None = None,
        landmarks: str = "uniform",
        random_state: Any = None,
    ) -> None:
        self.nu = nu
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.solver = solver
        self.formulation = formulation
        self.tol = tol
        self.max_iter = max_iter
        self.thresholds = thresholds
        self.classes = classes
        self.approximation = approximation
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> NuRanking:
        """Solve the ν-ranking dual on (X, y); labels are ordered ranks (numeric or ordered
        categorical)."""
        self._validate_params()
        kernel = resolve_kernel(self.kernel, self.kernel_params)
        if self.approximation == "nystrom" and isinstance(kernel, Precomputed):
            raise ValueError("approximation='nystrom' needs a kernel function to evaluate at "
                             "the landmarks, not kernel='precomputed'; use "
                             "approximation='exact'.")
        Xv = validate_X(self, X, reset=True, kernel=kernel)
        if isinstance(kernel, Precomputed):  # before nu="auto" indexes it as K[sub, sub]
            check_square_kernel(Xv, "the precomputed kernel")
        data_width = not isinstance(kernel, Precomputed) and kernel.needs_data_scale()
        kernel = resolve_kernel(kernel, None, Xv)  # RBF(gamma="scale"): kernel_ holds the width
        classes, ranks = encode_ranks(y, self.classes)
        if Xv.shape[0] != ranks.shape[0]:
            raise ValueError(
                f"X and y have different numbers of samples: {Xv.shape[0]} and {ranks.shape[0]}."
            )
        R = classes.shape[0]
        nu_max = max_feasible_nu(ranks, R)
        solver_args: dict[str, Any] = {"solver": self.solver, "formulation": self.formulation,
                       "tol": self.tol, "max_iter": self.max_iter}
        cv_results = None
        if isinstance(self.nu, str):  # "auto": a small internal cross-validation
            kernel, nu, rule, cv_results = self._select(kernel, Xv, ranks, R, data_width,
                                                        solver_args)
            nu = min(nu * nu_max, nu_max)
        else:
            nu, rule = float(self.nu), "kkt"
            if nu > nu_max + 1e-12:
                raise ValueError(
                    f"nu={self.nu} makes the ν-ranking QP infeasible for these rank counts "
                    f"{np.bincount(ranks).tolist()}: choose nu <= {nu_max:.4g} "
                    "(2 Σ_y min(n_y, n_{y+1}) / n_samples)."
                )
        op, alpha_u, alpha_l, info = self._solve(kernel, Xv, ranks, nu, R, solver_args)
        if "solved" not in info["status"].lower():
            warnings.warn(
                f"the {info['solver']} solver stopped with status {info['status']} after "
                f"{info['iterations']} iterations; the ranker may be inaccurate.",
                ConvergenceWarning, stacklevel=user_stacklevel(),
            )
        alpha = alpha_u - alpha_l
        f = np.asarray(op.matmat(alpha), dtype=np.float64)
        scale = float(alpha @ alpha) * max(float(np.max(np.abs(op.diag()))), 1e-300)
        support = np.flatnonzero(np.abs(alpha) > 1e-8 * info["C"])
        nystrom = self.approximation == "nystrom"
        # degenerate also when no α is kept as a support vector: decision_function (an
        # expansion over the support, exact fits) is then 0 everywhere
        if float(alpha @ f) <= 1e-8 * scale or (support.size == 0 and not nystrom):
            warnings.warn(
                f"the ν-ranking solution is degenerate (f ≈ 0 within solver precision): with "
                f"nu={nu:.4g} the ranks' reduced hulls overlap in feature space. Increase nu "
                "(noisy ranks need a larger ν) or use a less smooth kernel.",
                ConvergenceWarning, stacklevel=user_stacklevel(),
            )
        thresholds, gamma = _thresholds(f, ranks, alpha_u, alpha_l, info["C"], R)
        if self.thresholds != "auto":
            rule = self.thresholds
        if rule == "mae":
            thresholds = _mae_thresholds(f, ranks, R)

        self.kernel_ = kernel
        self.classes_ = classes
        self.alpha_upper_ = alpha_u
        self.alpha_lower_ = alpha_l
        self.support_ = support
        self.dual_coef_ = alpha[support]
        self.support_vectors_ = (None if isinstance(kernel, Precomputed) or nystrom
                                 else Xv[support].copy())
        self._landmarks: tuple[FloatArray, FloatArray] | None = None
        self.landmark_indices_: NDArray[np.intp] | None = None
        if nystrom:  # f(x) = φ(x)·w, φ(x) = k(x, L) M: an expansion over the landmarks
            idx, feature_map = op.landmark_map()
            w = op.low_rank_factor().T @ alpha
            self._landmarks = (Xv[idx].copy(), np.asarray(feature_map @ w, dtype=np.float64))
            self.landmark_indices_ = np.asarray(idx)
        self.n_train_ = Xv.shape[0]
        self.thresholds_ = thresholds
        self.margin_ = gamma
        self.n_iter_ = info["iterations"]
        self.nu_ = nu
        self.threshold_rule_ = rule
        self.cv_results_ = cv_results
        return self

    def _solve(self, kernel: Kernel, X: FloatArray, ranks: NDArray[np.intp], nu: float,
               n_ranks: int, solver_args: dict[str, Any],
               ) -> tuple[Any, FloatArray, FloatArray, dict[str, Any]]:
        """The kernel operator and the dual solution (exact, or on Nyström features)."""
        if self.approximation != "nystrom":
            op = make_operator(kernel, X)
            return (op, *_nu_ranking_dual(op, ranks, nu, n_ranks=n_ranks, **solver_args))
        m = cap_landmarks(self.n_landmarks, X.shape[0])  # None: make_operator's default
        op = make_operator(kernel, X, approximation="nystrom", n_components=m,
                           landmarks=self.landmarks,  # type: ignore[arg-type]
                           random_state=self.random_state)
        if self.solver != "auto":  # an explicit solver reads K = F Fᵀ through the operator
            return (op, *_nu_ranking_dual(op, ranks, nu, n_ranks=n_ranks, **solver_args))
        F = np.asarray(op.low_rank_factor(), dtype=np.float64)
        return (op, *_nu_ranking_features(F, ranks, nu, n_ranks=n_ranks,
                                           tol=self.tol or 1e-8, max_iter=self.max_iter))

    def _select(self, kernel: Kernel, X: FloatArray, ranks: NDArray[np.intp], n_ranks: int,
                data_width: bool, solver_args: dict[str, Any],
                ) -> tuple[Kernel, float, str, dict[str, Any]]:
        """``nu="auto"``: the (ν/ν_max, width) pair of the internal cross-validation."""
        sub = stratified_subsample(ranks, MAX_CV_SAMPLES)
        if isinstance(kernel, Precomputed):
            K_sub = np.asarray(check_matrix(X, "X"), dtype=np.float64)[np.ix_(sub, sub)]
        else:
            K_sub = np.asarray(make_operator(kernel, X[sub]).to_dense(), dtype=np.float64)
        rbf = data_width and isinstance(kernel, RBF)
        gamma0 = float(kernel.gamma) if isinstance(kernel, RBF) else 1.0

        def gram(factor: float) -> FloatArray:
            if factor == 1.0:
                return K_sub
            return np.asarray(RBF(gamma0 * factor)(X[sub]), dtype=np.float64)

        rules = ("kkt", "mae") if self.thresholds == "auto" else (self.thresholds,)
        # the choice needs only approximate solutions: an interior-point method spends most of
        # its iterations on the last digits of ill-conditioned (smooth-kernel) problems
        cv_args = dict(solver_args)
        if resolve_solver(self.solver, self.formulation, sub.size)[0] != "smo":
            cv_args["tol"] = max(solver_args["tol"] or 0.0, CV_TOL)
            cv_args["max_iter"] = min(solver_args["max_iter"] or CV_MAX_ITER, CV_MAX_ITER)
        # small data: 5 folds (the choice is noisiest there, and the QPs are cheap)
        n_folds = 5 if sub.size == ranks.size else 3
        ratio, factor, rule, results = select_nu_and_width(
            gram, ranks[sub], n_ranks, WIDTH_FACTORS if rbf else (1.0,), rules=rules,
            n_folds=n_folds, **cv_args)
        if np.isnan(results["mae"]).all():
            warnings.warn(
                "nu='auto' could not cross-validate: every rank has a single point, so no fold "
                "holds out a point of a rank it was fitted on; the first candidate of the grid "
                "is used unscored. Pass a float nu, or merge ranks so that each has at least 2 "
                "points (e.g. cut a continuous target into bins).", UserWarning,
                stacklevel=user_stacklevel())
        if factor != 1.0:
            kernel = RBF(gamma0 * factor)
        return kernel, ratio, rule, results

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """f(x) = Σ_i α_i k(x_i, x): the real-valued embedding the thresholds cut into ranks.

        With ``kernel="precomputed"``, X is the kernel between new and training points,
        of shape (n_new, n_train).
        """
        check_is_fitted(self)
        Xv = validate_X(self, X, reset=False, kernel=self.kernel_)
        if self._landmarks is not None:  # Nyström: the landmark expansion of φ(x)·w
            X_lm, coef = self._landmarks
            Kx = kernel_rows(self.kernel_, X_lm, np.arange(0), 0, Xv)
            return np.asarray(Kx @ coef, dtype=np.float64)
        Kx = kernel_rows(self.kernel_, self.support_vectors_, self.support_, self.n_train_, Xv)
        return np.asarray(Kx @ self.dual_coef_, dtype=np.float64)

    @classmethod
    def _sk_check_instances(cls) -> list[Any]:
        """The estimator checks run the exact and the Nyström variant."""
        return [cls(), cls(approximation="nystrom", random_state=0)]

