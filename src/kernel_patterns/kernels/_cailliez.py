"""Cailliez's additive constant (errata 5), shared by the exact and landmark geodesic kernels."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from scipy.sparse.linalg import LinearOperator, eigs

from .._validation import FloatArray

_BLOCK = 2048


def _centre(v: FloatArray) -> FloatArray:
    return v - v.mean(axis=0, keepdims=True)


def _sq_matvec(D: FloatArray, V: FloatArray) -> FloatArray:
    """(D ∘ D) @ V in row blocks (no N × N temporary)."""
    out = np.empty((D.shape[0], V.shape[1]))
    for a in range(0, D.shape[0], _BLOCK):
        blk = D[a : a + _BLOCK]
        out[a : a + _BLOCK] = (blk * blk) @ V
    return out


def cailliez_constant(D: ArrayLike, method: str = "auto", random_state: int = 0) -> float:
    """Cailliez's additive constant c*: the largest real eigenvalue of
    [[0, 2K̃(D²)], [−I, −4K̃(D)]] (eq. 5 of file 004 with errata 5).

    Parameters
    ----------
    D : array of shape (n, n)
        Symmetric distances with a zero diagonal.
    method : {"auto", "dense", "arpack"}
        ``"dense"``: all eigenvalues of the 2n × 2n matrix (``scipy.linalg.eigvals``);
        ``"arpack"``: Arnoldi (``eigs``, largest real part) on a matrix-free product;
        ``"auto"``: dense for n ≤ 64.
    random_state : int
        Seed of ARPACK's start vector.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0., 1., 3.], [1., 0., 1.], [3., 1., 0.]])  # violates the triangle inequality
    >>> round(cailliez_constant(D), 6)
    1.0
    """
    Dm = np.asarray(D, dtype=np.float64)
    if Dm.ndim != 2 or Dm.shape[0] != Dm.shape[1] or not np.isfinite(Dm).all():
        raise ValueError("D must be a square matrix of finite distances.")
    n = Dm.shape[0]
    if not Dm.any():  # identical points: already Euclidean (the eigensolvers give round-off)
        return 0.0
    if method == "auto":
        method = "dense" if n <= 64 else "arpack"
    if method == "dense":
        B1 = -0.5 * _centre(_centre(Dm * Dm).T)
        B2 = -0.5 * _centre(_centre(Dm).T)
        M = np.zeros((2 * n, 2 * n))
        M[:n, n:] = 2.0 * B1
        M[n:, :n] = -np.eye(n)
        M[n:, n:] = -4.0 * B2
        ev = scipy.linalg.eigvals(M)
        return float(np.max(ev.real))
    if method != "arpack":
        raise ValueError(f"method must be 'auto', 'dense' or 'arpack'; got {method!r}.")

    # D ∘ D is stored when it is small enough, else squared block by block per product.
    D2 = Dm * Dm if n <= 8000 else None

    def matmat(V: FloatArray) -> FloatArray:
        V = np.asarray(V, dtype=np.float64).reshape(2 * n, -1)
        u, v = V[:n], V[n:]
        Hv = _centre(v)
        B1v = -0.5 * _centre(D2 @ Hv if D2 is not None else _sq_matvec(Dm, Hv))
        B2v = -0.5 * _centre(Dm @ Hv)
        return np.vstack([2.0 * B1v, -u - 4.0 * B2v])

    op = LinearOperator((2 * n, 2 * n), matvec=matmat, matmat=matmat, dtype=np.float64)
    v0 = np.random.default_rng(random_state).normal(size=2 * n)
    # The Krylov space size matters. Matrix-vector products measured on kNN-geodesic moons
    # distances: ncv = 80 took 81 / 121 at n = 1,000 / 3,000 but 1,841 at n = 5,000 with two
    # joined components; ncv = 30 took 250 / 337 / 271 (n = 2,000, joined) / 397 (n = 5,000,
    # joined): never the best, never bad. A shift-invert variant (one Cholesky of
    # c²I + 4cK̃(D) + 2K̃(D²) at an upper bound of c*) was slower still.
    ncv = min(2 * n - 1, 30)
    vals = eigs(
        op, k=1, which="LR", v0=v0, ncv=ncv, tol=1e-10, maxiter=100 * n,
        return_eigenvectors=False, rng=np.random.default_rng(random_state),
    )
    return float(np.max(vals.real))
