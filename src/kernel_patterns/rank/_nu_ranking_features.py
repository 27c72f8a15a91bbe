"""The ν-ranking dual on explicit features (K = F Fᵀ, e.g. Nyström), by an interior point.

Pure function :func:`_nu_ranking_features`. With features F (ℓ × r, r ≪ ℓ: the Nyström
features of ``NuRanking(approximation="nystrom")``), the dual of ``_nu_ranking_solver`` in the
scaled variables a ∈ [0, 1]ⁿ (n = the free α^u and α^l)::

    min ½ aᵀ G Gᵀ a   s.t.  E a = c,  0 ≤ a ≤ 1,

has G = S F (S puts +F_i on a^u_i and −F_i on a^l_i: Gᵀa = Fᵀβ = w, the primal weights of
the linear ν-ranking on F) and the R equalities E a = c of erratum 8 (Σ_{y_i=t} a^l_i =
Σ_{y_i=t+1} a^u_i and Σ a = νℓ, at least 1: ``_nu_ranking_smo.scaled_mass``). K = F Fᵀ is
never formed.

The solver is a primal–dual interior point (Mehrotra's predictor–corrector, as Ferris &
Munson, "Interior-point methods for massive support vector machines", 2003, do for the linear
SVM), whose step count does not grow with the conditioning of smooth, nearly collinear
Nyström features (why not the decomposition of ``_nu_ranking_smo``: user guide, Ranking:
Cost). Each Newton step is one r × r system:

    (G Gᵀ + D)⁻¹ = D⁻¹ − D⁻¹G (I + GᵀD⁻¹G)⁻¹ GᵀD⁻¹   (Sherman–Morrison–Woodbury),

GᵀD⁻¹G = Σ_i (1/d^u_i + 1/d^l_i) F_iᵀF_i (one ℓ r² product), then an R × R system for the
equality multipliers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse
from scipy.linalg import cho_factor, cho_solve, solve
from scipy.linalg.blas import dsyrk

from ._nu_ranking_smo import scaled_mass

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
#: share of the step to the boundary taken by each Newton step
STEP_FRACTION = 0.99


class _Structure:
    """Index bookkeeping: the free variables (a^u of ranks ≥ 1, then a^l of ranks ≤ R − 2),
    their points, signs and equality rows."""

    def __init__(self, y: IntArray, R: int, total: float) -> None:
        self.ell = y.shape[0]
        self.idx_u = np.flatnonzero(y >= 1)
        self.idx_l = np.flatnonzero(y <= R - 2)
        self.point = np.concatenate([self.idx_u, self.idx_l])
        self.n_u = self.idx_u.size
        self.sign = np.concatenate([np.ones(self.n_u), -np.ones(self.idx_l.size)])
        # the equality rows: row t < R − 1 is Σ_{rank t} a^l − Σ_{rank t+1} a^u, row R − 1 Σ a
        self.row = np.concatenate([y[self.idx_u] - 1, y[self.idx_l]])
        self.R = R
        self.c = np.zeros(R)
        self.c[-1] = total

    def E(self, a: FloatArray) -> FloatArray:
        out = np.bincount(self.row, weights=-self.sign * a, minlength=self.R).astype(np.float64)
        out[-1] = a.sum()
        return out

    def Et(self, lam: FloatArray) -> FloatArray:
        return -self.sign * lam[self.row] + lam[-1]

    def Et_matrix(self) -> FloatArray:
        """Eᵀ as an n × R array."""
        M = np.zeros((self.point.size, self.R))
        M[np.arange(self.point.size), self.row] = -self.sign
        M[:, -1] = 1.0
        return M

    def gather(self) -> sparse.csr_array:
        """P (ℓ × n) with G = Pᵀ F: P_{i, j} = ±1 when variable j is point i's a^u (+) / a^l."""
        n = self.point.size
        return sparse.csr_array((self.sign, (self.point, np.arange(n))), shape=(self.ell, n))


def _nu_ranking_features(
    F: FloatArray,
    y: IntArray,
    nu: float,
    *,
    n_ranks: int | None = None,
    tol: float = 1e-8,
    max_iter: int | None = None,
) -> tuple[FloatArray, FloatArray, dict[str, Any]]:
    """Solve the ν-ranking dual with K = F Fᵀ by a primal–dual interior point.

    Parameters
    ----------
    F : ndarray of shape (ℓ, r)
        Features of the training points (K = F Fᵀ).
    y : ndarray of int of shape (ℓ,)
        Consecutive ranks 0, …, R − 1, each present.
    nu : float in (0, max_feasible_nu(y)]
    tol : float
        Stop when the mean complementarity and the equality residual fall below ``tol``
        relative to the scale of the gradient (variables a = νℓ·α ∈ [0, 1]).
    max_iter : int, default=100
        Newton steps.

    Returns
    -------
    alpha_u, alpha_l, info
        As :func:`_nu_ranking_dual`, plus ``w`` = Fᵀ(α^u − α^l) (the primal weights on F)
        and ``objective`` (½‖w‖², unscaled α).
    """
    F = np.asarray(F, dtype=np.float64)
    ell = y.shape[0]
    R = int(y.max()) + 1 if n_ranks is None else int(n_ranks)
    total = scaled_mass(nu, ell)
    st = _Structure(y, R, total)
    n = st.point.size
    P = st.gather()  # G = Pᵀ F: +F_i on a^u_i, −F_i on a^l_i (never formed)
    Ff = np.asfortranarray(F)  # BLAS syrk reads F in place
    Et = st.Et_matrix()
    a = np.full(n, min(max(total / n, 0.01), 0.99))
    s = 1.0 - a  # a + s = 1, kept as its own variable: 1 − a rounds to 0 as a → 1
    # a dual start that fits the gradient: λ by least squares (Eᵀλ ≈ Qa), then z − v = the
    # rest, both at least δ (an all-ones start left a dual residual of the gradient's size,
    # which took 30 of 46 steps to remove at ℓ = 100,000)
    g = P.T @ (F @ (F.T @ (P @ a)))
    lam = np.linalg.lstsq(Et, g, rcond=None)[0]
    g = g - Et @ lam
    delta = 0.1 * (1.0 + float(np.mean(np.abs(g))))
    z, v = np.maximum(g, 0.0) + delta, np.maximum(-g, 0.0) + delta
    limit = 100 if max_iter is None else int(max_iter)
    status, it = "max_iter_reached", 0
    for it in range(1, limit + 1):  # noqa: B007 - the count is reported
        w = F.T @ (P @ a)
        Qa = P.T @ (F @ w)
        r_d = Qa - Et @ lam - z + v
        r_p = st.E(a) - st.c
        mu = float(a @ z + s @ v) / (2 * n)
        scale = 1.0 + float(np.max(np.abs(Qa)))
        if (mu <= tol * scale and float(np.max(np.abs(r_d))) <= tol * scale
                and float(np.max(np.abs(r_p))) <= tol * (1.0 + total)):
            status = "solved"
            break
        if mu <= 1e-14 * scale:  # complementarity at round-off: no further progress possible
            status = "solved" if float(np.max(np.abs(r_d))) <= 1e-6 * scale else "stalled"
            break
        d = z / a + v / s
        # Woodbury: (G Gᵀ + D)⁻¹ through the r × r matrix I + Gᵀ D⁻¹ G
        # Gᵀ D⁻¹ G = Fᵀ diag(ω) F, ω_i = Σ 1/d over point i's variables: one ℓ r² product
        omega = np.bincount(st.point, weights=1.0 / d, minlength=ell)
        inner = dsyrk(1.0, Ff * np.sqrt(omega)[:, None], trans=1, lower=0)
        inner[np.diag_indices_from(inner)] += 1.0
        chol = cho_factor(inner, lower=False)

        def solve_m(X: FloatArray, d: FloatArray = d, chol: Any = chol) -> FloatArray:
            DX = X / d[:, None]
            return DX - (P.T @ (F @ cho_solve(chol, F.T @ (P @ DX)))) / d[:, None]

        MEt = solve_m(Et)
        EMEt = Et.T @ MEt

        def direction(c1: FloatArray, c2: FloatArray, MEt: FloatArray = MEt,
                      EMEt: FloatArray = EMEt, a: FloatArray = a, s: FloatArray = s,
                      z: FloatArray = z, v: FloatArray = v, r_d: FloatArray = r_d,
                      r_p: FloatArray = r_p,
                      ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
            h = -r_d + c1 / a - z - c2 / s + v
            Mh = solve_m(h[:, None])[:, 0]
            dlam = solve(EMEt, -r_p - Et.T @ Mh, assume_a="sym")
            da = Mh + MEt @ dlam
            dz = (c1 - a * z - z * da) / a
            dv = (c2 - s * v + v * da) / s
            return da, dlam, dz, dv

        def max_step(pairs: tuple[tuple[FloatArray, FloatArray], ...]) -> float:
            step = 1.0
            for x, dx in pairs:
                neg = dx < 0
                if neg.any():
                    step = min(step, float(np.min(-x[neg] / dx[neg])))
            return step

        zero = np.zeros(n)
        da, _, dz, dv = direction(zero, zero)  # affine (predictor) direction
        sp = max_step(((a, da), (s, -da)))
        sd = max_step(((z, dz), (v, dv)))
        mu_aff = float((a + sp * da) @ (z + sd * dz) + (s - sp * da) @ (v + sd * dv)) / (2 * n)
        sigma = (mu_aff / mu) ** 3
        # Mehrotra's corrector: the second-order terms of the complementarity products
        da, dlam, dz, dv = direction(sigma * mu - da * dz, sigma * mu + da * dv)
        # separate primal and dual step lengths (measured: fewer Newton steps)
        sp = min(1.0, STEP_FRACTION * max_step(((a, da), (s, -da))))
        sd = min(1.0, STEP_FRACTION * max_step(((z, dz), (v, dv))))
        a = a + sp * da
        s = s - sp * da
        lam = lam + sd * dlam
        z = z + sd * dz
        v = v + sd * dv
    a = np.clip(a, 0.0, 1.0)
    a_u, a_l = np.zeros(ell), np.zeros(ell)
    a_u[st.idx_u] = a[:st.n_u]
    a_l[st.idx_l] = a[st.n_u:]
    alpha_u, alpha_l = a_u / total, a_l / total
    w_final = F.T @ (alpha_u - alpha_l)
    info = {"status": status, "iterations": it, "solver": "ipm", "formulation": "features",
            "C": 1.0 / total, "objective": 0.5 * float(w_final @ w_final), "w": w_final}
    return alpha_u, alpha_l, info
