"""Run the benchmarks (every ``bench_*.py`` here, or those named) and print their tables.

``python benchmarks/run.py [name ...]``; each result is also kept in ``benchmarks/results/``.
The scaling curves (``bench_scale_*.py``, several minutes each, up to a million points) run
only when named, or all together with ``python benchmarks/run.py scale``.
Benchmarks are never part of the test suite: timings depend on the machine and its load.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(names: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if names == ["scale"]:
        scripts = [s for s in scripts if s.stem.startswith("bench_scale_")]
    elif names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names or s.stem in names]
    else:
        scripts = [s for s in scripts if not s.stem.startswith("bench_scale_")]
    status = 0
    for s in scripts:
        print(f"\n=== {s.name} ===", flush=True)
        status |= subprocess.call([sys.executable, str(s)])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
