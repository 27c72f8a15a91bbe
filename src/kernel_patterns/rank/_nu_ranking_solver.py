"""The ν-ranking dual QP (Algorithm 8.9 of Shawe-Taylor & Cristianini, ch. 8) and its thresholds.

Pure functions: arrays in, arrays out, no validation, no printing. The estimator
:class:`kernel_patterns.rank.NuRanking` validates its input and calls them.

The dual, with ℓ training points of consecutive ranks 0, …, R − 1 (the book counts 1, …, |Y|)::

    min  ½ (α^u − α^l)ᵀ K (α^u − α^l)
    s.t. Σ_{i: y_i = y} α^l_i = Σ_{i: y_i = y+1} α^u_i,   y = 0, …, R − 2,
         Σ_i (α^u_i + α^l_i) = 1,   0 ≤ α^u_i, α^l_i ≤ 1/(νℓ),
         α^u_i = 0 on the bottom rank,  α^l_i = 0 on the top rank.

Erratum (papers/README.md, item 8): the book prints the equality constraints as
Σ_{y_i = y} α^l_i = Σ_{y_i = y−1} α^u_i, which pairs the wrong ranks. b_y (upper threshold of
rank y) enters the lower-side constraint of rank y (multiplier α^l) and the upper-side
constraint of rank y + 1 (multiplier α^u), so ∂L/∂b_y = 0 gives the form above.

The QP is solved in the scaled variables a = νℓ·α ∈ [0, 1] (Σ a = νℓ), which keeps the
solver's absolute tolerances meaningful whatever ℓ; the returned α are unscaled. For ν < 1/ℓ
the box α ≤ 1/(νℓ) does not bind (Σ α = 1), the QP is that of ν = 1/ℓ and it is solved as
that one, in a = α (``scaled_mass``): scaling by νℓ shrank the variables, and the gradient the
solvers' tolerances are read on, with ν.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from .._optional import import_optional
from ._nu_ranking_smo import _nu_ranking_smo, scaled_mass

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

SOLVERS: tuple[str, ...] = ("auto", "piqp", "clarabel", "smo")
FORMULATIONS: tuple[str, ...] = ("auto", "dense", "lifted")
#: ``solver="auto"`` takes piqp (dense form) up to this many points and SMO beyond, where the
#: decomposition is faster; piqp stays a core dependency (measurements: user guide, Ranking:
#: How the defaults were chosen).
AUTO_SWITCH = 500
#: default ``tol`` per solver: interior point (scaled duals) and SMO (KKT violation, as libsvm's
#: ``eps``, whose default 1e-3 it takes; the held-out ranks do not see the difference from a
#: tighter one: user guide, Ranking: How the defaults were chosen).
DEFAULT_TOL = {"piqp": 1e-8, "clarabel": 1e-8, "smo": 1e-3}


def resolve_solver(solver: str, formulation: str, n_samples: int) -> tuple[str, str]:
    """Turn ``"auto"`` choices into a concrete (solver, formulation) pair."""
    if solver == "auto":
        solver = "piqp" if n_samples <= AUTO_SWITCH else "smo"
    if solver == "smo":
        return solver, "decomposition"
    if formulation == "auto":
        formulation = "dense" if solver == "piqp" else "lifted"
    return solver, formulation


def max_feasible_nu(y: IntArray, n_ranks: int) -> float:
    """Largest ν for which the dual of Algorithm 8.9 is feasible.

    The equality constraints give Σ α^l = Σ α^u = ½, and the mass s_y = Σ_{y_i=y} α^l_i =
    Σ_{y_i=y+1} α^u_i is at most min(n_y, n_{y+1})/(νℓ); hence ν ≤ 2 Σ_y min(n_y, n_{y+1}) / ℓ.
    """
    counts = np.bincount(y, minlength=n_ranks).astype(np.float64)
    return float(2.0 * np.minimum(counts[:-1], counts[1:]).sum() / y.shape[0])


def _structure(y: IntArray, n_ranks: int) -> tuple[IntArray, IntArray, FloatArray]:
    """Indices of the free α^u (rank ≥ 1) and α^l (rank ≤ R − 2), and the equality matrix."""
    idx_u = np.flatnonzero(y >= 1)
    idx_l = np.flatnonzero(y <= n_ranks - 2)
    n_u, n_l = idx_u.size, idx_l.size
    A = np.zeros((n_ranks, n_u + n_l))
    # row y < R − 1: Σ_{rank y} α^l − Σ_{rank y+1} α^u = 0 (the corrected pairing, erratum 8)
    A[y[idx_u] - 1, np.arange(n_u)] = -1.0
    A[y[idx_l], n_u + np.arange(n_l)] = 1.0
    A[n_ranks - 1, :] = 1.0  # Σ (α^u + α^l) = 1 (scaled: = νℓ)
    return idx_u, idx_l, A


def _solve_piqp(P: Any, A: Any, b: FloatArray, lo: FloatArray, hi: FloatArray,
                tol: float, max_iter: int) -> tuple[FloatArray, str, int]:
    import piqp

    n = P.shape[0]
    solver = piqp.DenseSolver()
    solver.settings.eps_abs = tol
    solver.settings.eps_rel = tol * 0.1
    solver.settings.max_iter = max_iter
    solver.setup(np.asfortranarray(P), np.zeros(n), np.asfortranarray(A), b,
                 None, None, None, lo, hi)
    status = solver.solve()
    res = solver.result
    return np.asarray(res.x, dtype=np.float64), str(status), int(res.info.iter)


def _solve_clarabel(P: Any, A: Any, b: FloatArray, lo: FloatArray,
                    hi: FloatArray, tol: float, max_iter: int) -> tuple[FloatArray, str, int]:
    clarabel = import_optional("clarabel", extra="rank", purpose="solver='clarabel'")
    n = P.shape[0]
    free = np.isfinite(lo)  # β of the lifted form is unbounded
    box = np.flatnonzero(free)
    E = sparse.csc_array((np.ones(box.size), (np.arange(box.size), box)), shape=(box.size, n))
    A_all = sparse.vstack([sparse.csc_array(A), -E, E], format="csc")
    b_all = np.concatenate([b, -lo[box], hi[box]])
    P_up = sparse.triu(P if sparse.issparse(P) else sparse.csc_array(P), format="csc")
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = tol
    settings.tol_gap_rel = tol
    settings.tol_feas = tol
    settings.max_iter = max_iter
    settings.direct_solve_method = "faer"
    cones = [clarabel.ZeroConeT(A.shape[0]), clarabel.NonnegativeConeT(2 * box.size)]
    sol = clarabel.DefaultSolver(P_up, np.zeros(n), A_all, b_all, cones, settings).solve()
    return np.asarray(sol.x, dtype=np.float64), str(sol.status), int(sol.iterations)


def _nu_ranking_dual(
    K: Any,
    y: IntArray,
    nu: float,
    *,
    n_ranks: int | None = None,
    solver: str = "auto",
    formulation: str = "auto",
    tol: float | None = None,
    max_iter: int | None = None,
) -> tuple[FloatArray, FloatArray, dict[str, Any]]:
    """Solve the dual of Algorithm 8.9 (with erratum 8's equality constraints).

    Parameters
    ----------
    K : ndarray of shape (ℓ, ℓ), or a KernelOperator for ``solver="smo"``
        Kernel matrix of the training points.
    y : ndarray of int of shape (ℓ,)
        Consecutive ranks 0, …, R − 1, each present.
    nu : float in (0, max_feasible_nu(y)]
    n_ranks : int, default=y.max() + 1
    solver : {"auto", "piqp", "clarabel", "smo"}
        piqp's dense interior-point solver, Clarabel's (sparse) one, or the decomposition
        solver :func:`_nu_ranking_smo` (kernel rows through the operator); ``"auto"``: piqp up
        to ℓ = 500, SMO beyond (measured, see ``AUTO_SWITCH``).
    formulation : {"auto", "dense", "lifted"}
        ``"dense"``: variables (α^u, α^l), Hessian DᵀKD with D = [I, −I] (4× the entries of K).
        ``"lifted"``: variables (β, α^u, α^l) with β = α^u − α^l as ℓ extra equalities and the
        Hessian blockdiag(K, 0). ``"auto"``: dense for piqp, lifted for Clarabel.
    tol : float, default=DEFAULT_TOL[solver]
        Interior point: solver tolerance in the scaled variables νℓ·α ∈ [0, 1]; SMO: the
        largest KKT violation left in the gradient of the scaled problem.
    max_iter : int, default=200 (interior point) or max(100,000, 100ℓ) (SMO)

    Returns
    -------
    alpha_u, alpha_l : ndarray of shape (ℓ,)
        Dual variables (zero where fixed); α = α^u − α^l gives f(x) = Σ α_i k(x_i, x).
    info : dict
        ``status``, ``iterations``, ``solver``, ``formulation``, ``C`` = 1/max(νℓ, 1) (the
        box on α; for ν < 1/ℓ the bound 1/(νℓ) does not bind, and α ≤ 1 holds anyway).
    """
    ell = y.shape[0]
    solver, formulation = resolve_solver(solver, formulation, ell)
    R = int(y.max()) + 1 if n_ranks is None else int(n_ranks)
    tol = DEFAULT_TOL.get(solver, 1e-8) if tol is None else float(tol)
    if solver == "smo":
        return _nu_ranking_smo(K, y, nu, n_ranks=R, tol=tol, max_iter=max_iter)
    max_iter = 200 if max_iter is None else int(max_iter)
    K = np.asarray(K.to_dense() if hasattr(K, "to_dense") else K, dtype=np.float64)
    idx_u, idx_l, A = _structure(y, R)
    n_u, n_l = idx_u.size, idx_l.size
    scale = scaled_mass(nu, ell)
    b = np.zeros(R)
    b[-1] = scale
    if formulation == "dense":
        P = np.empty((n_u + n_l, n_u + n_l))
        P[:n_u, :n_u] = K[np.ix_(idx_u, idx_u)]
        P[:n_u, n_u:] = -K[np.ix_(idx_u, idx_l)]
        P[n_u:, :n_u] = P[:n_u, n_u:].T
        P[n_u:, n_u:] = K[np.ix_(idx_l, idx_l)]
        A_full, lo, hi = A, np.zeros(n_u + n_l), np.ones(n_u + n_l)
        offset = 0
    elif formulation == "lifted":
        n = ell + n_u + n_l
        rows = np.r_[np.arange(ell), idx_u, idx_l]
        cols = np.r_[np.arange(ell), ell + np.arange(n_u), ell + n_u + np.arange(n_l)]
        vals = np.r_[np.ones(ell), -np.ones(n_u), np.ones(n_l)]
        link = sparse.csc_array((vals, (rows, cols)), shape=(ell, n))  # β − E_u a^u + E_l a^l
        eq = sparse.hstack([sparse.csc_array((R, ell)), sparse.csc_array(A)])
        A_sp = sparse.vstack([eq, link], format="csc")
        if solver == "clarabel":  # keep it sparse: only the upper triangle of K is stored
            P = sparse.block_diag([sparse.csc_array(np.triu(K)),
                                   sparse.csc_array((n_u + n_l, n_u + n_l))], format="csc")
            A_full = A_sp
        else:
            P = np.zeros((n, n))
            P[:ell, :ell] = K
            A_full = A_sp.toarray()
        b = np.concatenate([b, np.zeros(ell)])
        lo = np.concatenate([np.full(ell, -np.inf), np.zeros(n_u + n_l)])
        hi = np.concatenate([np.full(ell, np.inf), np.ones(n_u + n_l)])
        offset = ell
    else:
        raise ValueError(f"formulation must be one of {FORMULATIONS}; got {formulation!r}.")
    if solver == "piqp":
        x, status, iters = _solve_piqp(P, A_full, b, lo, hi, tol, max_iter)
    elif solver == "clarabel":
        x, status, iters = _solve_clarabel(P, A_full, b, lo, hi, tol, max_iter)
    else:
        raise ValueError(f"solver must be one of {SOLVERS}; got {solver!r}.")
    a = np.clip(x[offset:], 0.0, 1.0) / scale
    alpha_u = np.zeros(ell)
    alpha_l = np.zeros(ell)
    alpha_u[idx_u] = a[:n_u]
    alpha_l[idx_l] = a[n_u:]
    info = {"status": status, "iterations": iters, "solver": solver,
            "formulation": formulation, "C": 1.0 / scale}
    return alpha_u, alpha_l, info


def _thresholds(
    f: FloatArray,
    y: IntArray,
    alpha_u: FloatArray,
    alpha_l: FloatArray,
    C: float,
    n_ranks: int,
    rtol: float = 1e-3,
) -> tuple[FloatArray, float]:
    """Thresholds b_0 … b_{R−2} and the margin γ from the KKT conditions of Algorithm 8.9.

    A margin vector of rank y with 0 < α^l_i < C sits at f(x_i) = b_y − γ; one of rank y + 1
    with 0 < α^u_j < C at f(x_j) = b_y + γ ("0 <" and "< C" up to ``rtol``·C, since an
    interior-point solution sits slightly inside the box). When a side of threshold y has no
    margin vector, the KKT conditions still bracket it: α^l_i = 0 ⇒ f(x_i) ≤ b_y − γ and
    α^l_i = C ⇒ f(x_i) ≥ b_y − γ (the mirror for α^u), and the middle of that bracket is used
    (its finite end when it is one-sided). b_y = ½(lo_y + up_y); γ is the mean half-gap over
    thresholds with margin vectors on both sides (else over all). Returns sorted thresholds.
    """
    eps = rtol * C
    lows = np.empty(n_ranks - 1)
    ups = np.empty(n_ranks - 1)
    exact = np.zeros(n_ranks - 1, dtype=bool)

    def side(vals: FloatArray, alphas: FloatArray, below_at_zero: bool) -> tuple[float, bool]:
        margin = (alphas > eps) & (alphas < C - eps)
        if margin.any():
            return float(np.mean(vals[margin])), True
        at_zero = alphas <= eps
        at_c = alphas >= C - eps
        # below_at_zero: points with α = 0 lie below the level (α^l side), points at C above.
        lo_vals = vals[at_zero] if below_at_zero else vals[at_c]
        hi_vals = vals[at_c] if below_at_zero else vals[at_zero]
        lo = float(lo_vals.max()) if lo_vals.size else -np.inf
        hi = float(hi_vals.min()) if hi_vals.size else np.inf
        if np.isfinite(lo) and np.isfinite(hi):
            return 0.5 * (lo + hi), False
        return (lo if np.isfinite(lo) else hi), False

    for t in range(n_ranks - 1):
        mask_l = y == t
        mask_u = y == t + 1
        lows[t], ex_l = side(f[mask_l], alpha_l[mask_l], below_at_zero=True)
        ups[t], ex_u = side(f[mask_u], alpha_u[mask_u], below_at_zero=False)
        exact[t] = ex_l and ex_u
    b = 0.5 * (lows + ups)
    half_gaps = 0.5 * (ups - lows)
    gamma = float(np.mean(half_gaps[exact])) if exact.any() else float(np.mean(half_gaps))
    return np.sort(b), gamma


def _mae_thresholds(f: FloatArray, y: IntArray, n_ranks: int) -> FloatArray:
    """Ordered thresholds that minimise the training mean absolute rank error of ``f``.

    Exact, by dynamic programming over the distinct values of f in increasing order: the
    ranks r(x) = #{b_t ≤ f(x)} are non-decreasing in f, so the best labelling is a monotone
    path; cost(v, r) = min_{r' ≤ r} cost(v − 1, r') + Σ_{i: f_i = v} |r − y_i| (points with
    equal f share their rank). Each b_t is then the midpoint between the largest f given a
    rank ≤ t and the smallest given a rank > t. O(n log n + n·R).
    """
    values, inverse = np.unique(f, return_inverse=True)
    m = values.shape[0]
    counts = np.zeros((m, n_ranks))
    np.add.at(counts, (inverse, y), 1.0)
    steps = np.abs(np.arange(n_ranks)[:, None] - np.arange(n_ranks)[None, :])
    block_cost = counts @ steps  # (m, R): Σ_i |r − y_i| over the points at each value
    back = np.empty((m, n_ranks), dtype=np.intp)
    cost = np.zeros(n_ranks)
    for v in range(m):
        best = np.zeros(n_ranks, dtype=np.intp)  # argmin over r' ≤ r of cost(v − 1, r')
        for r in range(1, n_ranks):
            best[r] = best[r - 1] if cost[best[r - 1]] <= cost[r] else r
        back[v] = best
        cost = cost[best] + block_cost[v]
    labels = np.empty(m, dtype=np.intp)
    r = int(np.argmin(cost))
    for v in range(m - 1, -1, -1):
        labels[v] = r
        r = int(back[v, r])
    spread = max(float(values[-1] - values[0]), 1e-300)
    b = np.empty(n_ranks - 1)
    for t in range(n_ranks - 1):
        lo, hi = values[labels <= t], values[labels > t]
        if lo.size and hi.size:
            b[t] = 0.5 * (lo[-1] + hi[0])
        else:
            b[t] = lo[-1] + spread if lo.size else hi[0] - spread
    return np.sort(b)
