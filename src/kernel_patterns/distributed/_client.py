"""Lazy Dask imports, the active backend (a context variable) and client checks.

Nothing here imports Dask at module import time: ``import kernel_patterns.distributed`` works
without the extra, and the first call that needs Dask raises an :class:`ImportError` naming
``pip install 'kernel_patterns[distributed]'`` (:func:`kernel_patterns._optional.import_optional`).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .._optional import import_optional, install_hint

#: the command that installs the optional Dask dependencies (quoted in every ImportError).
INSTALL_HINT = install_hint("distributed")
#: re-submissions of a lost task, and seconds without a scheduler (``dask_backend`` defaults).
DEFAULT_MAX_RETRIES = 3
DEFAULT_TIMEOUT = 60.0


def import_distributed() -> ModuleType:
    """``dask.distributed`` (imported on first use), or an ImportError with the install hint."""
    purpose = "kernel_patterns.distributed"
    import_optional("dask.array", extra="distributed", purpose=purpose)
    return import_optional("distributed", extra="distributed", purpose=purpose)


def import_dask_array() -> ModuleType:
    """``dask.array`` (imported on first use), or an ImportError with the install hint."""
    import_distributed()
    import dask.array as da

    return da


@dataclass(frozen=True)
class DaskBackend:
    """What :func:`~kernel_patterns.distributed.dask_backend` activates.

    Attributes
    ----------
    client : distributed.Client
    resident : bool or "auto"
        Whether exact operators keep their row blocks of K on the workers (see
        :class:`~kernel_patterns.distributed.DaskKernelOperator`).
    n_blocks : int or None
        Row blocks per operator (None: a default from the cluster and the matrix size).
    max_retries : int
        Re-submissions of a task lost with a worker before ``WorkerLostError``.
    timeout : float
        Seconds without a scheduler before ``SchedulerLostError``.
    """

    client: Any
    resident: bool | str = "auto"
    n_blocks: int | None = None
    max_retries: int = DEFAULT_MAX_RETRIES
    timeout: float = DEFAULT_TIMEOUT


#: the backend set by ``dask_backend`` in this context (thread / task local).
ACTIVE_BACKEND: ContextVar[DaskBackend | None] = ContextVar(
    "kernel_patterns_dask_backend", default=None
)


def check_client(client: Any = None) -> Any:
    """The client to use: ``client``, else the one of the active ``dask_backend``.

    Raises
    ------
    ValueError
        No client given and no backend active, or the client is closed / has no workers.
    TypeError
        ``client`` is not a ``distributed.Client``.
    """
    distributed = import_distributed()
    if client is None:
        backend = ACTIVE_BACKEND.get()
        if backend is None:
            raise ValueError(
                "no Dask client: pass client=distributed.Client(...) or run inside "
                "`with kernel_patterns.distributed.dask_backend(client):`."
            )
        client = backend.client
    if not isinstance(client, distributed.Client):
        raise TypeError(
            f"client must be a dask.distributed.Client; got {type(client).__name__}."
        )
    if client.status != "running":
        raise ValueError(
            f"the Dask client is not running (status {client.status!r}); it was closed or "
            "never connected. Start a new Client."
        )
    return client


def worker_threads(client: Any) -> dict[str, int]:
    """``{worker address: threads}`` of the running workers (ValueError when there are none)."""
    nthreads = dict(client.nthreads())
    if not nthreads:
        raise ValueError("the Dask cluster has no workers; start some (e.g. LocalCluster).")
    return nthreads


def worker_memory(client: Any) -> int | None:
    """Total memory limit of the workers in bytes (None when some worker has no limit)."""
    info = client.scheduler_info(n_workers=-1)["workers"]
    limits = [int(w.get("memory_limit") or 0) for w in info.values()]
    if not limits or min(limits) <= 0:
        return None
    return sum(limits)
