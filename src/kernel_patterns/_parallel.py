"""Thread counts shared by every package that runs work in a thread pool."""

from __future__ import annotations

import os


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
