"""``kernel-patterns demo``: every algorithm on its paper's data set, figures and a summary.

Layout: each module in this package is one demo step (``datasets``, ``gp``, ``kernel_kmeans``,
``spectral``, ``ranking``, ``scale``): it defines ``ORDER`` (an int; steps run in increasing
order), ``NAME`` and ``run(out_dir) -> dict`` (what goes into ``summary.json`` under
``NAME``; figures are written to ``out_dir``). :func:`discover` finds them, so an algorithm
adds its demo by adding a file here. Demo steps use the estimators, datasets, metrics and
:mod:`kernel_patterns.plotting`, never the command line (whose own last step, the report of
a CSV file, lives in :mod:`kernel_patterns.cli`); experiments reuse a step's figures through
the command line.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class DemoStep:
    name: str
    order: int
    run: Callable[[Path], dict[str, Any]]


def discover() -> list[DemoStep]:
    """All demo steps of this package, in run order."""
    steps = []
    for info in pkgutil.iter_modules(__path__):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "run"):
            steps.append(DemoStep(mod.NAME, int(mod.ORDER), mod.run))
    return sorted(steps, key=lambda s: (s.order, s.name))
