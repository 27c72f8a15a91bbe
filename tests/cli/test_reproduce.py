"""``kernel-patterns reproduce``: a quick run writes Markdown and CSV tables."""

from __future__ import annotations

import pandas as pd

from kernel_patterns.cli import main
from kernel_patterns.experiments import discover


def test_every_paper_experiment_is_registered() -> None:
    assert set(discover()) == {"geodesic", "gp", "ranking", "spectral"}


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


def test_markdown_experiments_write_their_tables_as_csv(tmp_path) -> None:
    out = tmp_path / "rep"
    assert main(["-q", "reproduce", "spectral", "--quick", "--out", str(out)]) == 0
    csvs = list(out.glob("spectral_*.csv"))
    assert len(csvs) == 1
    frame = pd.read_csv(csvs[0])
    assert "kernel_patterns normalized / recluster" in set(frame.iloc[:, 0])
    assert (out / "spectral.md").read_text().startswith("# Spectral clustering")
    assert (out / "spectral_clusters.png").read_bytes()[:4] == b"\x89PNG"  # the figures too


def test_markdown_frames_parses_captioned_tables() -> None:
    from kernel_patterns.experiments import markdown_frames

    text = ("# T\n\n## First table\n\n| a | b |\n|---|---:|\n| 1 | x |\n\n"
            "note\n\n| c |\n|---|\n| 3 |\n")
    frames = markdown_frames(text)
    assert list(frames) == ["first_table", "note"]
    assert frames["first_table"].to_dict("list") == {"a": ["1"], "b": ["x"]}
