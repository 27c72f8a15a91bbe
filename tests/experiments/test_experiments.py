"""The experiments package: discovery, the figures each names, and a quick run of one."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from kernel_patterns import demos, experiments
from kernel_patterns.io import write_tables


def test_every_experiment_is_found_and_names_an_existing_figure_step() -> None:
    found = experiments.discover()
    assert sorted(found) == ["geodesic", "gp", "ranking", "spectral"]
    steps = {step.name for step in demos.discover()}
    for exp in found.values():
        assert exp.title and callable(exp.run)
        assert exp.figures in steps, f"{exp.name} names the missing demo step {exp.figures!r}"


def test_quick_spectral_experiment_writes_its_tables(tmp_path: Path) -> None:
    exp = experiments.discover()["spectral"]
    tables = exp.run(tmp_path, quick=True)
    md = write_tables(tmp_path, exp.name, exp.title, tables)
    text = md.read_text()
    assert text.startswith("#") and "|" in text
    csvs = sorted(tmp_path.glob("spectral_*.csv"))
    assert csvs, "the Markdown tables are also written as CSV"
    frame = pd.read_csv(csvs[0])
    assert len(frame) > 0 and len(frame.columns) > 1
    assert not list(tmp_path.glob("*.png")), "experiments draw no figures themselves"


def test_the_table_helpers_are_the_io_ones() -> None:
    from kernel_patterns import io

    assert experiments.write_tables is io.write_tables
    assert experiments.markdown_frames is io.markdown_frames
