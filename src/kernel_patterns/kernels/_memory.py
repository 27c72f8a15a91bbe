"""Memory budget: say, before allocating, when an N × N matrix will not fit."""

from __future__ import annotations

import os

import numpy as np


class MemoryBudgetError(ValueError):
    """An N × N allocation would exceed the memory budget.

    A ``ValueError`` (the request is too large for the chosen option, not a failed
    allocation); the message names the option to use instead.

    Examples
    --------
    >>> from kernel_patterns.kernels import MemoryBudgetError, check_dense_fits
    >>> try:
    ...     check_dense_fits(1000, 1000, "float64", memory_budget=1000)
    ... except MemoryBudgetError as exc:
    ...     print(isinstance(exc, ValueError), "approximation='nystrom'" in str(exc))
    True True
    """


def available_memory() -> int:
    """Bytes of physical memory available now (``MemAvailable``), or total RAM as a fallback."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 * 1024**3


def default_memory_budget() -> int:
    """Half of the memory available now: the default ceiling for one dense kernel matrix.

    Examples
    --------
    >>> from kernel_patterns.kernels import default_memory_budget
    >>> budget = default_memory_budget()
    >>> isinstance(budget, int) and budget > 0
    True
    """
    return available_memory() // 2


def dense_nbytes(n_rows: int, n_cols: int, dtype: np.dtype | type) -> int:
    """Bytes of an ``n_rows × n_cols`` array of ``dtype``.

    Parameters
    ----------
    n_rows, n_cols : int
        Shape of the array.
    dtype : numpy dtype or type
        Element type, e.g. ``np.float64`` or ``"float32"``.

    Returns
    -------
    int
        ``n_rows * n_cols * itemsize``.

    Examples
    --------
    >>> from kernel_patterns.utils import dense_nbytes
    >>> dense_nbytes(1000, 1000, "float64")
    8000000
    >>> dense_nbytes(1000, 1000, "float32")
    4000000
    """
    return int(n_rows) * int(n_cols) * np.dtype(dtype).itemsize


def _fmt(nbytes: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if nbytes < 1024 or unit == "TB":
            return f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return f"{nbytes:.1f} TB"  # pragma: no cover


def check_dense_fits(
    n_rows: int,
    n_cols: int,
    dtype: np.dtype | type,
    memory_budget: int | None = None,
    what: str = "the kernel matrix",
) -> None:
    """Raise :class:`MemoryBudgetError` when an ``n_rows × n_cols`` array exceeds the budget.

    Parameters
    ----------
    n_rows, n_cols : int
        Shape of the array.
    dtype : numpy dtype or type
        Its element type.
    memory_budget : int, default=None
        Bytes allowed (None: :func:`default_memory_budget`).
    what : str, default="the kernel matrix"
        What the array is, for the message.

    Raises
    ------
    MemoryBudgetError
        The array would not fit; the message names the options that would.

    Examples
    --------
    >>> check_dense_fits(10, 10, np.float64, memory_budget=10_000)
    >>> check_dense_fits(100_000, 100_000, np.float64, memory_budget=2**30)
    Traceback (most recent call last):
    ...
    kernel_patterns.kernels._memory.MemoryBudgetError: the kernel matrix needs 74.5 GB ...
    """
    budget = default_memory_budget() if memory_budget is None else int(memory_budget)
    need = dense_nbytes(n_rows, n_cols, dtype)
    if need > budget:
        raise MemoryBudgetError(
            f"{what} needs {_fmt(need)} ({n_rows} x {n_cols} {np.dtype(dtype).name}) but the "
            f"memory budget is {_fmt(budget)}. Use approximation='nystrom' with n_landmarks=m "
            "(a rank-m Nystrom approximation, memory N x m), "
            + ("dtype='float32' (half the memory), " if np.dtype(dtype).itemsize > 4 else "")
            + "or operator='chunked' (exact rows recomputed on the fly, slow at this size); or "
            "raise memory_budget."
        )
