"""Thread counts and BLAS limits shared by every package that runs work in a thread pool."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from threadpoolctl import ThreadpoolController

_CONTROLLER: ThreadpoolController | None = None
#: the event that cancels the work of this thread (:func:`cancelled_by`), if any
_CANCEL = threading.local()


def usable_threads(limit: int = 8) -> int:
    """Cores this process may run on (its CPU affinity), at most ``limit``; at least 1.

    >>> 1 <= usable_threads() <= 8
    True
    """
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        n = os.cpu_count() or 1
    return max(1, min(n, limit))


def limit_threads(limits: int | None, user_api: str) -> AbstractContextManager[Any]:
    """A context in which the ``user_api`` thread pools (``"blas"`` or ``"openmp"``) run on
    at most ``limits`` threads (None: as they are), restored on exit.

    It is ``threadpoolctl.threadpool_limits`` through one controller:
    ``threadpool_limits`` scans the process's loaded libraries on every call (2-4 ms),
    and the controller here scans them once, at the first call. That scan was a third of
    the time of soft kernel k-means on 1,907 points with 32 clusters (0.12 of 0.41 s) and of
    ``SpectralClustering(3)`` on 1,000 points (two calls, 7 of 19 ms). The libraries are
    those loaded by then; importing ``kernel_patterns`` loads numpy's and scipy's OpenBLAS
    and scikit-learn's OpenMP runtime.

    Parameters
    ----------
    limits : int or None
        Threads per pool; None leaves them as they are.
    user_api : {"blas", "openmp"}
        The pools limited.

    Returns
    -------
    context manager

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> from kernel_patterns._parallel import limit_threads
    >>> with limit_threads(1, "blas"):
    ...     inside = {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}
    >>> inside <= {1}
    True
    """
    global _CONTROLLER
    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=limits, user_api=user_api)


def single_blas_thread() -> AbstractContextManager[Any]:
    """A context in which BLAS runs on one thread (for work split over a thread pool):
    ``limit_threads(1, "blas")``.

    >>> with single_blas_thread():
    ...     pass
    """
    return limit_threads(1, "blas")


class Cancelled(Exception):
    """Raised by :func:`check_cancelled` in work whose result is no longer wanted."""


@contextmanager
def cancelled_by(event: threading.Event) -> Iterator[None]:
    """A context in which :func:`check_cancelled`, called by this thread, raises
    :class:`Cancelled` once ``event`` is set: work started ahead of need on a thread pool
    (a rung of the GP length-scale ladder) stops at its next check when the pool closes,
    instead of holding the caller until it ends.

    Examples
    --------
    >>> import threading
    >>> from kernel_patterns._parallel import Cancelled, cancelled_by, check_cancelled
    >>> closing = threading.Event()
    >>> with cancelled_by(closing):
    ...     check_cancelled()  # not set: nothing happens
    ...     closing.set()
    ...     try:
    ...         check_cancelled()
    ...     except Cancelled:
    ...         print("stopped")
    stopped
    """
    previous = getattr(_CANCEL, "event", None)
    _CANCEL.event = event
    try:
        yield
    finally:
        _CANCEL.event = previous


def check_cancelled() -> None:
    """Raise :class:`Cancelled` when this thread's work is cancelled (:func:`cancelled_by`);
    a thread-local look-up, cheap enough for every block of a long computation."""
    event = getattr(_CANCEL, "event", None)
    if event is not None and event.is_set():
        raise Cancelled
