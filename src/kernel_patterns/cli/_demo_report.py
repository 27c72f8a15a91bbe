"""The demo's last step, run by ``kernel-patterns demo`` itself: the command-line path a person
with a CSV file takes (it lives in the CLI package because it runs the CLI; the other steps are
in :mod:`kernel_patterns.demos`, which never imports the CLI).

Writes the rings data set as ``cli-input/rings.csv`` and runs
``kernel-patterns cluster rings.csv --method gp --label-column ring`` on it, which writes
labels, a summary, figures and a self-contained ``report.html`` into ``cli-report/``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

NAME = "cli_report"
ORDER = 90

__all__ = ["NAME", "ORDER", "run"]


def run(out_dir: Path) -> dict[str, Any]:
    import pandas as pd

    from .. import _progress, datasets
    from ._registry import COMMANDS

    X, y = datasets.make_rings(random_state=0)
    src = out_dir / "cli-input" / "rings.csv"
    src.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "ring": y}).to_csv(src, index=False)
    report = out_dir / "cli-report"
    cluster = COMMANDS["cluster"]
    parser = argparse.ArgumentParser(prog="kernel-patterns cluster")
    cluster.add_arguments(parser)
    args = parser.parse_args([str(src), "--method", "gp", "--label-column", "ring",
                              "--out", str(report), "--force"])
    quiet, _progress.QUIET = _progress.QUIET, True  # no bars inside the demo's own bar
    try:
        code = cluster.run(args)
    finally:
        _progress.QUIET = quiet
    if code != 0:
        raise RuntimeError(f"kernel-patterns cluster exited with {code}")
    summary = json.loads((report / "summary.json").read_text())
    return {
        "command": f"kernel-patterns cluster {src} --method gp --label-column ring",
        "report": str(report / "report.html"),
        "n_clusters": summary["result"]["n_clusters"],
        "scores": summary["scores"],
    }
