"""Kernel operators: the one seam through which algorithms touch an N × N kernel matrix.

Algorithms ask an operator for ``K @ V`` (:meth:`KernelOperator.matmat`), the diagonal, row
blocks, the kernel between new points and the training points (:meth:`KernelOperator.cross`)
or, when they really need it, the full matrix. They never build K themselves, so the exact
(dense), memory-bounded (chunked), sparse and approximate variants share one code path.

* :class:`DenseKernelOperator` computes K once (float32 or float64), tile by tile over the
  upper triangle only (symmetry halves the ``exp`` work), both cores busy.
* :class:`ChunkedKernelOperator` recomputes row blocks on the fly under a memory budget and
  never holds N × N.
* :class:`SparseKernelOperator` wraps a sparse affinity (e.g. a k-nearest-neighbour graph)
  without densifying it.

The interface they implement, :class:`KernelOperator`, is in ``_operator_base.py``;
:func:`make_operator` below picks the operator (exact, Nyström, a kernel's own low-rank
operator, or the one an active backend such as ``distributed.dask_backend`` builds).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from scipy import sparse
from scipy.linalg import get_blas_funcs

from .._parallel import single_blas_thread, usable_threads
from .._progress import progress_bar
from .._validation import FloatArray
from ._base import Kernel, check_kernel_input
from ._context import operator_backend
from ._dot import Precomputed, check_square_kernel
from ._memory import MemoryBudgetError, check_dense_fits, default_memory_budget, dense_nbytes
from ._nystrom import DEFAULT_N_LANDMARKS, NystromKernelOperator
from ._operator_base import DEFAULT_BLOCK_MEMORY, KernelOperator, check_operand

OperatorKind = Literal["auto", "dense", "chunked"]
Approximation = Literal["exact", "nystrom"]
Landmarks = Literal["uniform", "kmeans++", "leverage"]

#: with ``dtype="auto"``, float64 up to this many samples and float32 beyond (at scale the
#: halved memory and doubled GEMM speed matter more than the last digits).
AUTO_FLOAT32_ABOVE = 20_000

def resolve_dtype(dtype: DTypeLike | str, n_samples: int) -> np.dtype[Any]:
    """The operator dtype: ``"auto"`` is float64 up to 20,000 samples, float32 beyond.

    Examples
    --------
    >>> from kernel_patterns.utils import resolve_dtype
    >>> resolve_dtype("auto", 100), resolve_dtype("auto", 50_000), resolve_dtype("float32", 5)
    (dtype('float64'), dtype('float32'), dtype('float32'))
    """
    if isinstance(dtype, str) and dtype == "auto":
        return np.dtype(np.float64 if n_samples <= AUTO_FLOAT32_ABOVE else np.float32)
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32, float64 or 'auto'; got {dt}.")
    return dt


_TILE = 512  # 512² tiles stay in cache: 2x faster fill than 2048² (benchmarks/bench_kernels.py)


class DenseKernelOperator(KernelOperator):
    """The kernel matrix held in memory (computed once).

    Build it with :func:`make_operator` or :meth:`from_kernel`; a user-given matrix is wrapped
    read-only, never modified.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF, DenseKernelOperator
    >>> op = DenseKernelOperator.from_kernel(RBF(gamma=0.5), np.zeros((3, 2)))
    >>> op.shape, op.matvec(np.ones(3))
    ((3, 3), array([3., 3., 3.]))
    """

    def __init__(
        self,
        K: FloatArray,
        kernel: Kernel | None = None,
        X: FloatArray | None = None,
    ) -> None:
        self.K = K
        self.n_samples = K.shape[0]
        self.dtype = K.dtype
        self.kernel = kernel
        self.X = X

    @classmethod
    def from_kernel(
        cls,
        kernel: Kernel,
        X: FloatArray,
        dtype: DTypeLike = np.float64,
        memory_budget: int | None = None,
        n_threads: int | None = None,
    ) -> DenseKernelOperator:
        """Compute ``K(X, X)`` once, tile by tile, under the memory guard."""
        dt = np.dtype(dtype)
        n = X.shape[0]
        check_dense_fits(n, n, dt, memory_budget)
        K = np.empty((n, n), dtype=dt)
        _fill_dense(kernel, X, K, n_threads or usable_threads())
        return cls(K, kernel=kernel, X=X)

    def matmat(self, V: ArrayLike) -> FloatArray:
        Va, vec = check_operand(V, self.n_samples, self.dtype)
        if sparse.issparse(Va):
            # sparse (k × n) times dense (n × n): one pass over K, which is symmetric
            return np.asarray(Va.T.tocsr() @ self.K).T
        out = self._symv(Va[:, 0])[:, None] if Va.shape[1] == 1 else self.K @ Va
        return out.ravel() if vec else out

    def _symv(self, v: FloatArray) -> FloatArray:
        """``K v`` by BLAS ``?symv``, which reads one triangle of K: K·v is memory-bound, so
        this halves the traffic (the user guide's Kernels and operators page has the timing)."""
        K = self.K
        # A C-ordered symmetric K is the same matrix in Fortran order as K.T (no copy).
        F = K.T if K.flags.c_contiguous else (K if K.flags.f_contiguous else None)
        if F is None:
            return K @ v
        symv = get_blas_funcs("symv", dtype=F.dtype)
        return np.asarray(symv(1.0, F, v))

    def min(self) -> float:
        return float(np.min(self.K))

    def diag(self) -> FloatArray:
        return self.K.diagonal().copy()

    def rows(self, start: int, stop: int) -> FloatArray:
        return self.K[start:stop]

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        return self.K[idx]

    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        return self.K


def _fill_dense(kernel: Kernel, X: FloatArray, K: FloatArray, n_threads: int) -> None:
    """Fill ``K = kernel(X, X)`` over upper-triangular tiles, mirrored, in ``n_threads`` threads.

    Each thread computes whole tiles (GEMM + elementwise profile) with BLAS limited to one
    thread, so the ``exp`` work, which BLAS does not parallelise, uses every core too.
    """
    n = X.shape[0]
    prepared = kernel.prepare(X.astype(K.dtype, copy=False))
    tiles = [(a, b) for a in range(0, n, _TILE) for b in range(a, n, _TILE)]

    def work(tile: tuple[int, int]) -> None:
        a, b = tile
        a1, b1 = min(a + _TILE, n), min(b + _TILE, n)
        block = kernel.block(prepared, a, a1, slice(b, b1))
        K[a:a1, b:b1] = block
        if a != b:
            K[b:b1, a:a1] = block.T

    with progress_bar(len(tiles), "kernel matrix") as bar:

        def step(tile: tuple[int, int]) -> None:
            work(tile)
            bar.update(1)

        if n_threads == 1 or len(tiles) == 1:
            for t in tiles:
                step(t)
        else:
            with single_blas_thread(), ThreadPoolExecutor(n_threads) as pool:
                list(pool.map(step, tiles))
    noise = kernel.diagonal_noise()
    if noise:
        K[np.diag_indices(n)] += noise


class ChunkedKernelOperator(KernelOperator):
    """Row blocks of K computed on the fly, never N × N at once.

    Parameters
    ----------
    kernel : Kernel
    X : ndarray of shape (n_samples, n_features)
    dtype : float32 or float64
    block_memory : int, default=256 MB
        Bytes of kernel rows held at once, all threads together.
    n_threads : int, default=number of usable cores

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF, ChunkedKernelOperator, DenseKernelOperator
    >>> X = np.random.RandomState(0).normal(size=(50, 2))
    >>> chunked = ChunkedKernelOperator(RBF(gamma=0.5), X, block_memory=4_000)
    >>> dense = DenseKernelOperator.from_kernel(RBF(gamma=0.5), X)
    >>> bool(np.allclose(chunked.matmat(np.ones((50, 2))), dense.matmat(np.ones((50, 2)))))
    True
    """

    def __init__(
        self,
        kernel: Kernel,
        X: FloatArray,
        dtype: DTypeLike = np.float64,
        block_memory: int | None = None,
        n_threads: int | None = None,
    ) -> None:
        self.kernel = kernel
        self.X = X
        self.dtype = np.dtype(dtype)
        self.n_samples = X.shape[0]
        self.block_memory = int(block_memory or DEFAULT_BLOCK_MEMORY)
        self.n_threads = n_threads or usable_threads()
        self._prepared = kernel.prepare(X.astype(self.dtype, copy=False))
        self._noise = kernel.diagonal_noise()
        self._diag = kernel.pairwise_diag(X).astype(self.dtype)

    def _default_block_rows(self) -> int:
        # Two block-sized arrays per thread (the block and the GEMM temporary).
        per_row = self.n_samples * self.dtype.itemsize * 2 * self.n_threads
        return int(max(1, min(self.n_samples, self.block_memory // per_row)))

    def rows(self, start: int, stop: int) -> FloatArray:
        block = self.kernel.block(self._prepared, start, stop)  # type: ignore[union-attr]
        if self._noise:
            i = np.arange(start, stop)
            block[i - start, i] += self._noise
        return block

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        Xi = self.X[idx].astype(self.dtype, copy=False)  # type: ignore[index]
        out = self.kernel.pairwise(Xi, self.X.astype(self.dtype, copy=False))  # type: ignore[union-attr]
        if self._noise:
            out[np.arange(idx.size), idx] += self._noise
        return out

    def matmat(self, V: ArrayLike) -> FloatArray:
        Va, vec = check_operand(V, self.n_samples, self.dtype)
        out = np.empty((self.n_samples, Va.shape[1]), dtype=self.dtype)
        b = self._default_block_rows()
        starts = list(range(0, self.n_samples, b))

        Vt = Va.T.tocsr() if sparse.issparse(Va) else None

        def work(a: int) -> None:
            stop = min(a + b, self.n_samples)
            block = self.rows(a, stop)
            out[a:stop] = block @ Va if Vt is None else np.asarray(Vt @ block.T).T

        if self.n_threads == 1 or len(starts) == 1:
            for a in starts:
                work(a)
        else:
            with single_blas_thread(), ThreadPoolExecutor(self.n_threads) as pool:
                list(pool.map(work, starts))
        return out.ravel() if vec else out

    def diag(self) -> FloatArray:
        return self._diag.copy()

    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        check_dense_fits(self.n_samples, self.n_samples, self.dtype, memory_budget)
        K = np.empty((self.n_samples, self.n_samples), dtype=self.dtype)
        _fill_dense(self.kernel, self.X, K, self.n_threads)  # type: ignore[arg-type]
        return K


class SparseKernelOperator(KernelOperator):
    """A sparse symmetric affinity (e.g. a k-nearest-neighbour graph), never densified.

    ``to_dense`` is available under the memory guard for small problems and tests.

    Parameters
    ----------
    A : scipy.sparse matrix or array of shape (n_samples, n_samples)
        The symmetric affinity (finite values).
    dtype : numpy dtype, default=float64
        Precision of the stored affinity.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import sparse
    >>> from kernel_patterns.kernels import SparseKernelOperator
    >>> A = sparse.csr_array(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0], [0.0, 2.0, 0.0]]))
    >>> SparseKernelOperator(A).matvec(np.ones(3))
    array([1., 3., 2.])
    """

    def __init__(self, A: sparse.spmatrix | sparse.sparray, dtype: DTypeLike = np.float64) -> None:
        M = sparse.csr_array(A, dtype=np.dtype(dtype))
        if M.shape[0] != M.shape[1]:
            raise ValueError(f"the sparse affinity must be square; got shape {M.shape}.")
        if not np.all(np.isfinite(M.data)):
            raise ValueError("the sparse affinity contains NaN or infinite values.")
        self.A = M
        self.n_samples = M.shape[0]
        self.dtype = M.dtype
        self.kernel = None
        self.X = None

    def matmat(self, V: ArrayLike) -> FloatArray:
        Va, vec = check_operand(V, self.n_samples, self.dtype)
        prod = self.A @ Va
        out = prod.toarray() if sparse.issparse(prod) else np.asarray(prod)
        return out.ravel() if vec else out

    def min(self) -> float:
        """The smallest entry, counting the implicit zeros of a not-full matrix."""
        if self.A.nnz == 0:
            return 0.0
        low = float(np.min(self.A.data))
        return low if self.A.nnz == self.n_samples**2 else min(low, 0.0)

    def diag(self) -> FloatArray:
        return np.asarray(self.A.diagonal())

    def rows(self, start: int, stop: int) -> FloatArray:
        return self.A[start:stop].toarray()

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        return self.A[idx].toarray()

    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        check_dense_fits(self.n_samples, self.n_samples, self.dtype, memory_budget)
        return self.A.toarray()


def make_operator(
    kernel: Kernel,
    X: ArrayLike,
    *,
    operator: OperatorKind = "auto",
    dtype: DTypeLike = np.float64,
    memory_budget: int | None = None,
    block_memory: int | None = None,
    check_psd: bool = False,
    approximation: Approximation = "exact",
    n_components: int | None = None,
    landmarks: Landmarks = "uniform",
    rank: int | None = None,
    random_state: Any = None,
) -> KernelOperator:
    """Build the kernel operator an algorithm will use.

    Parameters
    ----------
    kernel : Kernel
        A kernel object (see :func:`kernel_patterns.kernels.make_kernel`); with
        :class:`Precomputed`, ``X`` is the square kernel matrix itself (dense or sparse).
    X : array-like of shape (n_samples, n_features)
    operator : {"auto", "dense", "chunked"}, default="auto"
        ``"dense"`` computes K once (error when it exceeds ``memory_budget``); ``"chunked"``
        recomputes row blocks under ``block_memory``; ``"auto"`` is dense when it fits.
    dtype : float32, float64 or "auto", default=float64
        ``"auto"`` is float64 up to 20,000 samples and float32 beyond.
    memory_budget : int, default=half the available memory
        Ceiling in bytes for one dense N × N matrix.
    block_memory : int, default=256 MB
        Bytes of rows a chunked operator holds at once.
    check_psd : bool, default=False
        For a precomputed kernel, also reject matrices that are not PSD.
    approximation : {"exact", "nystrom"}, default="exact"
        ``"nystrom"`` returns a :class:`NystromKernelOperator` (``K ≈ F Fᵀ`` from
        ``n_components`` landmarks; memory O(N m), never N²); ``operator`` is then ignored.
    n_components : int, default=None
        Nyström landmarks ``m`` (default ``min(300, n_samples)``); only with
        ``approximation="nystrom"``.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    rank : int, default=None
        Keep the top ``rank`` eigenpairs of the landmark block (rank-restricted Nyström).
    random_state : int, RandomState or None
        Seeds the landmark choice.

    Notes
    -----
    A kernel that is low-rank by construction (``GeodesicKernel(approximation="landmark")``)
    returns its own low-rank operator when ``approximation="exact"``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF, make_operator
    >>> X = np.random.default_rng(0).normal(size=(500, 3))
    >>> dense = make_operator(RBF(0.5), X, operator="dense")
    >>> chunked = make_operator(RBF(0.5), X, operator="chunked", block_memory=100_000)
    >>> V = np.ones((500, 2))
    >>> bool(np.allclose(dense.matmat(V), chunked.matmat(V)))
    True
    """
    if operator not in ("auto", "dense", "chunked"):
        raise ValueError(f"operator must be 'auto', 'dense' or 'chunked'; got {operator!r}.")
    if approximation not in ("exact", "nystrom"):
        raise ValueError(
            f"approximation must be 'exact' or 'nystrom'; got {approximation!r}."
        )
    if kernel.needs_data_scale():
        # data-driven widths (RBF(gamma="scale")) come from the training points, here, once
        kernel = kernel.with_data_scale(check_kernel_input(kernel, X))
    backend = operator_backend()
    op: KernelOperator | None
    if backend is not None and not isinstance(kernel, Precomputed):
        op = backend(
            kernel, X, operator=operator, dtype=dtype, memory_budget=memory_budget,
            approximation=approximation, n_components=n_components, landmarks=landmarks,
            rank=rank, random_state=random_state,
        )
        if op is not None:
            return op

    n_rows = X.shape[0] if hasattr(X, "shape") else len(X)  # type: ignore[arg-type]
    dt = resolve_dtype(dtype, int(n_rows))
    # A kernel that is itself low-rank (GeodesicKernel(approximation="landmark")) offers its
    # own operator, K = F Fᵀ, never N × N; ``operator`` and the memory guard do not apply.
    if approximation == "exact":
        op = kernel.low_rank_operator(X, dt)
        if op is not None:
            return op
    if approximation == "nystrom":
        if isinstance(kernel, Precomputed):
            raise ValueError(
                "approximation='nystrom' needs a kernel function, not a precomputed matrix."
            )
        if kernel.data_dependent:
            # a data-dependent kernel evaluated against landmark points would refit on them
            raise ValueError(
                f"approximation='nystrom' needs a fixed kernel function; {type(kernel).__name__}"
                " depends on the training data as a whole (use "
                "GeodesicKernel(approximation='landmark') for a low-rank geodesic kernel)."
            )
        Xn = check_kernel_input(kernel, X)
        m = min(DEFAULT_N_LANDMARKS, Xn.shape[0]) if n_components is None else n_components
        return NystromKernelOperator(
            kernel, Xn, m, rank=rank, landmarks=landmarks, dtype=dt, random_state=random_state
        )
    if isinstance(kernel, Precomputed):
        if sparse.issparse(X):
            return SparseKernelOperator(X, dtype=dt)
        K = check_square_kernel(X, "the precomputed kernel", check_psd=check_psd)
        if K.dtype != dt:
            K = K.astype(dt)
        elif K is X:
            K = K.view()
        K.flags.writeable = False  # the user's matrix is never modified
        return DenseKernelOperator(K)
    Xv = check_kernel_input(kernel, X)
    budget = default_memory_budget() if memory_budget is None else int(memory_budget)
    if operator == "chunked" or (
        operator == "auto" and dense_nbytes(Xv.shape[0], Xv.shape[0], dt) > budget
    ):
        return ChunkedKernelOperator(kernel, Xv, dtype=dt, block_memory=block_memory)
    return DenseKernelOperator.from_kernel(kernel, Xv, dtype=dt, memory_budget=budget)


__all__ = [
    "ChunkedKernelOperator",
    "DenseKernelOperator",
    "KernelOperator",
    "MemoryBudgetError",
    "SparseKernelOperator",
    "make_operator",
    "resolve_dtype",
]
