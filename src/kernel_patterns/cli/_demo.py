"""``kernel-patterns demo``: every algorithm on its paper's data set.

A step whose data set needs an extra that is not installed (the R data sets of the ``data``
extra: crabs, Boston) is skipped with one line naming the extra, and recorded as skipped in
``summary.json``; the other steps run.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any

from .. import __version__, _progress
from .._optional import MissingDependencyError
from ..io import write_json_atomic
from ._registry import UsageError, register

log = logging.getLogger("kernel_patterns")


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="demo-output", help="output folder (default: demo-output)")
    p.add_argument("--only", nargs="*", default=None, help="run only these demo steps")


def _run(args: argparse.Namespace) -> int:
    from ..demos import DemoStep, discover
    from . import _demo_report

    steps = sorted([*discover(), DemoStep(_demo_report.NAME, _demo_report.ORDER,
                                          _demo_report.run)], key=lambda s: (s.order, s.name))
    if args.only:
        unknown = sorted(set(args.only) - {s.name for s in steps})
        if unknown:
            raise UsageError(f"no demo step named {unknown}; have {[s.name for s in steps]}")
        steps = [s for s in steps if s.name in args.only]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"version": __version__, "steps": {}}
    for step in _progress.progress(steps, desc="demo", total=len(steps)):
        log.info("demo step %s", step.name)
        t0 = time.perf_counter()
        try:
            result = step.run(out)
        except MissingDependencyError as exc:
            summary["steps"][step.name] = {"skipped": str(exc)}
            print(f"[demo] {step.name}: skipped: {exc}", file=sys.stderr)
            write_json_atomic(out / "summary.json", summary)
            continue
        result["seconds"] = round(time.perf_counter() - t0, 3)
        summary["steps"][step.name] = result
        print(f"[demo] {step.name}: {result['seconds']:.1f} s", file=sys.stderr)
        write_json_atomic(out / "summary.json", summary)  # partial results survive a failure
    print(f"wrote {out / 'summary.json'} and {len(list(out.rglob('*.png')))} figure(s) to {out}/")
    return 0


register("demo", "run every algorithm on its paper's data set; write figures and summary.json",
         _args, _run)
