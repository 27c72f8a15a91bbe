"""Partial symmetric eigensolvers over matrix-free operators (private).

Spectral clustering, kernel MDS and the Laplacian embedding need a few extreme eigenpairs of an
N × N symmetric matrix that is only available through products ``M @ V`` (a kernel operator,
possibly rescaled by degrees, centred or shifted). :func:`top_eigenpairs` computes them with
ARPACK (``scipy.sparse.linalg.eigsh``) seeded from ``random_state`` (the start vector ``v0``),
and with a dense ``eigh`` only when N is small. Signs are made deterministic the way
scikit-learn does it (:func:`sign_flip_columns`, as scikit-learn's private
``_deterministic_vector_sign_flip``: the entry of largest magnitude of every eigenvector is
positive).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import DTypeLike
from scipy import linalg
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh
from sklearn.utils import check_random_state

from ._parallel import limit_threads
from ._validation import FloatArray

#: problems up to this size are solved densely (``M @ I`` then ``eigh``): cheaper than ARPACK.
DENSE_MAX = 600

MatMat = Callable[[FloatArray], FloatArray]



def sign_flip_columns(V: FloatArray) -> FloatArray:
    """``V`` with every column's sign chosen so that its entry of largest magnitude is
    positive (the first such entry on ties): eigenvectors independent of the solver's sign.

    >>> sign_flip_columns(np.array([[1.0, -3.0], [-2.0, 1.0]]))
    array([[-1.,  3.],
           [ 2., -1.]])
    """
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    return V * signs[None, :]

#: eigen solvers of the graph methods ("auto": dense when small, else ARPACK with a dense or
#: LOBPCG fallback when ARPACK does not converge); :func:`top_eigenpairs` also takes
#: "randomized" (kernel MDS's, as ``KernelPCA``'s)
EIGEN_SOLVERS = ("auto", "arpack", "lobpcg", "dense")

#: largest n for which a failed ARPACK run falls back to a dense ``eigh`` (n² float64 = 512 MB);
#: beyond it the fallback is LOBPCG.
DENSE_FALLBACK_MAX = 8000

#: products M @ v an ARPACK run may take before it falls back (about 2,000 matrix passes)
ARPACK_MAX_PRODUCTS = 2000


def _dense_top(matmat: MatMat, n: int, k: int, dt: np.dtype) -> tuple[FloatArray, FloatArray]:
    # Small problems: one BLAS thread is 2-5x faster than a team on a busy machine
    # (measured 10.6 vs 24 ms for N = 200, 40 vs 174 ms for N = 600).
    with limit_threads(1 if n <= DENSE_MAX else None, "blas"):
        M = np.asarray(matmat(np.eye(n, dtype=dt)), dtype=np.float64)
        M = 0.5 * (M + M.T)
        return linalg.eigh(M, subset_by_index=[n - k, n - 1])


def _lobpcg_top(
    matmat: MatMat, n: int, k: int, dt: np.dtype, rng: np.random.RandomState, tol: float
) -> tuple[FloatArray, FloatArray]:
    from scipy.sparse.linalg import lobpcg

    A = LinearOperator((n, n), matvec=matmat, matmat=matmat, dtype=dt)
    X0 = rng.standard_normal((n, k)).astype(dt)
    with warnings.catch_warnings():
        # lobpcg warns when it stops at maxiter; the residual check below decides instead.
        warnings.simplefilter("ignore", UserWarning)
        w, V = lobpcg(A, X0, largest=True, tol=tol or None, maxiter=max(200, 20 * k))
    w = np.asarray(w, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    R = np.asarray(matmat(V.astype(dt)), dtype=np.float64) - V * w
    scale = max(float(np.max(np.abs(w))), np.finfo(np.float64).tiny)
    if float(np.max(np.linalg.norm(R, axis=0))) > 1e-4 * scale:
        raise ArpackNoConvergence("LOBPCG did not converge", w, V)
    return w, V


def top_eigenpairs(
    matmat: MatMat,
    n: int,
    k: int,
    *,
    dtype: DTypeLike = np.float64,
    random_state: Any = None,
    tol: float = 0.0,
    dense_max: int = DENSE_MAX,
    solver: str = "auto",
) -> tuple[FloatArray, FloatArray]:
    """The ``k`` largest (algebraic) eigenpairs of the symmetric matrix behind ``matmat``.

    Parameters
    ----------
    matmat : callable
        ``V -> M @ V`` for V of shape (n, m); M must be symmetric.
    n : int
        Size of M.
    k : int
        Number of eigenpairs, 1 ≤ k ≤ n.
    dtype : float32 or float64
        dtype of the products.
    random_state : int, RandomState or None
        Seeds ARPACK's (or LOBPCG's) start vectors.
    tol : float, default=0.0
        ARPACK's relative accuracy (0 means machine precision).
    dense_max : int
        Largest n solved densely by ``solver="auto"``.
    solver : {"auto", "arpack", "lobpcg", "dense", "randomized"}, default="auto"
        ``"auto"``: dense ``eigh`` up to ``dense_max``, else ARPACK; when ARPACK does not
        converge (tight clusters of eigenvalues near the top, as a normalised affinity with
        many nearly disconnected groups has; each run stops after ``ARPACK_MAX_PRODUCTS``
        products), a wider Krylov space is tried, then a dense
        ``eigh`` up to ``DENSE_FALLBACK_MAX`` points, then LOBPCG. A default run never stops
        on ARPACK alone. ``"arpack"`` / ``"lobpcg"`` / ``"dense"``: that solver only (dense
        when k ≥ n − 1, which ARPACK cannot do, and when LOBPCG's n ≤ 5 k);
        ``"randomized"``: randomized subspace iteration (:func:`_randomized_top`, for a
        positive semi-definite M; dense when k ≥ n − 1).

    Returns
    -------
    eigenvalues : ndarray of shape (k,), in decreasing order
    eigenvectors : ndarray of shape (n, k), orthonormal columns with deterministic signs

    Examples
    --------
    >>> M = np.diag([3.0, 1.0, 2.0])
    >>> w, V = top_eigenpairs(lambda V: M @ V, 3, 2, solver="lobpcg", random_state=0)
    >>> w.round(6), np.abs(V).round(6)
    (array([3., 2.]), array([[1., 0.],
           [0., 0.],
           [0., 1.]]))
    """
    if solver not in (*EIGEN_SOLVERS, "randomized"):
        raise ValueError(
            f"eigen_solver must be one of {[*EIGEN_SOLVERS, 'randomized']}; got {solver!r}."
        )
    dt = np.dtype(dtype)
    rng = check_random_state(random_state)
    if solver == "randomized" and k < n - 1:
        return _randomized_top(matmat, n, k, rng)
    if solver == "dense" or k >= n - 1 or (solver == "auto" and n <= dense_max):
        w, V = _dense_top(matmat, n, k, dt)
    elif solver == "lobpcg" and 5 * k < n:
        try:
            w, V = _lobpcg_top(matmat, n, k, dt, rng, tol)
        except ArpackNoConvergence as exc:
            raise RuntimeError(
                f"LOBPCG did not converge for the top {k} eigenpairs of a {n} × {n} operator; "
                "try eigen_solver='arpack' or 'dense'."
            ) from exc
    elif solver == "lobpcg":  # LOBPCG needs n >> k; scipy itself falls back to dense then
        w, V = _dense_top(matmat, n, k, dt)
    else:
        w, V = _arpack_top(matmat, n, k, dt, rng, tol, fallback=solver == "auto")
    w = np.asarray(w, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    V = sign_flip_columns(V)
    return w, np.ascontiguousarray(V)


def _randomized_top(
    matmat: MatMat,
    n: int,
    k: int,
    rng: np.random.RandomState,
    *,
    n_oversamples: int = 10,
    n_iter: int | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Top ``k`` eigenpairs of a symmetric positive semi-definite operator by randomized
    subspace iteration (Halko, Martinsson & Tropp 2011, Alg. 4.4 and 5.3): products only.

    ``n_iter`` power iterations (default as scikit-learn's ``randomized_svd``: 7 when
    k < 0.1 n, else 4), each followed by a QR; then the Rayleigh-Ritz step on the subspace.
    Eigenvalues decreasing; eigenvectors with deterministic signs.
    """
    m = min(n, k + n_oversamples)
    its = (7 if k < 0.1 * n else 4) if n_iter is None else n_iter
    Q = np.asarray(matmat(rng.normal(size=(n, m))), dtype=np.float64)
    Q = linalg.qr(Q, mode="economic")[0]
    for _ in range(its):
        Q = linalg.qr(np.asarray(matmat(Q), dtype=np.float64), mode="economic")[0]
    B = Q.T @ np.asarray(matmat(Q), dtype=np.float64)
    with limit_threads(1, "blas"):
        w, U = linalg.eigh(0.5 * (B + B.T))
    order = np.argsort(w)[::-1][:k]
    return w[order], np.ascontiguousarray(sign_flip_columns(Q @ U[:, order]))


def _arpack_top(
    matmat: MatMat,
    n: int,
    k: int,
    dt: np.dtype,
    rng: np.random.RandomState,
    tol: float,
    *,
    fallback: bool,
) -> tuple[FloatArray, FloatArray]:
    v0 = rng.uniform(-1.0, 1.0, n).astype(dt)
    # ARPACK draws restart vectors from ``rng``; unseeded, two runs differ in the last
    # digits, which can flip degenerate downstream decisions.
    arpack_rng = np.random.default_rng(rng.randint(2**31 - 1))
    A = LinearOperator((n, n), matvec=matmat, matmat=matmat, dtype=dt)
    # A wide Krylov space: kernel spectra near the top are tight (eigenvalues 1, 0.9993,
    # 0.994, ... for rings), and with ncv=80 ARPACK needs 2-3x fewer products than with
    # its default of 2k+1 (measured: 101 vs 319 products, 4,000 ring points).
    # Both runs have a bounded budget of products (ARPACK's default, 10 n restarts, ran
    # 543,411 iterations, 210 s, on a 9,000-point graph with a clustered top spectrum).
    ncv = min(n, max(2 * k + 1, 80))
    try:
        return eigsh(A, k=k, which="LA", v0=v0, tol=tol, ncv=ncv,
                     maxiter=max(1, ARPACK_MAX_PRODUCTS // (ncv - k)), rng=arpack_rng)
    except ArpackNoConvergence:
        pass
    # A wider Krylov space.
    ncv = min(n, max(4 * k + 1, 160))
    try:
        return eigsh(A, k=k, which="LA", v0=v0, tol=max(tol, 1e-10), ncv=ncv,
                     maxiter=max(1, ARPACK_MAX_PRODUCTS // (ncv - k)), rng=arpack_rng)
    except ArpackNoConvergence as exc:
        if not fallback:
            raise RuntimeError(
                f"ARPACK did not converge for the top {k} eigenpairs of a {n} × {n} "
                "operator; try eigen_solver='auto' (falls back to a dense or LOBPCG solve) "
                "or a larger eigen_tol."
            ) from exc
    if n <= DENSE_FALLBACK_MAX:
        return _dense_top(matmat, n, k, dt)
    try:
        return _lobpcg_top(matmat, n, k, dt, rng, tol)
    except ArpackNoConvergence as exc:
        raise RuntimeError(
            f"neither ARPACK nor LOBPCG converged for the top {k} eigenpairs of a {n} × {n} "
            "operator; try a larger eigen_tol or approximation='nystrom'."
        ) from exc


def ritz_extremes(
    matmat: MatMat,
    n: int,
    *,
    steps: int = 60,
    random_state: Any = None,
    dense_max: int = DENSE_MAX,
) -> tuple[float, float]:
    """Bounds on the extreme eigenvalues of a symmetric operator by a short Lanczos run.

    Returns the smallest and largest Ritz values of ``steps`` Lanczos steps (full
    reorthogonalisation): the smallest is ≥ λ_min and the largest ≤ λ_max, so a Ritz value
    below a threshold *proves* an eigenvalue below it. Exact (dense) for n ≤ ``dense_max``.
    A fixed budget, unlike ARPACK asked for the smallest eigenvalue of a kernel matrix, which
    crawls when many eigenvalues sit near 0 (an RBF kernel on 2,000 points: > 5 minutes).
    """
    if n <= dense_max:
        with limit_threads(1, "blas"):
            M = np.asarray(matmat(np.eye(n)), dtype=np.float64)
            w = linalg.eigvalsh(0.5 * (M + M.T))
        return float(w[0]), float(w[-1])
    rng = check_random_state(random_state)
    m = min(steps, n)
    Q = np.zeros((n, m))
    q = rng.uniform(-1.0, 1.0, n)
    q /= np.linalg.norm(q)
    alpha: list[float] = []
    beta: list[float] = []
    for j in range(m):
        Q[:, j] = q
        w = np.asarray(matmat(q[:, None]), dtype=np.float64)[:, 0]
        alpha.append(float(q @ w))
        w -= Q[:, : j + 1] @ (Q[:, : j + 1].T @ w)  # full reorthogonalisation
        w -= Q[:, : j + 1] @ (Q[:, : j + 1].T @ w)
        b = float(np.linalg.norm(w))
        if j == m - 1 or b <= 1e-12 * max(abs(a) for a in alpha):
            break
        beta.append(b)
        q = w / b
    T = np.diag(alpha) + np.diag(beta[: len(alpha) - 1], 1) + np.diag(beta[: len(alpha) - 1], -1)
    ritz = linalg.eigvalsh(T)
    return float(ritz[0]), float(ritz[-1])


def localise_degenerate(
    V: FloatArray, eigenvalues: FloatArray, rtol: float = 1e-6
) -> FloatArray:
    """Rotate each block of (numerically) equal eigenvalues to its most localised basis.

    Any orthonormal basis of a degenerate eigenspace is an eigenbasis, so an eigensolver returns
    an arbitrary rotation of it (e.g. the k indicator-like vectors of k disconnected clusters).
    Within every block of eigenvalues closer than ``rtol · max|λ|``, this picks the basis whose
    vectors are aligned with the rows chosen by a column-pivoted QR of the block (the
    rotation of Damle, Minden & Ying's ``cluster_qr``), then makes signs deterministic.
    Non-degenerate eigenvectors are returned unchanged.
    """
    V = np.array(V, dtype=np.float64, copy=True)
    lam = np.asarray(eigenvalues, dtype=np.float64)
    scale = max(float(np.max(np.abs(lam))), np.finfo(np.float64).tiny)
    start = 0
    k = lam.size
    while start < k:
        stop = start + 1
        while stop < k and abs(lam[stop] - lam[stop - 1]) <= rtol * scale:
            stop += 1
        if stop - start > 1:
            B = V[:, start:stop]
            piv = linalg.qr(B.T, pivoting=True, mode="r")[1][: stop - start]
            u, _, vt = linalg.svd(B[piv].T)
            Bq = B @ (u @ vt)
            V[:, start:stop] = sign_flip_columns(Bq)
        start = stop
    return V
