"""The GP clustering experiment (§5): ``python benchmarks/experiment_gp.py``.

The experiment lives in :mod:`kernel_patterns.experiments.gp` so that
``kernel-patterns reproduce gp`` runs the same code; this writes its tables to
``benchmarks/results/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kernel_patterns.experiments import gp, write_tables

if __name__ == "__main__":
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    text = gp.run(out, quick="--quick" in sys.argv)
    print(write_tables(out, gp.NAME, gp.TITLE, text).read_text())
