"""``kernel-patterns reproduce``: a quick run writes Markdown and CSV tables."""

from __future__ import annotations

import pandas as pd

from kernel_patterns.cli import main
from kernel_patterns.experiments import discover


def test_every_paper_experiment_is_registered() -> None:
    assert {"ranking"} <= set(discover())


def test_quick_ranking_reproduction_writes_tables(tmp_path, capsys) -> None:
    out = tmp_path / "rep"
    assert main(["-q", "reproduce", "ranking", "--quick", "--out", str(out)]) == 0
    md = (out / "ranking.md").read_text()
    assert "| Boston, 5 ranks | NuRanking |" in md
    frame = pd.read_csv(out / "ranking_raw.csv")
    assert set(frame["method"]) == {"NuRanking", "OnlineRanking", "SVC (nominal)",
                                    "OrderedModel (logit)"}
    assert frame["mae_mean"].between(0, 1).all()


def test_unknown_experiment_exits_2(tmp_path, capsys) -> None:
    assert main(["reproduce", "nope", "--out", str(tmp_path / "x")]) == 2
    assert "unknown experiment 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
