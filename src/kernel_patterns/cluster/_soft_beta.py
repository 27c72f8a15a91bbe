"""The stiffness β of soft kernel k-means from the data (private): ``beta="auto"`` and the
critical β below which the uniform responsibilities are the only fixed point."""

from __future__ import annotations

import numpy as np

from ..kernels import KernelOperator
from ._kernel_kmeans_solver import FloatArray


def _auto_beta(op: KernelOperator, w: FloatArray, diag: FloatArray) -> float:
    """``beta="auto"``: 10 / s, s = Σ w k(x, x) / Σ w − wᵀ K w / (Σ w)², the weighted mean
    squared feature-space distance of the points to their mean (one product with K)."""
    total = float(np.sum(w))
    Kw = np.asarray(op.matmat(w[:, None].astype(op.dtype)), dtype=np.float64)[:, 0]
    s = float(np.dot(w, diag)) / total - float(np.dot(w, Kw)) / total**2
    return 10.0 / s if s > 0 and np.isfinite(s) else 10.0


def _critical_beta(op: KernelOperator, w: FloatArray | None = None) -> float:
    """β_c = 1 / (2 λ₁(C)), C the covariance of the points in feature space with the weights
    ``w`` (None: equal): below it the uniform responsibilities are the only fixed point of
    eq. 7 (the first phase transition of deterministic annealing, Rose 1998, in feature
    space). With p = w / Σw, λ₁(C) is that of D^½ (I − 1pᵀ) K (I − p1ᵀ) D^½, D = diag(p)
    (for equal weights H K H / n, H the centring): by Lanczos on products with K. A weight
    of 2 counts as the point twice (tested against the dense eigenvalue of the duplicated
    rows). The operator is zero to round-off when the points coincide in feature space
    (identical points, all-zero data with a linear kernel): then λ₁ = 0 and β_c = ∞, without
    Lanczos (ARPACK fails on a zero operator)."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    n = op.n_samples
    if n < 3:
        return float("nan")
    p = np.full(n, 1.0 / n) if w is None else np.asarray(w, dtype=np.float64) / np.sum(w)
    root = np.sqrt(p)[:, None]

    def centred(v: FloatArray) -> FloatArray:
        u = root * np.asarray(v, dtype=np.float64).reshape(n, -1)
        u = u - p[:, None] * u.sum(axis=0)  # (I − p1ᵀ) u
        Ku = np.asarray(op.matmat(u.astype(op.dtype)), dtype=np.float64)
        return root * (Ku - p @ Ku)  # D^½ (I − 1pᵀ) K u

    v0 = np.linspace(-1.0, 1.0, n)
    if _is_zero(op, p, centred(v0)):
        return float("inf")
    lam = eigsh(LinearOperator((n, n), matvec=centred, matmat=centred, dtype=np.float64),
                k=1, which="LA", return_eigenvectors=False, v0=v0)[0]
    return float(1.0 / (2.0 * lam)) if lam > 0 else float("inf")


def _is_zero(op: KernelOperator, p: FloatArray, Cv0: FloatArray) -> bool:
    """Whether the centred operator is zero to round-off: its diagonal, p_i ‖φ_i − Σ p φ‖²,
    and its product ``Cv0`` with the start vector both vanish relative to the kernel's scale
    (the diagonal alone would do for a PSD kernel; the product guards an indefinite one)."""
    diag = np.asarray(op.diag(), dtype=np.float64)
    Kp = np.asarray(op.matmat(p[:, None].astype(op.dtype)), dtype=np.float64)[:, 0]
    tol = p.shape[0] * float(np.finfo(op.dtype).eps) * float(np.max(np.abs(diag)))
    spread = p * (diag - 2.0 * Kp + float(p @ Kp))
    return bool(np.max(np.abs(spread)) <= tol and np.max(np.abs(Cv0)) <= tol)
