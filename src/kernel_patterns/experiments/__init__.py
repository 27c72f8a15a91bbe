"""The source papers' experiments, re-run by ``kernel-patterns reproduce NAME``.

Each module here is one experiment: it defines ``NAME`` (``gp``, ``geodesic``, ``spectral``,
``ranking``), ``TITLE`` and ``run(out_dir, quick=False)``, which returns named tables
(pandas DataFrames, or one Markdown text) and writes its figures into ``out_dir``;
``quick`` is a smoke-test size.
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


def markdown_frames(text: str) -> dict[str, Any]:
    """Every Markdown table in ``text`` as a DataFrame of strings, keyed by its caption.

    The caption is the nearest non-empty, non-table line above the table (a heading or a
    sentence), reduced to a file-name-safe slug.
    """
    import re

    import pandas as pd

    frames: dict[str, Any] = {}
    lines = text.splitlines()
    caption = "table"
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$",
                                                                    lines[i + 1].strip()):
            header = [c.strip() for c in line.strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                rows.append((cells + [""] * len(header))[: len(header)])
                i += 1
            slug = re.sub(r"[^a-z0-9]+", "_", caption.lower()).strip("_")[:40] or "table"
            key, n = slug, 2
            while key in frames:
                key, n = f"{slug}_{n}", n + 1
            frames[key] = pd.DataFrame(rows, columns=header)
            continue
        if line:
            caption = line.lstrip("#").strip()
        i += 1
    return frames


def write_tables(out_dir: Path, name: str, title: str, tables: dict[str, Any] | str) -> Path:
    """Write the tables as ``<name>_<table>.csv`` and all of them in ``<name>.md``.

    ``tables`` is either named DataFrames or a Markdown text (written as it is, its tables
    parsed into the CSV files).
    """
    from ..cli._registry import write_text_atomic

    if isinstance(tables, str):
        md_text = tables if tables.lstrip().startswith("#") else f"# {title}\n\n{tables}"
        frames = markdown_frames(tables)
    else:
        parts = [f"# {title}\n"]
        for key, frame in tables.items():
            parts.append(f"## {key}\n\n{markdown_table(frame)}\n")
        md_text, frames = "\n".join(parts), tables
    for key, frame in frames.items():
        write_text_atomic(out_dir / f"{name}_{key}.csv", frame.to_csv(index=False))
    md = out_dir / f"{name}.md"
    write_text_atomic(md, md_text)
    return md
