"""The source papers' experiments, re-run by ``kernel-patterns reproduce NAME``.

Layout: each module here is one experiment (``gp``, ``geodesic``, ``spectral``, ``ranking``):
it defines ``NAME``, ``TITLE``, ``FIGURES`` (the :mod:`kernel_patterns.demos` step that draws
the paper's figures; the command line runs it beside the tables) and
``run(out_dir, quick=False)``, which returns named tables (pandas DataFrames, or one Markdown
text); ``quick`` is a smoke-test size. :func:`discover` finds them; the tables are written by
:func:`kernel_patterns.io.write_tables` (Markdown and CSV; where the paper printed numbers, a
table carries them in ``paper`` columns beside ours). Experiments use the estimators,
datasets, metrics and :mod:`kernel_patterns.io`; never the command line or the demos.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..io import markdown_frames, markdown_table, write_tables

__all__ = ["Experiment", "discover", "markdown_frames", "markdown_table", "write_tables"]


@dataclass(frozen=True)
class Experiment:
    """One experiment: its name, title, ``run(out_dir, quick=False) -> tables`` and the demo
    step that draws its figures."""

    name: str
    title: str
    run: Callable[..., dict[str, Any]]
    figures: str


def discover() -> dict[str, Experiment]:
    """Every experiment module of this package, by name."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "run"):
            found[mod.NAME] = Experiment(mod.NAME, mod.TITLE, mod.run, mod.FIGURES)
    return dict(sorted(found.items()))
