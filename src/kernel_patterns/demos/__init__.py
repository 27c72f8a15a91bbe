"""``kernel-patterns demo``: every algorithm on its paper's data set, figures and a summary.

Each module in this package is one demo step: it defines ``ORDER`` (an int; steps run in
increasing order), ``NAME`` and ``run(out_dir) -> dict`` (what goes into ``summary.json``
under ``NAME``; figures are written to ``out_dir``). Modules are discovered automatically,
so an algorithm adds its demo by adding a file here.
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
