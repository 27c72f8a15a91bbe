"""Run the benchmarks (every ``bench_*.py`` here, or those named) and print their tables.

``python benchmarks/run.py [name ...]``; each result is also kept in ``benchmarks/results/``.
Benchmarks are never part of the test suite: timings depend on the machine and its load.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(names: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names or s.stem in names]
    status = 0
    for s in scripts:
        print(f"\n=== {s.name} ===", flush=True)
        status |= subprocess.call([sys.executable, str(s)])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
