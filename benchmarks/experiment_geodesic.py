"""The geodesic experiment: ``python benchmarks/experiment_geodesic.py [--quick]``.

The experiment lives in :mod:`kernel_patterns.experiments.geodesic` so that
``kernel-patterns reproduce geodesic`` runs the same code; this writes its tables to
``benchmarks/results/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kernel_patterns.experiments import geodesic, write_tables

if __name__ == "__main__":
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    text = geodesic.run(out, quick="--quick" in sys.argv)
    print(write_tables(out, geodesic.NAME, geodesic.TITLE, text).read_text())
