"""Shared helpers for the side-by-side benchmarks: timing, peak memory, tables."""

from __future__ import annotations

import gc
import platform
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def measure(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best wall time over ``repeat`` runs, peak traced memory (MB) and the last result.

    numpy reports its allocations to tracemalloc, so the peak covers the arrays built.
    """
    best, peak, out = float("inf"), 0.0, None
    for _ in range(repeat):
        out = None
        gc.collect()
        tracemalloc.start()
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        peak = max(peak, tracemalloc.get_traced_memory()[1] / 2**20)
        tracemalloc.stop()
        best = min(best, dt)
    return best, peak, out


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table."""
    def fmt(v: Any) -> str:
        return f"{v:.3g}" if isinstance(v, float) else str(v)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(fmt(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def machine() -> str:
    import numpy as np

    return f"{platform.machine()}, {platform.python_version()}, numpy {np.__version__}"


def save(name: str, text: str) -> Path:
    """Print ``text`` and keep it as ``results/<name>.md``."""
    print(text)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(text + "\n")
    return path
