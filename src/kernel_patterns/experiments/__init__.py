"""The source papers' experiments, re-run by ``kernel-patterns reproduce NAME``.

Each module here is one experiment: it defines ``NAME`` (``gp``, ``geodesic``, ``spectral``,
``ranking``), ``TITLE`` and ``run(out_dir, quick=False)``, which returns named tables
(pandas DataFrames) and writes its figures into ``out_dir``; ``quick`` is a smoke-test size.
:func:`write_tables` writes the tables as Markdown and CSV; where the paper printed numbers,
a table carries them in ``paper`` columns beside ours.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    run: Callable[..., dict[str, Any]]


def discover() -> dict[str, Experiment]:
    """Every experiment module of this package, by name."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "run"):
            found[mod.NAME] = Experiment(mod.NAME, mod.TITLE, mod.run)
    return dict(sorted(found.items()))


def markdown_table(frame: Any, floatfmt: str = ".4g") -> str:
    """A pandas DataFrame as a Markdown table (no extra dependency)."""
    cols = [str(c) for c in frame.columns]

    def cell(v: Any) -> str:
        if isinstance(v, float):
            return format(v, floatfmt)
        return str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def write_tables(out_dir: Path, name: str, title: str, tables: dict[str, Any]) -> Path:
    """Write every table as ``<name>_<table>.csv`` and all of them in ``<name>.md``."""
    from ..cli._registry import write_text_atomic

    parts = [f"# {title}\n"]
    for key, frame in tables.items():
        write_text_atomic(out_dir / f"{name}_{key}.csv", frame.to_csv(index=False))
        parts.append(f"## {key}\n\n{markdown_table(frame)}\n")
    md = out_dir / f"{name}.md"
    write_text_atomic(md, "\n".join(parts))
    return md
