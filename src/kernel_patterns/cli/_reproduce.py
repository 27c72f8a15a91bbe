"""``kernel-patterns reproduce gp|geodesic|spectral|ranking|all``: the papers' experiments."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..io import write_json_atomic, write_tables
from ._io import check_output, staged_output
from ._registry import UsageError, register


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("experiment", help="gp, geodesic, spectral, ranking or all")
    p.add_argument("--out", default="reproduce-output", help="output folder")
    p.add_argument("--force", action="store_true", help="replace an existing output folder")
    p.add_argument("--quick", action="store_true",
                   help="a smoke-test size (few seeds/splits); the tables are not the paper's")


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
    timings = {}
    demos = {step.name: step for step in discover_demos()}
    with staged_output(Path(args.out), args.force) as tmp:
        for exp in chosen:
            t0 = time.perf_counter()
            demos[exp.figures].run(tmp)  # the paper's figures, drawn by the demo step
            tables = exp.run(tmp, quick=args.quick)
            write_tables(tmp, exp.name, exp.title, tables)
            timings[exp.name] = round(time.perf_counter() - t0, 2)
            print(f"[reproduce] {exp.name}: {timings[exp.name]:.1f} s", file=sys.stderr)
        write_json_atomic(tmp / "timings.json", timings)
    print(f"wrote {len(chosen)} experiment(s) to {args.out}/")
    return 0


register("reproduce", "re-run the papers' experiments; write their tables and figures",
         _args, _run)
