"""The built documentation opens in a real browser: headless Chromium loads the home page, a
user-guide page and a gallery page with no console error and every image decoded.

The test builds nothing: ``make docs`` writes ``docs/_build/html`` and ``.ci/run`` runs this
file after it. Where the site has not been built, or Debian's ``chromium`` is missing, the test
skips and says which.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SITE = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"
PAGES = [
    "index.html",
    "user_guide/gp_clustering.html",
    "auto_examples/plot_gp_where_kmeans_fails.html",
]

# First in <head>, before any script of the page: record console.error calls, uncaught
# exceptions, unhandled rejections and resources (scripts, styles, images) that fail to load.
_RECORDER = """<script>(function () {
  var errors = window.__docErrors = [];
  var error = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return error.apply(console, arguments);
  };
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) { errors.push('not loaded: ' + (t.src || t.href)); }
    else { errors.push('uncaught: ' + e.message); }
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    errors.push('unhandled rejection: ' + e.reason);
  });
})();</script>"""

# After the load event (and the virtual-time budget), scroll through the page so that lazy
# images load, then count the images that decoded.
_PROBE = """<script>window.addEventListener('load', function () {
  window.scrollTo(0, document.body.scrollHeight);
  setTimeout(function () {
    var imgs = Array.prototype.slice.call(document.images);
    var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; });
    var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
    document.body.setAttribute('data-probe', ok.length + '/' + imgs.length);
    document.body.setAttribute('data-broken', bad.map(function (i) { return i.src; }).join(' '));
    document.body.setAttribute('data-errors', JSON.stringify(window.__docErrors));
  }, 500);
});</script>"""


def open_in_chromium(page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """The DOM of ``page`` after load (a copy with the recorder and the probe, its relative
    links resolved against the page's own folder by a <base>), and the errors: those the
    recorder saw, and the uncaught ones Chromium logged."""
    assert CHROMIUM is not None
    html = page.read_text(encoding="utf-8")
    assert "<head>" in html and "</body>" in html
    html = html.replace("<head>", f'<head><base href="{page.parent.as_uri()}/">{_RECORDER}', 1)
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    r = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'chrome-profile'}",
         "--allow-file-access-from-files", "--enable-logging=stderr", "--v=0",
         "--window-size=1280,1600", "--virtual-time-budget=8000", "--dump-dom",
         probe.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    m = re.search(r'data-errors="([^"]*)"', r.stdout)
    assert m, r.stdout[:2000]
    errors = json.loads(html_lib.unescape(m.group(1)))
    errors += [line for line in r.stderr.splitlines() if ":CONSOLE" in line and "Uncaught" in line]
    return r.stdout, errors


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed here "
                    "(.ci/run installs it: apt-get install chromium)")
@pytest.mark.skipif(not (SITE / "index.html").exists(),
                    reason="the documentation is not built here (make docs writes docs/_build)")
@pytest.mark.parametrize("name", PAGES)
def test_docs_page_opens_with_its_images(name: str, tmp_path: Path) -> None:
    page = SITE / name
    assert page.exists(), f"{name} is missing from the built site"
    dom, errors = open_in_chromium(page, tmp_path)
    assert errors == [], "\n".join(errors)
    m = re.search(r'data-probe="(\d+)/(\d+)"', dom)
    assert m, dom[:2000]
    loaded, total = map(int, m.groups())
    broken = re.search(r'data-broken="([^"]*)"', dom)
    assert total >= 1, f"{name} shows no image"
    assert loaded == total, f"{name}: images that did not load: {broken and broken.group(1)}"
    # the page is the one asked for, with its content rendered by the theme
    assert 'class="bd-article' in dom or "bd-content" in dom
