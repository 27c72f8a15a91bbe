"""One self-contained HTML page: parameters, metrics, tables and the figures embedded."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem;
text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
figure{display:inline-block;margin:.5rem}img{max-width:100%;border:1px solid #eee}
pre{background:#f7f7f7;padding:.6rem;overflow:auto}
"""


def _table(rows: dict[str, Any]) -> str:
    body = "".join(
        f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(_fmt(v))}</td></tr>"
        for k, v in rows.items()
    )
    return f"<table>{body}</table>"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return str(v)


def render_report(
    title: str,
    summary: dict[str, Any],
    figures: Sequence[Path],
    sections: Sequence[tuple[str, dict[str, Any]]] = (),
    captions: Mapping[Path, str] | None = None,
) -> str:
    """The HTML text: ``sections`` as key/value tables, ``figures`` (PNG) inlined as base64,
    each with its caption from ``captions`` (default: its file name), also its alt text."""
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    for heading, rows in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>{_table(rows)}")
    if figures:
        parts.append("<h2>Figures</h2>")
    for fig in figures:
        data = base64.b64encode(Path(fig).read_bytes()).decode("ascii")
        text = html.escape((captions or {}).get(Path(fig), Path(fig).name), quote=True)
        parts.append(f"<figure><img alt='{text}' src='data:image/png;base64,{data}'>"
                     f"<figcaption>{text}</figcaption></figure>")
    parts.append("<h2>Summary (JSON)</h2><pre>"
                 + html.escape(json.dumps(summary, indent=2, default=str)) + "</pre>")
    parts.append("</body></html>\n")
    return "".join(parts)
