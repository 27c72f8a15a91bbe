"""The spectral experiment: ``python benchmarks/experiment_spectral.py [--quick]``.

The experiment lives in :mod:`kernel_patterns.experiments.spectral` so that
``kernel-patterns reproduce spectral`` runs the same code; this writes its tables to
``benchmarks/results/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kernel_patterns.experiments import spectral, write_tables

if __name__ == "__main__":
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    text = spectral.run(out, quick="--quick" in sys.argv)
    print(write_tables(out, spectral.NAME, spectral.TITLE, text).read_text())
