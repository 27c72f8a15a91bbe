"""One self-contained HTML page: what was read, what was found, tables and the figures embedded.

A report is a title, a list of sections and the figures. A section is a
:class:`ReportSection` (a paragraph, key/value rows, tables with headers and figures drawn
beside them) or, as a shorthand, a ``(heading, {key: value})`` pair. Figures placed in a
section are shown there and not again under "Figures". Every value is shown as text or as a
table (a mapping as a key/value table, a list of mappings as a table with a header), never as
raw JSON; the page links ``summary.json``, which holds every number for programs.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem;
text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
thead th{text-align:center}td.text{text-align:left}tr.kept td{background:#eaf3ff;font-weight:600}
caption{caption-side:top;text-align:left;font-style:italic;padding:.2rem 0}
.beside{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
figure{display:inline-block;margin:.5rem}img{max-width:100%;border:1px solid #eee}
.beside figure{flex:1 1 420px;max-width:560px;margin:0}
pre{background:#f7f7f7;padding:.6rem;overflow:auto}
"""


@dataclass
class ReportTable:
    """A table with a header row.

    Parameters
    ----------
    columns : list of str
        Column headers.
    rows : list of list
        One list of cell values per row (floats shown to 4 significant digits).
    caption : str, default=None
        Shown above the table.
    highlight : int, default=None
        Index of a row to emphasise (e.g. the length scale kept); its cells are bold.
    """

    columns: list[str]
    rows: list[list[Any]]
    caption: str | None = None
    highlight: int | None = None


@dataclass
class ReportSection:
    """A section of the report: a heading, then a paragraph, key/value rows, tables, figures.

    Parameters
    ----------
    heading : str
    text : str, default=None
        A paragraph under the heading.
    rows : mapping, default=None
        Key/value pairs, shown as a two-column table.
    tables : list of ReportTable
    figures : list of Path
        PNG files shown beside the tables (and not again under "Figures").
    """

    heading: str
    text: str | None = None
    rows: Mapping[str, Any] | None = None
    tables: list[ReportTable] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)


def _cell(v: Any) -> str:
    """A table cell: numbers right-aligned (the default), text left-aligned, a mapping or a
    list of mappings as a table inside the cell."""
    nested = _nested(v)
    if nested is not None:
        return f"<td class=text>{nested}</td>"
    numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
    return f"<td{'' if numeric else ' class=text'}>{html.escape(_fmt(v))}</td>"


def _nested(v: Any) -> str | None:
    """A mapping as a key/value table, a list of mappings as a table whose header is their
    keys; None for anything else."""
    if isinstance(v, Mapping):
        return _table(v) if v else "—"
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, Mapping) for x in v):
        keys = list(dict.fromkeys(k for x in v for k in x))
        return _grid(ReportTable([str(k) for k in keys], [[x.get(k) for k in keys] for x in v]))
    if isinstance(v, (list, tuple)) and any(isinstance(x, (list, tuple, Mapping)) for x in v):
        return _grid(ReportTable(["#", "value"], [[i, x] for i, x in enumerate(v)]))
    return None


def _table(rows: Mapping[str, Any]) -> str:
    body = "".join(f"<tr><th>{html.escape(str(k))}</th>{_cell(v)}</tr>" for k, v in rows.items())
    return f"<table>{body}</table>"


def _grid(table: ReportTable) -> str:
    head = "".join(f"<th scope='col'>{html.escape(c)}</th>" for c in table.columns)
    body = []
    for i, row in enumerate(table.rows):
        cls = " class='kept'" if i == table.highlight else ""
        body.append(f"<tr{cls}>" + "".join(_cell(v) for v in row) + "</tr>")
    caption = (f"<caption>{html.escape(table.caption)}</caption>" if table.caption else "")
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return {True: "yes", False: "no", None: "—"}[v]
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_fmt(x) for x in v) if v else "—"
    return str(v)


def _figure(fig: Path, captions: Mapping[Path, str] | None) -> str:
    data = base64.b64encode(Path(fig).read_bytes()).decode("ascii")
    text = html.escape((captions or {}).get(Path(fig), Path(fig).name), quote=True)
    return (f"<figure><img alt='{text}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{text}</figcaption></figure>")


def _section(section: ReportSection, captions: Mapping[Path, str] | None) -> str:
    parts = [f"<h2>{html.escape(section.heading)}</h2>"]
    if section.text:
        parts.append(f"<p>{html.escape(section.text)}</p>")
    if section.rows:
        parts.append(_table(section.rows))
    tables = "".join(_grid(t) for t in section.tables)
    if section.figures:
        figs = "".join(_figure(f, captions) for f in section.figures)
        parts.append(f"<div class='beside'><div>{tables}</div>{figs}</div>")
    else:
        parts.append(tables)
    return "".join(parts)


def render_report(
    title: str,
    summary: dict[str, Any],
    figures: Sequence[Path],
    sections: Sequence[ReportSection | tuple[str, Mapping[str, Any]]] = (),
    captions: Mapping[Path, str] | None = None,
) -> str:
    """The HTML text of a report.

    Parameters
    ----------
    title : str
    summary : dict
        The command's ``summary.json``: linked at the end (not shown as JSON), with its
        command, when present, in the link's sentence.
    figures : sequence of Path
        PNG files, inlined as base64; those already placed in a section are not repeated.
    sections : sequence of ReportSection or (heading, mapping)
        In order; a pair is a key/value table under its heading.
    captions : mapping of Path to str, default=None
        Caption (and alt text) of each figure; default its file name.

    Returns
    -------
    html : str
    """
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    placed: set[Path] = set()
    for section in sections:
        if not isinstance(section, ReportSection):
            heading, rows = section
            section = ReportSection(heading, rows=rows)
        placed.update(Path(f) for f in section.figures)
        parts.append(_section(section, captions))
    rest = [f for f in figures if Path(f) not in placed]
    if rest:
        parts.append("<h2>Figures</h2>")
    parts.extend(_figure(f, captions) for f in rest)
    parts.append("<h2>Every number</h2><p>The parameters, results and timings of this run are "
                 "in <a href='summary.json'>summary.json</a>, beside this page, for programs to "
                 f"read ({len(summary)} sections: "
                 f"{html.escape(', '.join(map(str, summary)))}).</p>")
    parts.append("</body></html>\n")
    return "".join(parts)


def input_section(summary_input: Mapping[str, Any], notes: Sequence[str] = ()) -> ReportSection:
    """The report's "Input" section from ``summary.json``'s ``input``: the file, rows used and
    dropped, the feature columns, the columns left out and why, the id and label columns, the
    scaling, and ``notes`` (the lines the command printed)."""
    rows: dict[str, Any] = {
        "file": summary_input.get("file"),
        "rows used": summary_input.get("n_rows_used"),
        "rows dropped (missing values)": summary_input.get("n_rows_dropped", 0),
    }
    dropped_rows = summary_input.get("dropped_rows") or []
    if dropped_rows:
        rows["rows dropped: ids"] = [str(r) for r in dropped_rows[:20]] + (
            ["…"] if len(dropped_rows) > 20 else [])
    features = list(summary_input.get("features") or [])
    rows[f"feature columns ({len(features)})"] = features
    rows["id column"] = summary_input.get("id_column") or "none: rows are numbered from 0"
    if "label_column" in summary_input:
        rows["label column (truth, not a feature)"] = summary_input.get("label_column")
    if summary_input.get("target") is not None:
        rows["target column"] = summary_input["target"]
    rows["scaling"] = _SCALES.get(str(summary_input.get("scale")), summary_input.get("scale"))
    if summary_input.get("row_loss"):
        rows["rows dropped"] = summary_input["row_loss"]
    left_out = summary_input.get("dropped_columns") or {}
    if not left_out:
        rows["columns left out"] = "none"
    section = ReportSection("Input", rows=rows)
    roles = summary_input.get("column_roles") or []
    if roles:
        shown = [[r["column"], r["role"], r["reason"]] for r in roles[:MAX_ROLE_ROWS]]
        if len(roles) > MAX_ROLE_ROWS:
            shown.append([f"… {len(roles) - MAX_ROLE_ROWS} more", "", "summary.json lists "
                          "every column"])
        section.tables.append(ReportTable(
            ["column", "role", "why"], shown,
            caption="The role of every column: only features are fitted; ids, label-like, "
            "constant, text and empty columns are left out (--keep-columns puts numeric ones "
            "back)"))
    elif left_out:
        section.tables.append(ReportTable(["column left out", "why"],
                                          [[c, why] for c, why in left_out.items()],
                                          caption="Columns left out of the features"))
    if notes:
        section.tables.append(ReportTable(["note printed"], [[n] for n in notes],
                                          caption="What the command printed about the input "
                                          "and the fit"))
    return section


#: rows of the column-role table shown in the report (all are in summary.json)
MAX_ROLE_ROWS = 300

_SCALES = {
    "minmax": "minmax: each feature to [0, 1] (--scale minmax, the default)",
    "standard": "standard: zero mean, unit variance (--scale standard)",
    "none": "none: the values as read (--scale none)",
}
