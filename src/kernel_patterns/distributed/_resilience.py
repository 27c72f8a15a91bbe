"""Surviving a lost worker, and a clear error when the cluster keeps failing.

Two rules keep every distributed path's result exact when a worker dies:

* **Everything the workers hold has lineage.** Data the driver sends (training points, a
  fitted model, an operand ``V``) goes as the argument of a task (:class:`Shared`), never with
  ``client.scatter``: the scheduler keeps the task's specification, so when the only worker
  holding the result dies, it recomputes it elsewhere (scattered data would be forgotten,
  with every task that depends on it). Dask arrays bring their own graph.
* **The driver re-submits what the scheduler gives up on** (:func:`gather`): a future
  cancelled or lost, or a task that killed ``allowed-failures`` workers
  (:class:`~distributed.KilledWorker`), is built again from its recipe, at most
  ``max_retries`` times per task; then :class:`WorkerLostError` names the workers lost.
  A scheduler that stays unreachable for ``timeout`` seconds is a
  :class:`SchedulerLostError`, never a hang. Both settings come from the active
  :func:`~kernel_patterns.distributed.dask_backend` (defaults 3 and 60 s).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import CancelledError
from typing import Any

from ._client import ACTIVE_BACKEND, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, import_distributed

#: seconds between two looks at the futures and at the connection.
_POLL = 0.2
_BAD = ("cancelled", "lost")


class WorkerLostError(RuntimeError):
    """A task still failed after ``max_retries`` re-submissions because workers died.

    Examples
    --------
    Raised by the distributed functions after their bounded re-submissions; a
    ``RuntimeError``, so existing handlers catch it:

    >>> from kernel_patterns.distributed import WorkerLostError
    >>> issubclass(WorkerLostError, RuntimeError)
    True
    """


class SchedulerLostError(TimeoutError):
    """The client had no connection to the Dask scheduler for ``timeout`` seconds.

    Examples
    --------
    A ``TimeoutError`` (``dask_backend(timeout=...)`` sets how long to wait):

    >>> from kernel_patterns.distributed import SchedulerLostError
    >>> issubclass(SchedulerLostError, TimeoutError)
    True
    """


def policy() -> tuple[int, float]:
    """``(max_retries, timeout)`` of the active ``dask_backend`` (defaults outside)."""
    backend = ACTIVE_BACKEND.get()
    if backend is None:
        return DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
    return backend.max_retries, backend.timeout


def _identity(value: Any) -> Any:
    return value


def _submit_value(client: Any, value: Any) -> Any:
    """A task returning ``value``. Dask warns when a graph exceeds 10 MB (a fitted GP model
    with its Cholesky factor can): here the value travels in the graph on purpose, once, as
    the lineage that lets the scheduler recompute it, so that warning is not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Sending large graph", category=UserWarning)
        return client.submit(_identity, value, pure=False)


class Shared:
    """A value the workers read, held as a task with lineage and rebuilt when lost.

    ``future()`` returns the current future, submitting ``make()`` (by default a task that
    returns ``value``: the scheduler keeps the value in the task's specification and can
    recompute it on another worker) again when the old one was cancelled, lost or erred.
    """

    def __init__(
        self, client: Any, value: Any = None, make: Callable[[], Any] | None = None
    ) -> None:
        self.client = client
        self._make = make or (lambda: _submit_value(client, value))
        self._future: Any = None

    def future(self) -> Any:
        f = self._future
        if f is None or f.status in (*_BAD, "error"):
            self._future = self._make()
        return self._future

    def release(self) -> None:
        f, self._future = self._future, None
        if f is not None and self.client.status == "running":
            self.client.cancel([f])


def _removed_workers(since: float, dask_scheduler: Any = None) -> list[str]:
    """On the scheduler: workers removed without being asked to leave, after ``since``."""
    return sorted({
        str(topic)
        for topic, items in dask_scheduler.get_events().items()
        for stamp, msg in items
        if "://" in str(topic) and isinstance(msg, dict)
        and msg.get("action") == "remove-worker"
        and not msg.get("expected") and stamp >= since
    })


def lost_workers(client: Any, since: float) -> list[str]:
    """Addresses of the workers the scheduler lost (not retired on request) after ``since``
    (a time.time() stamp; [] when the scheduler cannot tell)."""
    try:
        return list(client.run_on_scheduler(_removed_workers, since - 1.0))
    except Exception:  # the scheduler may be gone too
        return []


def _is_loss(exc: BaseException | None) -> bool:
    distributed = import_distributed()
    return isinstance(exc, (CancelledError, distributed.KilledWorker))


def _scheduler_down(client: Any, down_since: float | None, timeout: float, what: str) -> float:
    """Time the connection was first seen down; SchedulerLostError after ``timeout``."""
    now = time.monotonic()
    if down_since is None:
        down_since = now
    address = getattr(client.scheduler, "address", "?")
    if client.status in ("closed", "closing", "failed") or now - down_since >= timeout:
        raise SchedulerLostError(
            f"{what}: lost the connection to the Dask scheduler at {address} (client status "
            f"{client.status!r}; waited {now - down_since:.1f} s of timeout={timeout:g} s). "
            "Restart the scheduler and run again, or raise the timeout with "
            "dask_backend(client, timeout=...)."
        )
    return down_since


def gather(
    client: Any, n: int, submit: Callable[[int], Any], *, what: str = "the Dask tasks"
) -> list[Any]:
    """Results of ``submit(0), ..., submit(n - 1)`` (futures), re-submitting lost ones.

    ``submit(i)`` must build task ``i`` from scratch (asking :class:`Shared` inputs for
    their current future), so a re-submission after a loss computes the same result.

    Raises
    ------
    WorkerLostError
        A task was lost more than ``max_retries`` times (the message names the lost workers).
    SchedulerLostError
        No scheduler for ``timeout`` seconds.
    """
    distributed = import_distributed()
    max_retries, timeout = policy()
    since = time.time()
    wake = threading.Event()  # set by every future that finishes, errs or is cancelled

    def start(i: int) -> Any:
        f = submit(i)
        f.add_done_callback(lambda _: wake.set())
        return f

    futs = [start(i) for i in range(n)]
    out: list[Any] = [None] * n
    tries = [0] * n
    todo = set(range(n))
    down_since: float | None = None
    while todo:
        if client.status != "running":
            down_since = _scheduler_down(client, down_since, timeout, what)
            time.sleep(_POLL)
            continue
        down_since = None
        wake.wait(_POLL)
        wake.clear()
        retry = []
        for i in sorted(todo):
            f = futs[i]
            if f.status == "pending":
                continue
            exc: BaseException | None = None
            if f.status == "finished":
                try:
                    out[i] = f.result(timeout=timeout)
                    todo.discard(i)
                    continue
                except (CancelledError, distributed.KilledWorker) as e:
                    exc = e
                except TimeoutError:
                    if client.status == "running":
                        raise
                except OSError as e:  # CommClosedError: a connection reset while fetching
                    time.sleep(_POLL)  # (the client notices a lost scheduler a moment later)
                    exc = e
            elif f.status == "error":
                exc = f.exception()
                if not _is_loss(exc):
                    f.result()  # the task's own error, with its traceback
            if client.status != "running":
                break  # the scheduler went away: not the task's fault
            retry.append((i, exc))
        for i, exc in retry:
            tries[i] += 1
            if tries[i] > max_retries:
                _give_up(client, futs, since, what, max_retries, exc)
            futs[i] = start(i)
    return out


def _give_up(client: Any, futs: list[Any], since: float, what: str, max_retries: int,
             exc: BaseException | None) -> None:
    workers = lost_workers(client, since)
    last = getattr(getattr(exc, "last_worker", None), "address", None)
    if last and last not in workers:
        workers.append(str(last))
    client.cancel([f for f in futs if f.status == "pending"])
    named = ", ".join(workers) if workers else "no worker reported lost"
    raise WorkerLostError(
        f"{what}: a task was lost {max_retries + 1} times (max_retries={max_retries}); "
        f"workers lost during the run: {named}. The cluster keeps losing workers: check their "
        "memory limits and logs, or raise max_retries with dask_backend(client, max_retries=...)."
    ) from exc


def compute(client: Any, collection: Any, *, what: str = "the Dask computation") -> Any:
    """``collection`` computed on the cluster (a Dask array or delayed), surviving losses."""
    return gather(client, 1, lambda _: client.compute(collection), what=what)[0]
