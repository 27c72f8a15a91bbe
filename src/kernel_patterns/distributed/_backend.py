"""``with dask_backend(client):``: the same estimators, their kernel operators on Dask.

The context manager sets this package's active backend (so the drivers find the client) and,
through :func:`kernel_patterns.kernels.use_operator_backend`, the operator factory
:func:`make_operator` consults. While it is active, every exact operator an estimator asks
for (a fixed kernel function: not a precomputed matrix, not a data-dependent kernel such as
the geodesic one) is a :class:`DaskKernelOperator` with its row blocks on the workers, and
``approximation="nystrom"`` computes the Nyström features on the workers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._validation import check_matrix
from ..kernels import Kernel, KernelOperator, use_operator_backend
from ..utils import resolve_dtype
from ._client import (
    ACTIVE_BACKEND,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    DaskBackend,
    check_client,
)
from ._operator import DaskKernelOperator, resident_fits


def _operator_on(backend: DaskBackend) -> Any:
    """The ``make_operator`` hook for ``backend``: a Dask operator, or None (build locally)."""

    def build(
        kernel: Kernel,
        X: Any,
        *,
        operator: str,
        dtype: Any,
        memory_budget: int | None,
        approximation: str,
        n_components: int | None,
        landmarks: str,
        rank: int | None,
        random_state: Any,
    ) -> KernelOperator | None:
        if kernel.data_dependent or type(kernel).low_rank_operator is not Kernel.low_rank_operator:
            # data-dependent kernels (GeodesicKernel) and kernels that are low-rank by
            # construction follow make_operator's own rules, locally
            return None
        Xv = check_matrix(X, "X")
        dt = resolve_dtype(dtype, Xv.shape[0])
        if approximation == "nystrom":
            from ._nystrom import DaskNystromOperator

            return DaskNystromOperator(
                kernel, Xv, n_components, rank=rank, landmarks=landmarks, dtype=dt,
                random_state=random_state, client=backend.client, n_blocks=backend.n_blocks,
            )
        if operator == "chunked":
            resident: bool | str = False
        elif operator == "dense":
            resident_fits(backend.client, Xv.shape[0], dt)
            resident = True
        else:
            resident = backend.resident
        return DaskKernelOperator(
            kernel, Xv, backend.client, dtype=dt, resident=resident, n_blocks=backend.n_blocks
        )

    return build


@contextmanager
def dask_backend(
    client: Any,
    *,
    resident: bool | str = "auto",
    n_blocks: int | None = None,
    max_retries: int = DEFAULT_MAX_RETRIES,
    timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[Any]:
    """Run the estimators' kernel operators on a Dask cluster inside a ``with`` block.

    Parameters
    ----------
    client : distributed.Client
        A running client.
    resident : bool or "auto", default="auto"
        For ``operator="auto"``: keep the row blocks of K on the workers (True), recompute
        them for every product (False), or keep them when K fits in half the workers' memory
        ("auto"). ``operator="dense"`` always keeps them (``MemoryBudgetError`` when they do
        not fit) and ``operator="chunked"`` never does.
    n_blocks : int, default=None
        Row blocks per operator (default: one per worker thread at least, ≤ 256 MB each).
    max_retries : int, default=3
        A worker that dies costs time, not the result: what it held is recomputed from its
        lineage, and a task the scheduler gives up on is re-submitted, at most
        ``max_retries`` times per task; beyond, :class:`WorkerLostError` names the lost
        workers. Applies to every distributed call inside the block.
    timeout : float, default=60
        Seconds without a connection to the scheduler before :class:`SchedulerLostError`
        (the run stops with a clear error instead of waiting for ever).

    Yields
    ------
    client

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns import KernelKMeans
    >>> from kernel_patterns.datasets import make_rings
    >>> from kernel_patterns.distributed import dask_backend
    >>> X, y = make_rings(radii=(0.3, 2.0), random_state=0)
    >>> local = KernelKMeans(2, kernel_params={"gamma": 1.0}, random_state=0).fit(X)
    >>> with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, \\
    ...         Client(cluster) as client, dask_backend(client):
    ...     km = KernelKMeans(2, kernel_params={"gamma": 1.0}, random_state=0).fit(X)
    >>> bool((km.labels_ == local.labels_).all())
    True
    """
    client = check_client(client)
    if resident not in (True, False, "auto"):
        raise ValueError(f"resident must be True, False or 'auto'; got {resident!r}.")
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be an integer >= 0; got {max_retries!r}.")
    if not (isinstance(timeout, (int, float)) and timeout > 0):
        raise ValueError(f"timeout must be a number of seconds > 0; got {timeout!r}.")
    backend = DaskBackend(client=client, resident=resident, n_blocks=n_blocks,
                          max_retries=max_retries, timeout=float(timeout))
    token = ACTIVE_BACKEND.set(backend)
    try:
        with use_operator_backend(_operator_on(backend)):
            yield client
    finally:
        ACTIVE_BACKEND.reset(token)
