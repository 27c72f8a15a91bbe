"""A kernel operator whose row blocks of K live on Dask workers.

``K`` is split into row blocks ``K[a:b, :]``; each block is computed on a worker from the
training points (sent once as a task with lineage) and, when *resident*, kept there as a
Dask future. A product ``K @ V`` then ships only ``V`` (for kernel k-means: the sparse N × k
one-hot assignment matrix, N entries) to the workers and gathers the N × k result, block by
block: ``concat_a (K[a:b, :] @ V)``. Nothing of size N × N ever crosses the network, and the
solver (``cluster/_kernel_kmeans._lloyd_kernel_kmeans_runs``), which talks to operators only,
runs unchanged.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from scipy import sparse

from .._validation import FloatArray, check_matrix
from ..kernels import (
    DEFAULT_BLOCK_MEMORY,
    Kernel,
    KernelOperator,
    MemoryBudgetError,
    Precomputed,
    check_dense_fits,
)
from ..utils import check_operand, dense_nbytes
from ._client import check_client, worker_memory, worker_threads
from ._resilience import Shared, gather


# ------------------------------------------------------------------- worker-side functions
def _kernel_rows(
    kernel: Kernel, X: FloatArray, start: int, stop: int, noise: float
) -> FloatArray:
    """``K[start:stop, :]`` on a worker (X already in the operator's dtype)."""
    block = np.asarray(kernel.block(kernel.prepare(X), start, stop))
    if noise:
        i = np.arange(start, stop)
        block[i - start, i] += noise
    return block


def _block_matmat(block: FloatArray, V: Any) -> FloatArray:
    """``block @ V`` for a dense V or a CSR V (then ``(Vᵀ blockᵀ)ᵀ``, one pass over block)."""
    if sparse.issparse(V):
        return np.asarray(V.T.tocsr() @ block.T).T
    return block @ V


def _block_columns(block: FloatArray, idx: np.ndarray) -> FloatArray:
    return np.ascontiguousarray(block[:, idx])


def _block_slice(block: FloatArray, start: int, stop: int) -> FloatArray:
    return np.array(block[start:stop])


def _block_min(block: FloatArray) -> float:
    return float(np.min(block))


def _ready(block: FloatArray) -> bool:
    return True


# ------------------------------------------------------------------------- the operator
class DaskKernelOperator(KernelOperator):
    """Exact kernel operator with the row blocks of K computed (and kept) on Dask workers.

    Same interface as the local operators (``matmat`` with a dense or scipy.sparse ``V``,
    ``matvec``, ``diag``, ``rows``, ``take_rows``, ``cross``, ``to_dense`` ...), so every
    solver that talks to an operator runs on a cluster unchanged.

    Parameters
    ----------
    kernel : Kernel
        A kernel function (not ``Precomputed``).
    X : array-like of shape (n_samples, n_features)
        Training points; sent once as a task, so a worker that dies loses nothing that
        cannot be recomputed (never modified).
    client : distributed.Client, default=None
        The cluster; None uses the client of the active
        :func:`~kernel_patterns.distributed.dask_backend`.
    dtype : float32 or float64, default=float64
    resident : bool or "auto", default="auto"
        True: each row block ``K[a:b, :]`` is computed once and kept in the workers' memory
        (persisted futures), and every product only moves ``V`` and ``K @ V``. False: blocks
        are recomputed for every product and dropped (memory O(block) per worker, the
        distributed counterpart of the chunked operator). "auto": resident when K fits in
        half the workers' total memory limit.
    n_blocks : int, default=None
        Row blocks (default: at least one per worker thread, and blocks of at most 256 MB).

    Attributes
    ----------
    blocks : list of (start, stop)
        The row ranges of the blocks.
    resident : bool
        Whether the blocks are kept on the workers.

    Examples
    --------
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.kernels import RBF, make_operator
    >>> from kernel_patterns.distributed import DaskKernelOperator
    >>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
    ...                        dashboard_address=":0")
    >>> client = Client(cluster)
    >>> X = np.random.default_rng(0).normal(size=(300, 2))
    >>> op = DaskKernelOperator(RBF(0.5), X, client=client)
    >>> V = np.random.default_rng(1).normal(size=(300, 3))
    >>> bool(np.allclose(op.matmat(V), make_operator(RBF(0.5), X).matmat(V)))
    True
    >>> client.close(); cluster.close()
    """

    def __init__(
        self,
        kernel: Kernel,
        X: ArrayLike,
        client: Any = None,
        *,
        dtype: DTypeLike = np.float64,
        resident: bool | str = "auto",
        n_blocks: int | None = None,
    ) -> None:
        if isinstance(kernel, Precomputed):
            raise ValueError(
                "DaskKernelOperator needs a kernel function, not a precomputed matrix."
            )
        if not isinstance(kernel, Kernel):
            raise TypeError(f"kernel must be a Kernel object; got {type(kernel).__name__}.")
        if resident not in (True, False, "auto"):
            raise ValueError(f"resident must be True, False or 'auto'; got {resident!r}.")
        self.client = check_client(client)
        Xv = check_matrix(X, "X")
        self.kernel = kernel
        self.X = Xv
        self.n_samples = n = Xv.shape[0]
        self.dtype = np.dtype(dtype)
        if self.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"dtype must be float32 or float64; got {self.dtype}.")
        threads = worker_threads(self.client)
        self._workers = list(threads)
        nbytes = dense_nbytes(n, n, self.dtype)
        if resident == "auto":
            limit = worker_memory(self.client)
            resident = limit is None or nbytes <= limit // 2
        self.resident = bool(resident)
        if n_blocks is None:
            n_blocks = max(sum(threads.values()), -(-nbytes // DEFAULT_BLOCK_MEMORY))
        if isinstance(n_blocks, bool) or not isinstance(n_blocks, (int, np.integer)):
            raise TypeError(f"n_blocks must be an integer; got {n_blocks!r}.")
        if n_blocks < 1:
            raise ValueError(f"n_blocks must be >= 1; got {n_blocks}.")
        edges = np.linspace(0, n, min(int(n_blocks), n) + 1).round().astype(int)
        self.blocks = [(int(a), int(b)) for a, b in itertools.pairwise(edges)]
        self._noise = float(kernel.diagonal_noise())
        self._diag = np.asarray(kernel.pairwise_diag(Xv), dtype=self.dtype)
        self._X_shared: Shared | None = None
        self._block_futures: list[Shared] | None = None

    @property
    def _X_future(self) -> Any:
        """The training points as a task with lineage (sent on first use: an operator built
        only for ``cross`` or ``diag`` never touches the cluster; recomputed on another
        worker if the one holding them dies)."""
        if self._X_shared is None:
            X = self.X.astype(self.dtype, copy=False)  # type: ignore[union-attr]
            self._X_shared = Shared(self.client, X)
        return self._X_shared.future()

    # -- the resident blocks -------------------------------------------------------------
    def _resident_blocks(self) -> list[Shared]:
        """The row blocks (round-robin placed), each rebuilt from X when it was lost."""
        if self._block_futures is None:
            self.client = check_client(self.client)
            self._block_futures = [self._block(i, a, b) for i, (a, b) in enumerate(self.blocks)]
        return self._block_futures

    def _block(self, i: int, a: int, b: int) -> Shared:
        client = self.client

        def make() -> Any:
            return client.submit(
                _kernel_rows, self.kernel, self._X_future, a, b, self._noise,
                workers=[self._workers[i % len(self._workers)]],
                allow_other_workers=True, pure=False,
            )

        return Shared(client, make=make)

    def persist(self) -> DaskKernelOperator:
        """Compute the resident blocks now (otherwise at the first product) and wait."""
        blocks = self._resident_blocks()
        gather(self.client, len(blocks), lambda i: self.client.submit(
            _ready, blocks[i].future(), pure=False), what="computing the kernel blocks")
        return self

    def release(self) -> None:
        """Drop the resident blocks and the training points from the workers."""
        shared = [*(self._block_futures or []), self._X_shared]
        self._block_futures = None
        self._X_shared = None
        for s in shared:
            if s is not None:
                s.release()

    def _map_blocks(self, func: Any, *args: Any) -> list[Any]:
        """``func(block, *args)`` on every row block, where the block lives; gathered. A
        :class:`Shared` argument is passed as its current future."""
        client = check_client(self.client)

        def resolved() -> list[Any]:
            return [a.future() if isinstance(a, Shared) else a for a in args]

        if self.resident:
            blocks = self._resident_blocks()

            def submit(i: int) -> Any:
                return client.submit(func, blocks[i].future(), *resolved(), pure=False)
        else:
            def submit(i: int) -> Any:
                a, b = self.blocks[i]
                return client.submit(
                    _apply_to_rows, func, self.kernel, self._X_future, a, b, self._noise,
                    *resolved(), pure=False,
                )

        return gather(client, len(self.blocks), submit, what=f"{func.__name__} on K's blocks")

    # -- products ------------------------------------------------------------------------
    def matmat(self, V: ArrayLike) -> FloatArray:
        Va, vec = check_operand(V, self.n_samples, self.dtype)
        V_shared = Shared(check_client(self.client), Va)  # lineage: survives its worker
        try:
            parts = self._map_blocks(_block_matmat, V_shared)
        finally:
            V_shared.release()
        out = np.concatenate([np.asarray(p, dtype=self.dtype) for p in parts], axis=0)
        return out.ravel() if vec else out

    def min(self) -> float:
        return min(self._map_blocks(_block_min))

    # -- entries -------------------------------------------------------------------------
    def diag(self) -> FloatArray:
        return self._diag.copy()

    def rows(self, start: int, stop: int) -> FloatArray:
        start, stop = max(0, int(start)), min(self.n_samples, int(stop))
        client = check_client(self.client)
        parts = []
        for i, (a, b) in enumerate(self.blocks):
            lo, hi = max(a, start), min(b, stop)
            if lo < hi:
                parts.append((i, lo, hi))
        if not parts:
            return np.empty((0, self.n_samples), dtype=self.dtype)

        def submit(j: int) -> Any:
            i, lo, hi = parts[j]
            if self.resident:
                a = self.blocks[i][0]
                blk = self._resident_blocks()[i].future()
                return client.submit(_block_slice, blk, lo - a, hi - a, pure=False)
            return client.submit(
                _kernel_rows, self.kernel, self._X_future, lo, hi, self._noise, pure=False
            )

        return np.concatenate(gather(client, len(parts), submit, what="rows of K"), axis=0)

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        # K is symmetric: K[idx, :] = (K[:, idx])ᵀ, gathered as the columns idx of every block
        # (moves len(idx) × N numbers, never a block)
        if idx.size and (idx.min() < -self.n_samples or idx.max() >= self.n_samples):
            raise IndexError(f"row indices out of range for {self.n_samples} samples.")
        idx = np.where(idx < 0, idx + self.n_samples, idx)
        cols = np.concatenate(self._map_blocks(_block_columns, idx), axis=0)
        return np.ascontiguousarray(cols.T)

    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        check_dense_fits(self.n_samples, self.n_samples, self.dtype, memory_budget)
        return self.rows(0, self.n_samples)


def _apply_to_rows(
    func: Any, kernel: Kernel, X: FloatArray, start: int, stop: int, noise: float, *args: Any
) -> Any:
    return func(_kernel_rows(kernel, X, start, stop, noise), *args)


def resident_fits(client: Any, n_samples: int, dtype: DTypeLike) -> None:
    """Raise :class:`MemoryBudgetError` when K cannot be resident on the workers."""
    limit = worker_memory(client)
    need = dense_nbytes(n_samples, n_samples, np.dtype(dtype))
    if limit is not None and need > limit // 2:
        raise MemoryBudgetError(
            f"the {n_samples} × {n_samples} kernel matrix ({need / 1e9:.1f} GB) does not fit in "
            f"half the Dask workers' memory ({limit / 1e9:.1f} GB in all); use "
            "approximation='nystrom' (kernel_patterns.distributed.nystrom_kmeans), "
            "operator='chunked' (blocks recomputed on the workers), or add workers."
        )
