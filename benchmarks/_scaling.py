"""Scaling curves: wall time and peak memory against N for several methods, in one process.

Each method runs on the same data at each size, in the same process, in increasing N; a
method whose run exceeds ``time_limit`` seconds (or raises ``MemoryError``/a memory-budget
error) is not run at larger sizes ("where it finishes"). Peak memory is the resident set size
sampled every 2 ms by a thread, minus the resident size just before the run: unlike
tracemalloc it also sees allocations made by compiled code (OpenMP buffers, BLAS workspaces).

Usage from a benchmark script::

    from _scaling import run_curves, plot_curves, curves_table
    rows = run_curves({"ours": fit_ours, "sklearn": fit_peer}, sizes, make_data)
    plot_curves(rows, RESULTS / "scaling_kernel_kmeans.png", "Kernel k-means, 2-D moons")
    save("scaling_kernel_kmeans", curves_table(rows))
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

_PAGE = os.sysconf("SC_PAGE_SIZE")


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * _PAGE


def _trim() -> None:
    """Give freed heap pages back to the OS (glibc), so earlier runs do not hide a peak."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def measure_rss(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall seconds, peak resident memory above the start (MB), and the result of ``fn()``."""
    gc.collect()
    _trim()
    base = _rss()
    peak = [base]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _rss())
            stop.wait(0.002)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    t0 = time.perf_counter()
    try:
        out = fn()
    finally:
        dt = time.perf_counter() - t0
        stop.set()
        th.join()
    peak[0] = max(peak[0], _rss())
    return dt, (peak[0] - base) / 2**20, out


def run_curves(
    methods: Mapping[str, Callable[[Any], Any]],
    sizes: Sequence[int],
    make_data: Callable[[int], Any],
    *,
    time_limit: float = 60.0,
    score: Callable[[Any, Any, Any], float] | None = None,
) -> list[dict[str, Any]]:
    """Run every method at every size (smallest first); one row per finished run.

    ``methods`` maps a name to ``fn(data) -> result``; ``make_data(n)`` builds the data;
    ``score(data, result, name)`` (optional) adds a quality column such as the ARI.
    """
    rows: list[dict[str, Any]] = []
    alive = dict.fromkeys(methods, True)
    for n in sizes:
        data = make_data(n)
        for name, fn in methods.items():
            if not alive[name]:
                continue
            try:
                dt, mb, out = measure_rss(lambda fn=fn, data=data: fn(data))
            except (MemoryError, ValueError) as exc:  # MemoryBudgetError is a ValueError
                print(f"  {name:<28} N={n:>9,}  stopped: {type(exc).__name__}: {exc}"[:200])
                alive[name] = False
                continue
            row = {"method": name, "n": n, "seconds": dt, "peak_mb": mb}
            if score is not None:
                row["score"] = float(score(data, out, name))
            rows.append(row)
            extra = f"  score {row['score']:.3f}" if "score" in row else ""
            print(f"  {name:<28} N={n:>9,}  {dt:8.2f} s  {mb:9.0f} MB{extra}", flush=True)
            if dt > time_limit:
                alive[name] = False
            del out
    return rows


def curves_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """A Markdown table of the runs (method, N, seconds, peak MB, score if any)."""
    has_score = any("score" in r for r in rows)
    head = "| method | N | seconds | peak MB |" + (" score |" if has_score else "")
    lines = [head, "|---|---|---|---|" + ("---|" if has_score else "")]
    for r in rows:
        line = f"| {r['method']} | {r['n']:,} | {r['seconds']:.3g} | {r['peak_mb']:.0f} |"
        if has_score:
            line += f" {r.get('score', float('nan')):.3f} |"
        lines.append(line)
    return "\n".join(lines)


def plot_curves(rows: Sequence[Mapping[str, Any]], path: Path, title: str) -> Path:
    """Log-log time and peak memory against N, one line per method, saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for name in dict.fromkeys(r["method"] for r in rows):
        mine = [r for r in rows if r["method"] == name]
        n = [r["n"] for r in mine]
        axes[0].loglog(n, [r["seconds"] for r in mine], "o-", label=name)
        axes[1].loglog(n, [max(r["peak_mb"], 1.0) for r in mine], "o-", label=name)
    axes[0].set(xlabel="N (points)", ylabel="wall time (s)", title=f"{title}: time")
    axes[1].set(xlabel="N (points)", ylabel="peak resident memory above start (MB)",
                title=f"{title}: memory")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
