"""Demo step: the command-line path a person with a CSV file takes.

Writes the rings data set as ``cli-input/rings.csv`` and runs
``kernel-patterns cluster rings.csv --method gp --label-column ring`` on it, which writes
labels, a summary, figures and a self-contained ``report.html`` into ``cli-report/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NAME = "cli_report"
ORDER = 90


def run(out_dir: Path) -> dict[str, Any]:
    import pandas as pd

    from .. import datasets
    from ..cli import main

    X, y = datasets.make_rings(random_state=0)
    src = out_dir / "cli-input" / "rings.csv"
    src.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "ring": y}).to_csv(src, index=False)
    report = out_dir / "cli-report"
    code = main(["--quiet", "cluster", str(src), "--method", "gp", "--label-column", "ring",
                 "--out", str(report), "--force"])
    if code != 0:
        raise RuntimeError(f"kernel-patterns cluster exited with {code}")
    summary = json.loads((report / "summary.json").read_text())
    return {
        "command": f"kernel-patterns cluster {src} --method gp --label-column ring",
        "report": str(report / "report.html"),
        "n_clusters": summary["result"]["n_clusters"],
        "scores": summary["scores"],
    }
