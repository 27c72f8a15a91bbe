"""Writing results: atomic files and tables, for the command line, experiments and plotting.

Every file the library writes goes through :func:`atomic_path`: it is written to a temporary
file in the target's folder and renamed into place, so a reader never sees half a file and a
failure leaves none; the file gets the mode a plain ``open`` would give (0o666 minus the
user's umask, not the 0o600 of a temporary file). :func:`write_text_atomic` and
:func:`write_json_atomic` (numpy scalars and arrays allowed) are the two writers built on it;
:func:`markdown_table`, :func:`markdown_frames` and :func:`write_tables` turn tables into
Markdown and CSV files.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import numpy as np
>>> from kernel_patterns.io import write_json_atomic
>>> folder = Path(tempfile.mkdtemp())
>>> write_json_atomic(folder / "out" / "summary.json", {"k": np.int64(2)})
>>> (folder / "out" / "summary.json").read_text()
'{\\n  "k": 2\\n}\\n'
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "atomic_path",
    "markdown_frames",
    "markdown_table",
    "write_json_atomic",
    "write_tables",
    "write_text_atomic",
]


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], prefix: str | None = None) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed onto ``path`` when the block ends.

    The parent folder is created when missing. If the block raises, the temporary file is
    removed and ``path`` is left as it was. The file ends with mode 0o666 minus the umask, as
    ``open`` would create it (the temporary file starts private, 0o600).

    Parameters
    ----------
    path : path-like
        The final file.
    prefix : str, default=None
        Prefix of the temporary file's name (default ``".<name>."``); its suffix is the
        target's, so writers that pick a format by suffix (matplotlib) see the right one.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from kernel_patterns.io import atomic_path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> target = Path(tmp.name) / "figs" / "plot.txt"
    >>> with atomic_path(target) as part:
    ...     _ = part.write_text("done")
    ...     print(part.suffix, target.exists())
    .txt False
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('done', ['plot.txt'])
    >>> tmp.cleanup()
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}." if prefix is None else prefix,
        suffix=target.suffix or ".tmp", dir=target.parent,
    )
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced when it exists).
    text : str
        Its content.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from kernel_patterns.io import write_text_atomic
    >>> tmp = tempfile.TemporaryDirectory()
    >>> write_text_atomic(Path(tmp.name) / "notes.txt", "hello\\n")
    >>> (Path(tmp.name) / "notes.txt").read_text()
    'hello\\n'
    >>> tmp.cleanup()
    """
    with atomic_path(path) as tmp, open(tmp, "w") as fh:
        fh.write(text)


def _json_default(obj: Any) -> Any:
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write JSON to ``path`` atomically (numpy scalars and arrays allowed).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced when it exists).
    data : object
        Anything ``json`` writes, numpy scalars and arrays included.

    Examples
    --------
    >>> import json
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from kernel_patterns.io import write_json_atomic
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "result.json"
    >>> write_json_atomic(path, {"labels": np.array([0, 1]), "score": np.float64(0.5)})
    >>> json.loads(path.read_text())
    {'labels': [0, 1], 'score': 0.5}
    >>> tmp.cleanup()
    """
    write_text_atomic(path, json.dumps(data, indent=2, default=_json_default) + "\n")


def markdown_table(frame: Any, floatfmt: str = ".4g") -> str:
    """A pandas DataFrame as a Markdown table (no extra dependency).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its index is not written.
    floatfmt : str, default=".4g"
        Format of the float cells.

    Returns
    -------
    table : str
        The Markdown table, one line per row.

    Examples
    --------
    >>> import pandas as pd
    >>> print(markdown_table(pd.DataFrame({"a": [1.23456], "b": ["x"]})))
    | a | b |
    |---|---|
    | 1.235 | x |
    """
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

    Parameters
    ----------
    text : str
        Markdown text.

    Returns
    -------
    frames : dict of str to pandas.DataFrame
        The tables in order of appearance, their cells as strings.

    Examples
    --------
    >>> frames = markdown_frames("## Scores\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n")
    >>> list(frames), frames["scores"].iloc[0].tolist()
    (['scores'], ['1', '2'])
    """
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

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder to write into.
    name : str
        Prefix of the file names.
    title : str
        The Markdown file's heading (a Markdown text that opens with one keeps its own).
    tables : dict of str to pandas.DataFrame, or str
        Named tables, or a Markdown text holding them.

    Returns
    -------
    path : pathlib.Path
        The Markdown file written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from kernel_patterns.io import write_tables
    >>> tmp = tempfile.TemporaryDirectory()
    >>> md = write_tables(Path(tmp.name), "run", "Scores", {"ari": pd.DataFrame({"ari": [0.9]})})
    >>> print(md.read_text())
    # Scores
    <BLANKLINE>
    ## ari
    <BLANKLINE>
    | ari |
    |---|
    | 0.9 |
    <BLANKLINE>
    >>> sorted(p.name for p in Path(tmp.name).iterdir())
    ['run.md', 'run_ari.csv']
    >>> tmp.cleanup()
    """
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
