"""The HTML report is one self-contained page with the figures inlined."""

from __future__ import annotations

import base64

from kernel_patterns import datasets, plotting
from kernel_patterns.cli._report import render_report


def test_report_embeds_figures_and_escapes_text(tmp_path) -> None:
    X, y = datasets.make_two_moons(random_state=0)
    png = plotting.save_figure(plotting.plot_clusters(X, y), tmp_path / "c.png")
    html = render_report("<moons>", {"k": 2}, [png], [("Result", {"n": 2, "x": 0.123456})])
    assert "&lt;moons&gt;" in html and "<moons>" not in html
    assert base64.b64encode(png.read_bytes()).decode() in html
    assert "src='data:image/png;base64," in html and "http" not in html
    assert "0.1235" in html
