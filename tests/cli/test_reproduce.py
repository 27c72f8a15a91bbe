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


def test_the_run_records_its_timings(tmp_path) -> None:
    import json

    from kernel_patterns.cli._reproduce import _previous

    out, extra = tmp_path / "rep", tmp_path / "timings.json"
    assert main(["-q", "reproduce", "spectral", "--quick", "--out", str(out),
                 "--timings", str(extra)]) == 0
    record = json.loads((out / "reproduce_timings.json").read_text())
    assert set(record["seconds"]) == {"spectral"} and record["seconds"]["spectral"] > 0
    assert record["total_seconds"] >= record["seconds"]["spectral"]
    assert record["quick"] is True and record["cpu_count"] >= 1
    assert json.loads(extra.read_text()) == record
    assert _previous(out) == record["seconds"]  # the next run's bars expect these times
    assert _previous(tmp_path / "nowhere") == {}


def test_each_experiment_gets_a_progress_bar_on_a_terminal(monkeypatch, capsys) -> None:
    import time

    from kernel_patterns import _progress
    from kernel_patterns.cli._reproduce import _timed_bar

    monkeypatch.setattr(_progress, "QUIET", False)
    with _timed_bar("geodesic", 3.0):
        time.sleep(1.2)
    err = capsys.readouterr().err
    assert "reproduce geodesic" in err and "/3" in err
    monkeypatch.setattr(_progress, "QUIET", True)
    with _timed_bar("gp", None):
        time.sleep(0.6)
    assert capsys.readouterr().err == ""
