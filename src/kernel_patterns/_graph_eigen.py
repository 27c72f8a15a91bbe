"""Bottom eigenpairs of a sparse graph Laplacian, one connected component at a time (private).

Spectral clustering on the k-nearest-neighbour graph, the Laplacian embedding of a sparse
affinity and every other use of a sparse affinity A ≥ 0 need the bottom eigenpairs of
``L = D − A`` or of ``L_sym = I − D^-½ A D^-½`` (the top ones of ``D^-½ A D^-½``). Near the
bottom these spectra are clustered: a graph with c connected components has the eigenvalue 0
c times, and a long thin component has many eigenvalues within 1e-5 of 0, where Lanczos in its
regular mode needs hundreds of thousands of iterations. :func:`laplacian_bottom_eigenpairs`
therefore

1. splits the graph into its connected components (``connected_components``): L is block
   diagonal, each block has the eigenvalue 0 exactly once, with the known eigenvector 1 (for
   ``L``) or ``√d`` (for ``L_sym``) on it; when there are at least as many components as
   eigenpairs wanted, those vectors are the answer and nothing is solved;
2. solves each component for the eigenpairs it may contribute: densely when it is tiny,
   otherwise by shift-invert Lanczos (``eigsh(L + δI, sigma=-δ)``, one sparse LU, as
   scikit-learn's ``spectral_embedding``) when the LU is predicted cheap — the widest level of
   a breadth-first search bounds the fronts of the factorisation, counted in vertices of a
   10-neighbour graph (a denser graph of the same points has as many more on each level);
   2-D and 3-D graphs have narrow levels, graphs of high-dimensional data wide ones, and
   there the spectrum is not clustered and regular-mode Lanczos on the deflated operator
   converges quickly instead;
3. gives every iterative solver a bounded budget and falls back (Lanczos → shift-invert →
   LOBPCG, preconditioned by algebraic multigrid when pyamg is installed → dense) instead of
   iterating for minutes;
4. refines every component's answer by a Rayleigh–Ritz step orthogonal to the known null
   vector, so that all paths give the same eigenvalues to rounding, then merges the
   components' eigenvalues (components ordered by size, largest first; stable on ties) and
   makes the signs deterministic.

Each random start vector is drawn from ``random_state``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import numpy as np
from scipy import linalg, sparse
from scipy.sparse.csgraph import breadth_first_order, connected_components
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh, lobpcg, splu
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from ._eigen import DENSE_FALLBACK_MAX, sign_flip_columns
from ._parallel import limit_threads
from ._validation import FloatArray
from ._warnings import user_stacklevel

#: solvers of :func:`laplacian_bottom_eigenpairs`
GRAPH_SOLVERS = ("auto", "arpack", "lobpcg", "dense", "amg")

#: components up to this size are solved densely by ``"auto"`` (a sparse LU of a few hundred
#: vertices and a shift-invert run take about a millisecond; a dense ``eigh`` of 500 took
#: 30 ms to 1 s on a busy machine)
GRAPH_DENSE_MAX = 200

#: shift of the shift-invert mode, relative to the largest diagonal entry of the Laplacian
#: (scikit-learn's ``spectral_embedding`` uses -1e-5 on ``L_sym``)
SHIFT = 1e-5

#: widest breadth-first level up to which the sparse LU is tried first: its fronts stay
#: below that width (measured, 20,000-point 10-NN graphs: a ring 269 wide, LU 0.24 s; a 2-D
#: square 352, 0.31 s; a 3-D cube 1,179, 1.9 s; 5-D Gaussian data 3,584; 30-D 14,244, where
#: the LU runs for minutes)
LU_FIRST_WIDTH = 800
#: widest level for which a failed Lanczos run still tries the LU (5,000 points in 10-D:
#: width 2,234, LU 3.4 s) before LOBPCG
LU_MAX_WIDTH = 3000
#: neighbours per vertex of the graphs ``LU_FIRST_WIDTH`` was measured on (10-NN). A graph
#: of more neighbours has proportionally more vertices on each level of the same geometry,
#: so its width is compared in those units (:func:`_lu_first`)
LU_WIDTH_DEGREE = 10

#: restarts of regular-mode Lanczos before it gives way (each adds ``ncv − k`` products)
LANCZOS_MAXITER = 60
#: restarts of shift-invert Lanczos (it converges in a few)
SHIFT_INVERT_MAXITER = 300
#: iterations of LOBPCG
LOBPCG_MAXITER = 200
#: LOBPCG's residual target, relative to the largest diagonal entry of the Laplacian
LOBPCG_TOL = 1e-8


class _NoConvergence(RuntimeError):
    """A solver stopped on its budget, or its factorisation failed."""


def component_labels(A: Any) -> tuple[int, np.ndarray]:
    """Connected components of the graph of the non-zero entries of the symmetric ``A``,
    numbered by decreasing size (ties in order of the first vertex)."""
    n_comp, labels = connected_components(sparse.csr_array(A), directed=False)
    sizes = np.bincount(labels, minlength=n_comp)
    order = np.argsort(-sizes, kind="stable")
    rank = np.empty(n_comp, dtype=np.intp)
    rank[order] = np.arange(n_comp)
    return int(n_comp), rank[labels]


def laplacian_bottom_eigenpairs(
    A: Any,
    k: int,
    *,
    normed: bool,
    random_state: Any = None,
    tol: float = 0.0,
    solver: str = "auto",
) -> tuple[FloatArray, FloatArray, int]:
    """The ``k`` smallest eigenpairs of the Laplacian of a sparse non-negative affinity.

    Parameters
    ----------
    A : scipy.sparse array of shape (n, n)
        Symmetric, non-negative; with ``normed=True`` every vertex needs a positive degree.
    k : int
        Number of eigenpairs, 1 ≤ k ≤ n.
    normed : bool
        ``L_sym = I − D^-½ A D^-½`` (True) or ``L = D − A`` (False), D = diag(A 1).
    random_state : int, RandomState instance or None, default=None
        Seeds the start vectors.
    tol : float, default=0.0
        Relative accuracy of ARPACK (0: machine precision) and LOBPCG (0: its default).
    solver : {"auto", "arpack", "lobpcg", "dense", "amg"}, default="auto"
        Per component: ``"auto"`` as described in the module; ``"arpack"``: shift-invert
        Lanczos; ``"lobpcg"``: LOBPCG without a preconditioner; ``"amg"``: LOBPCG
        preconditioned by algebraic multigrid (pyamg); ``"dense"``: ``eigh``. Components too
        small for an iterative solver (fewer than 5 k vertices) are solved densely by all.

    Returns
    -------
    eigenvalues : ndarray of shape (k,)
        Increasing; exactly 0 for the component vectors.
    eigenvectors : ndarray of shape (n, k)
        Orthonormal, each supported on one component, with deterministic signs.
    n_components : int
        Connected components of the graph.
    """
    A = sparse.csr_array(A, dtype=np.float64)
    n = A.shape[0]
    degrees = np.asarray(A.sum(axis=1), dtype=np.float64).ravel()
    B = _laplacian(A, degrees, normed)
    null = np.sqrt(degrees) if normed else np.ones(n)
    n_comp, labels = component_labels(A)
    rng = check_random_state(random_state)
    per_component = 1 + max(k - n_comp, 0)  # its null vector and at most k − c others
    nulls = []
    for j in range(min(n_comp, k) if per_component == 1 else n_comp):
        idx = np.flatnonzero(labels == j)
        nulls.append((idx, null[idx] / np.linalg.norm(null[idx])))
    found: list[tuple[float, int, np.ndarray, FloatArray]] = []
    if per_component > 1:
        # One BLAS thread: ARPACK's small dense steps (n × ncv) ran 10-100x slower with a
        # thread team on a busy machine (0.18 s per eigenvector extraction at n = 500). Set
        # once for every component.
        with limit_threads(1, "blas"):
            for j, (idx, u) in enumerate(nulls):
                nb = min(idx.size, per_component)
                if nb > 1:
                    lam, V = _component_bottom(B[idx][:, idx], u, nb, solver, rng, tol)
                    found += [(float(lam[i]), j, idx, V[:, i]) for i in range(1, nb)]
    found.sort(key=lambda t: (t[0], t[1]))  # stable: equal eigenvalues in component order
    c = len(nulls)
    values = np.zeros(k)
    vectors = np.zeros((n, k))
    for j, (idx, u) in enumerate(nulls[:k]):
        vectors[idx, j] = u
    for i, (lam_i, _, idx, v) in enumerate(found[: k - c]):
        values[c + i] = max(lam_i, 0.0)
        vectors[idx, c + i] = v
    return values, sign_flip_columns(vectors), n_comp


def _laplacian(A: sparse.csr_array, degrees: FloatArray, normed: bool) -> sparse.csr_array:
    n = A.shape[0]
    if normed:
        s = sparse.diags_array(1.0 / np.sqrt(degrees))
        return sparse.csr_array(sparse.identity(n, format="csr") - s @ A @ s)
    return sparse.csr_array(sparse.diags_array(degrees) - A)


def _component_bottom(
    B: sparse.csr_array, u: FloatArray, nb: int, solver: str, rng: np.random.RandomState,
    tol: float,
) -> tuple[FloatArray, FloatArray]:
    """The ``nb`` smallest eigenpairs of one component's Laplacian ``B``, whose null vector
    ``u`` is known (the first pair: 0 and ``u``)."""
    m = B.shape[0]
    if solver == "dense" or 5 * nb >= m or (solver == "auto" and m <= GRAPH_DENSE_MAX):
        return _rayleigh_ritz(B, u, _dense(B, nb), nb)
    seed = int(rng.randint(2**31 - 1))
    shift_invert = partial(_shift_invert, B, nb, seed, tol)
    if solver != "auto":
        chosen = shift_invert if solver == "arpack" else partial(
            _lobpcg, B, u, nb, seed, tol, amg=solver == "amg")
        try:
            return _rayleigh_ritz(B, u, chosen(), nb)
        except _NoConvergence:
            warnings.warn(
                f"eigen_solver={solver!r} did not converge within its budget on a {m}-vertex "
                "component of the affinity graph; falling back to eigen_solver='auto'.",
                ConvergenceWarning,
                stacklevel=user_stacklevel(),
            )
    width = _widest_level(B)
    lanczos = partial(_lanczos, B, u, nb, seed, tol)
    attempts = [shift_invert, lanczos] if _lu_first(B, width) else (
        [lanczos, shift_invert] if width <= LU_MAX_WIDTH else [lanczos])
    attempts.append(partial(_lobpcg, B, u, nb, seed, tol, amg=None))
    if m <= DENSE_FALLBACK_MAX:
        attempts.append(partial(_dense, B, nb))
    for attempt in attempts:
        try:
            return _rayleigh_ritz(B, u, attempt(), nb)
        except _NoConvergence:
            continue
    raise RuntimeError(
        f"no eigensolver converged for the {nb} smallest eigenpairs of a {m}-vertex "
        "component of the affinity graph; try a larger eigen_tol or approximation='nystrom'."
    )


def _dense(B: sparse.csr_array, nb: int) -> FloatArray:
    return linalg.eigh(B.toarray(), subset_by_index=[0, nb - 1])[1]


def _widest_level(B: sparse.csr_array) -> int:
    """Most vertices at one hop distance from a far vertex (two breadth-first searches)."""
    order, pred = breadth_first_order(B, 0, directed=False)
    far = int(order[-1])
    order, pred = breadth_first_order(B, far, directed=False)
    level = np.zeros(B.shape[0], dtype=np.intp)
    for v in order[1:]:  # parents come before children in breadth-first order
        level[v] = level[pred[v]] + 1
    return int(np.bincount(level).max())


def _lu_first(B: sparse.csr_array, width: int) -> bool:
    """Whether the sparse LU of the component ``B`` (widest breadth-first level ``width``)
    is tried before regular-mode Lanczos.

    The width is compared with ``LU_FIRST_WIDTH`` in vertices of a 10-neighbour graph: a
    graph of d > ``LU_WIDTH_DEGREE`` neighbours per vertex counts ``width · 10 / d``. Its
    levels are as many hops across the same geometry, and their spectra as clustered: moons
    of 20,000 points with 100 neighbours are 1,141 vertices wide (LU 0.4 s, the shift-invert
    run 1 s), where Lanczos ran out of its budget first (6.8 s in all). ``LU_MAX_WIDTH``
    still bounds the fronts in vertices.
    """
    degree = max((B.nnz - B.shape[0]) / B.shape[0], LU_WIDTH_DEGREE)
    return width <= LU_MAX_WIDTH and width * LU_WIDTH_DEGREE / degree <= LU_FIRST_WIDTH


def _shift_invert(B: sparse.csr_array, nb: int, seed: int, tol: float) -> FloatArray:
    """Shift-invert Lanczos around ``-δ`` (one sparse LU of the positive definite
    ``B + δI``, symmetric ordering, no pivoting needed)."""
    m = B.shape[0]
    delta = SHIFT * max(float(B.diagonal().max()), np.finfo(np.float64).tiny)
    try:
        lu = splu(sparse.csc_matrix(B + delta * sparse.identity(m, format="csr")),
                  permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                  options={"SymmetricMode": True})
    except (RuntimeError, MemoryError) as exc:
        raise _NoConvergence("the sparse LU failed") from exc
    opinv = LinearOperator((m, m), matvec=lu.solve, dtype=np.float64)
    rng = np.random.RandomState(seed)
    try:
        _, V = eigsh(B, k=nb, sigma=-delta, which="LM", OPinv=opinv, tol=tol,
                     v0=rng.uniform(-1.0, 1.0, m), maxiter=SHIFT_INVERT_MAXITER,
                     rng=np.random.default_rng(seed))
    except ArpackNoConvergence as exc:
        raise _NoConvergence("shift-invert Lanczos stopped on its budget") from exc
    return V


def _lanczos(B: sparse.csr_array, u: FloatArray, nb: int, seed: int, tol: float) -> FloatArray:
    """Regular-mode Lanczos for the top of ``σI − B`` with ``u`` sent below the spectrum
    (σ ≥ λ_max(B) by Gershgorin), within a bounded budget."""
    m = B.shape[0]
    sigma = 2.0 * float(np.max(np.abs(B).sum(axis=1)))

    def matvec(x: FloatArray) -> FloatArray:
        x = np.asarray(x, dtype=np.float64).reshape(m, -1)
        ux = u @ x
        y = sigma * x - B @ x
        return y - 2.0 * sigma * np.outer(u, ux)

    op = LinearOperator((m, m), matvec=matvec, matmat=matvec, dtype=np.float64)
    rng = np.random.RandomState(seed)
    try:
        _, V = eigsh(op, k=nb - 1, which="LA", tol=tol, v0=rng.uniform(-1.0, 1.0, m),
                     ncv=min(m, max(2 * nb + 1, 40)), maxiter=LANCZOS_MAXITER,
                     rng=np.random.default_rng(seed))
    except ArpackNoConvergence as exc:
        raise _NoConvergence("Lanczos stopped on its budget") from exc
    return V


def _has_pyamg() -> bool:
    try:
        import pyamg  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def _global_generator_seeded(seed: int) -> Iterator[None]:
    """Run a block with NumPy's global generator seeded from ``seed``, then restore its state.

    pyamg draws the start vector of its spectral-radius estimate (Jacobi smoothing of the
    prolongator) from ``np.random``: without this the result followed the global generator
    instead of ``random_state`` (eigenvalues differing in the last bits) and advanced it."""
    state = np.random.get_state()  # noqa: NPY002 (the legacy global generator pyamg uses)
    np.random.seed(seed)  # noqa: NPY002
    try:
        yield
    finally:
        np.random.set_state(state)  # noqa: NPY002


def _lobpcg(
    B: sparse.csr_array, u: FloatArray, nb: int, seed: int, tol: float, *, amg: bool | None
) -> FloatArray:
    """LOBPCG for the smallest eigenpairs orthogonal to ``u`` (a constraint, not a guess),
    preconditioned by smoothed-aggregation multigrid on ``B + δI`` when ``amg`` (None: when
    pyamg is installed, asked only here: its import takes 20-30 ms, and the ``"auto"``
    fallback that reaches LOBPCG is rare)."""
    m = B.shape[0]
    M = None
    if amg is None:
        amg = _has_pyamg()
    if amg:
        try:
            from pyamg import smoothed_aggregation_solver
        except ImportError:  # pragma: no cover - pyamg is in the dev extra
            raise ImportError(
                "eigen_solver='amg' needs pyamg: pip install 'kernel_patterns[amg]'."
            ) from None
        delta = SHIFT * float(B.diagonal().max())
        shifted = sparse.csr_matrix(B + delta * sparse.identity(m, format="csr"))
        with _global_generator_seeded(seed):
            M = smoothed_aggregation_solver(shifted).aspreconditioner()
    X0 = np.random.RandomState(seed).standard_normal((m, nb - 1))
    scale = max(float(B.diagonal().max()), np.finfo(np.float64).tiny)
    # LOBPCG's own default (√eps · m) leaves eigenvalues near 0 with few correct digits
    target = (tol or LOBPCG_TOL) * scale
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the residual check below decides
        w, V = lobpcg(B, X0, M=M, Y=u[:, None], tol=target, largest=False,
                      maxiter=LOBPCG_MAXITER)
    V = np.asarray(V, dtype=np.float64)
    R = B @ V - V * np.asarray(w, dtype=np.float64)
    if float(np.max(np.linalg.norm(R, axis=0))) > 10.0 * target:
        raise _NoConvergence("LOBPCG stopped on its budget")
    return V


def _rayleigh_ritz(
    B: sparse.csr_array, u: FloatArray, V: FloatArray, nb: int
) -> tuple[FloatArray, FloatArray]:
    """``(0, u)`` and the ``nb − 1`` Ritz pairs of ``B`` on the span of V made orthogonal to
    ``u`` (V holds the solver's vectors, with or without ``u``): the same eigenvalues, to
    rounding, from every solver."""
    W = V - np.outer(u, u @ V)
    Q = linalg.svd(W, full_matrices=False)[0][:, : nb - 1]
    Q -= np.outer(u, u @ Q)  # once more against rounding
    H = Q.T @ (B @ Q)
    mu, R = linalg.eigh(0.5 * (H + H.T))
    return np.r_[0.0, mu], np.column_stack([u, Q @ R])
