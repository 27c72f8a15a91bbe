"""Start-up of the command line: ``kernel-patterns --help`` and ``cluster`` on a 178-row file.

Run: ``python benchmarks/bench_cli_startup.py [--repeat 5] [--ref /path/to/other/src]``.
Each command runs in a fresh interpreter (``python -m kernel_patterns.cli``, as the
installed ``kernel-patterns`` script does), ``--repeat`` times; the table gives the median
wall time, the time spent importing (``python -X importtime``: the sum of the top-level
imports' cumulative times, in a separate run) and its share of the wall time. The bars of
issue 62 are ``--help`` <= 0.5 s and ``cluster`` <= 1.5 s end to end. ``--ref`` times
another source tree the same way (e.g. the main branch's ``src``), for a before/after.

The 178-row file is scikit-learn's wine data with its ``cultivar`` column (left out of the
features as label-like, as the command line does by default); ``cluster`` runs GP
clustering, the default method, and writes every output (figures and report included).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import machine, save, table

SRC = Path(__file__).resolve().parents[1] / "src"


def _env(src: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(src), OMP_NUM_THREADS="1")


def _wall(argv: list[str], src: Path, repeat: int) -> float:
    """Median wall time of ``python -m kernel_patterns.cli *argv`` in a fresh interpreter."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "kernel_patterns.cli", *argv], env=_env(src),
                           capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            raise SystemExit(f"{argv} failed: {r.stderr}")
    return statistics.median(times)


def _import_seconds(argv: list[str], src: Path) -> float:
    """Seconds spent importing (``-X importtime``: the top-level imports' cumulative times)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "kernel_patterns.cli", *argv],
                       env=_env(src), capture_output=True, text=True, check=False)
    total = 0
    for line in r.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)
        if m and not m.group(2).startswith(" "):  # top level: no indentation before the name
            total += int(m.group(1))
    return total / 1e6


def _wine(folder: Path) -> Path:
    from sklearn.datasets import load_wine

    frame = load_wine(as_frame=True).frame.rename(columns={"target": "cultivar"})
    path = folder / "wine.csv"
    frame.to_csv(path, index=False)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ref", type=Path, help="another source tree to time the same way")
    args = ap.parse_args()
    trees = [("this tree", SRC)] + ([("--ref", args.ref)] if args.ref else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        wine = _wine(Path(tmp))
        for label, src in trees:
            for name, argv, bar in (
                ("--help", ["--help"], 0.5),
                ("cluster wine.csv (178 rows)",
                 ["-q", "cluster", str(wine), "--out", f"{tmp}/out", "--force"], 1.5),
            ):
                wall = _wall(argv, src, args.repeat)
                imports = _import_seconds(argv, src)
                rows.append([label, name, wall, imports, f"{100 * imports / wall:.0f} %", bar,
                             "yes" if wall <= bar else "no"])
    text = (f"# Command-line start-up ({machine()}, {os.cpu_count()} cores, median of "
            f"{args.repeat})\n\n"
            + table(["tree", "command", "wall (s)", "importing (s)", "importing share",
                     "bar (s)", "met"], rows))
    save("cli_startup", text)


if __name__ == "__main__":
    main()
