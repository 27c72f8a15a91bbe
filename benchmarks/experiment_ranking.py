"""Ranking experiment (Boston, cpus): ``python benchmarks/experiment_ranking.py [--quick]``.

The experiment itself lives in :mod:`kernel_patterns.experiments.ranking` so that
``kernel-patterns reproduce ranking`` runs the same code; this writes its tables to
``benchmarks/results/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kernel_patterns.experiments import ranking, write_tables

if __name__ == "__main__":
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    tables = ranking.run(out, quick="--quick" in sys.argv)
    print(write_tables(out, ranking.NAME, ranking.TITLE, tables).read_text())
