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


def test_sections_render_tables_with_headers_and_figures_beside_them(tmp_path) -> None:
    from kernel_patterns.cli._report import ReportSection, ReportTable

    X, y = datasets.make_two_moons(random_state=0)
    a = plotting.save_figure(plotting.plot_clusters(X, y), tmp_path / "a.png")
    b = plotting.save_figure(plotting.plot_clusters(X), tmp_path / "b.png")
    table = ReportTable(["length scale", "modes"], [[0.5, 4], [1.0, 2]], caption="<trace>",
                        highlight=1)
    html = render_report("t", {}, [a, b], [ReportSection("Why", text="because", tables=[table],
                                                         figures=[a])])
    assert "<thead><tr><th scope='col'>length scale</th><th scope='col'>modes</th>" in html
    assert "<caption>&lt;trace&gt;</caption>" in html and "<p>because</p>" in html
    assert "<tr class='kept'><td>1</td><td>2</td></tr>" in html
    # a figure placed in a section is not repeated under "Figures"; the others are
    beside = html.index("<div class='beside'>")
    figures = html.index("<h2>Figures</h2>")
    assert html.count("<img") == 2 and beside < html.index("alt='a.png'") < figures
    assert html.index("alt='b.png'") > figures


def test_input_section_says_what_was_read_left_out_and_printed() -> None:
    from kernel_patterns.cli._report import input_section

    section = input_section(
        {"file": "d.csv", "n_rows_used": 8, "n_rows_dropped": 2, "dropped_rows": ["r3", "r7"],
         "features": ["a", "b"], "dropped_columns": {"name": "not numeric"},
         "id_column": "id", "label_column": None, "scale": "standard"},
        ["note: row ids from column 'id'"])
    assert section.rows is not None
    assert section.rows["rows used"] == 8 and section.rows["rows dropped (missing values)"] == 2
    assert section.rows["rows dropped: ids"] == ["r3", "r7"]
    assert section.rows["feature columns (2)"] == ["a", "b"]
    assert section.rows["scaling"].startswith("standard: zero mean")
    assert [t.rows for t in section.tables] == [[["name", "not numeric"]],
                                                 [["note: row ids from column 'id'"]]]
    html = render_report("t", {}, [], [section])
    assert "<td class=text>a, b</td>" in html and "r3, r7" in html
    none_left = input_section({"file": "d.csv", "features": ["a"], "scale": "none"})
    assert none_left.rows is not None and none_left.rows["columns left out"] == "none"
    assert none_left.rows["id column"].startswith("none")


def test_no_raw_json_nested_values_are_tables_and_summary_json_is_linked() -> None:
    # issue 62: the report ended in the whole summary.json; a dict cell was json.dumps'd
    summary = {"result": {"rank_sizes": {"1": 3, "2": 5}}, "input": {}}
    html = render_report("t", summary, [], [("Result", {
        "rank_sizes": {"1": 3, "2": 5},
        "ladder": [{"length_scale": 0.5, "n_modes": 3}, {"length_scale": 1.0, "n_modes": 2}]})])
    assert "{" not in html.split("<style>")[1].split("</style>")[1]  # no JSON anywhere
    assert "<tr><th>1</th><td>3</td></tr>" in html
    assert "<th scope='col'>length_scale</th><th scope='col'>n_modes</th>" in html
    assert "<a href='summary.json'>summary.json</a>" in html


def _cluster_with_reason(tmp_path, monkeypatch) -> None:
    """``cluster`` on two blobs, GPClustering's count sentence set to a known one."""
    import numpy as np
    import pandas as pd

    from kernel_patterns.cli import main
    from kernel_patterns.cluster import GPClustering

    fit = GPClustering.fit

    def fit_with_reason(self, X, y=None):
        fit(self, X, y)
        monkeypatch.setattr(type(self.count_trace_), "reason",
                            property(lambda trace: "Two dense groups, one gap."), raising=False)
        return self

    monkeypatch.setattr(GPClustering, "fit", fit_with_reason)
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 6]
    src = tmp_path / "g.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(src, index=False)
    assert main(["-q", "cluster", str(src), "--out", str(tmp_path / "o")]) == 0


def test_the_count_sentence_of_the_gp_model_is_shown_and_printed(tmp_path, capsys,
                                                                 monkeypatch) -> None:
    # the command shows count_trace_.reason in the report and prints it once
    _cluster_with_reason(tmp_path, monkeypatch)
    out = capsys.readouterr().out
    assert out.count("Two dense groups, one gap.") == 1  # the closing line, or its own line
    page = (tmp_path / "o" / "report.html").read_text()
    why = page[page.index("<h2>Why 2 clusters</h2>"):]
    assert "Two dense groups, one gap." in why[:why.index("</p>")]


def test_the_count_sentence_is_said_once_when_the_reason_holds_it(tmp_path, capsys,
                                                                  monkeypatch) -> None:
    # GPClustering's own reason may already be the closing line's: then it is not repeated
    from kernel_patterns.cli._cluster_gp import GPClusterMethod

    monkeypatch.setattr(GPClusterMethod, "count_reason", lambda self, est, k, n: (
        f"found by GP clustering: {est.count_trace_.reason}"))
    _cluster_with_reason(tmp_path, monkeypatch)
    assert capsys.readouterr().out.count("Two dense groups, one gap.") == 1
    page = (tmp_path / "o" / "report.html").read_text()
    assert "<p>found by GP clustering: Two dense groups, one gap.</p>" in page
