"""``kernel-patterns reproduce gp|geodesic|spectral|ranking|all``: the papers' experiments.

Each experiment runs under a progress bar of its own (on a terminal; silent in pipes and
with ``--quiet``): elapsed seconds against the seconds the same experiment took in the
output folder's previous run, when there is one. The run writes its true wall times to
``reproduce_timings.json`` in the output folder, and to ``--timings FILE`` too (the
repository keeps them in ``benchmarks/results/reproduce_timings.json``).

Every experiment runs on one BLAS thread: the papers' data sets have at most a few hundred
points, and on the shared 2-core machine a second BLAS thread made each of their many small
products and factorisations wait for a core (the geodesic experiment's 1,160 fits: 316 s
with two threads at load ~6, 25 s with one, the same tables).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .._parallel import limit_threads
from .._progress import progress_bar
from ..io import write_json_atomic, write_tables
from ._output import check_output, staged_output
from ._registry import UsageError, register

#: the timings file the run writes into the output folder
TIMINGS = "reproduce_timings.json"


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("experiment", help="gp, geodesic, spectral, ranking or all")
    p.add_argument("--out", default="reproduce-output", help="output folder")
    p.add_argument("--force", action="store_true", help="replace an existing output folder")
    p.add_argument("--quick", action="store_true",
                   help="a smoke-test size (few seeds/splits); the tables are not the paper's")
    p.add_argument("--timings", metavar="FILE",
                   help=f"also write the run's timings (the {TIMINGS} of the output folder) "
                        "to FILE")


def _previous(out: Path) -> dict[str, float]:
    """Seconds per experiment of the last run into ``out`` (empty when there is none)."""
    try:
        data = json.loads((out / TIMINGS).read_text())
        return {str(k): float(v) for k, v in data["seconds"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


@contextmanager
def _timed_bar(name: str, expected: float | None) -> Iterator[None]:
    """A bar of elapsed seconds (out of ``expected``) while the body runs."""
    total = max(1, round(expected)) if expected else 0
    with progress_bar(total, f"reproduce {name}", unit="s") as bar:
        done = threading.Event()

        def tick() -> None:
            shown = 0
            t0 = time.perf_counter()
            while not done.wait(0.5):
                now = int(time.perf_counter() - t0)
                step = min(now, total - 1) - shown if total else now - shown
                if step > 0:
                    bar.update(step)
                    shown += step

        thread = threading.Thread(target=tick, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()


def _record(seconds: dict[str, float], quick: bool, started: float) -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "seconds": seconds,
        "total_seconds": round(time.perf_counter() - started, 2),
        "quick": quick,
        "finished_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "cpu_count": os.cpu_count(),
        "load_average_1_5_15_min": None if load is None else [round(x, 2) for x in load],
    }


def _run(args: argparse.Namespace) -> int:
    from ..demos import discover as discover_demos
    from ..experiments import discover

    check_output(args.out, args.force)
    found = discover()
    if args.experiment == "all":
        chosen = list(found.values())
    elif args.experiment in found:
        chosen = [found[args.experiment]]
    else:
        raise UsageError(f"unknown experiment {args.experiment!r}; choose from "
                         f"{sorted(found)} or all")
    before = _previous(Path(args.out))
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    demos = {step.name: step for step in discover_demos()}
    with staged_output(Path(args.out), args.force) as tmp:
        for exp in chosen:
            t0 = time.perf_counter()
            with _timed_bar(exp.name, before.get(exp.name)), \
                    limit_threads(1, "blas"):
                demos[exp.figures].run(tmp)  # the paper's figures, drawn by the demo step
                tables = exp.run(tmp, quick=args.quick)
                write_tables(tmp, exp.name, exp.title, tables)
            seconds[exp.name] = round(time.perf_counter() - t0, 2)
            print(f"[reproduce] {exp.name}: {seconds[exp.name]:.1f} s", file=sys.stderr)
        record = _record(seconds, args.quick, started)
        write_json_atomic(tmp / TIMINGS, record)
    if args.timings:
        write_json_atomic(args.timings, record)
    print(f"wrote {len(chosen)} experiment(s) to {args.out}/ in {record['total_seconds']:.0f} s")
    return 0


register("reproduce", "re-run the papers' experiments; write their tables and figures",
         _args, _run)
