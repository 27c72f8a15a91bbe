"""kernel_patterns.io: atomic writes and tables."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.io import (
    atomic_path,
    markdown_frames,
    markdown_table,
    write_json_atomic,
    write_tables,
    write_text_atomic,
)


def test_text_and_json_are_written_whole_into_new_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "x.txt"
    write_text_atomic(target, "hello")
    assert target.read_text() == "hello"
    write_text_atomic(target, "again")  # replaces
    assert target.read_text() == "again"
    write_json_atomic(tmp_path / "s.json", {"n": np.int64(3), "v": np.arange(2),
                                            "p": Path("x")})
    assert json.loads((tmp_path / "s.json").read_text()) == {"n": 3, "v": [0, 1], "p": "x"}
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "s.json", "x.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError, match="boom"), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
    with pytest.raises(TypeError, match="not JSON serialisable: object"):
        write_json_atomic(tmp_path / "bad.json", {"x": object()})
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_atomic_path_keeps_the_suffix_for_writers_that_read_it(tmp_path: Path) -> None:
    with atomic_path(tmp_path / "f.png") as tmp:
        assert tmp.suffix == ".png" and tmp.parent == tmp_path
        tmp.write_bytes(b"x")
    assert (tmp_path / "f.png").read_bytes() == b"x"


def test_tables_round_trip_through_markdown(tmp_path: Path) -> None:
    frame = pd.DataFrame({"data": ["rings", "moons"], "ari": [1.0, 0.98765]})
    md = markdown_table(frame)
    assert md.splitlines()[0] == "| data | ari |" and "0.9877" in md
    parsed = markdown_frames("## Scores\n\n" + md)["scores"]
    assert parsed["data"].tolist() == ["rings", "moons"]
    path = write_tables(tmp_path, "exp", "Title", {"scores": frame})
    assert path.read_text().startswith("# Title")
    assert pd.read_csv(tmp_path / "exp_scores.csv")["ari"].tolist() == [1.0, 0.98765]


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_follow_the_umask_like_open(tmp_path: Path, mask: int) -> None:
    import os

    old = os.umask(mask)
    try:
        write_text_atomic(tmp_path / "t.txt", "x")
        with open(tmp_path / "plain.txt", "w") as fh:  # what a plain open gives
            fh.write("x")
    finally:
        os.umask(old)
    assert (tmp_path / "t.txt").stat().st_mode & 0o777 == 0o666 & ~mask
    assert (tmp_path / "t.txt").stat().st_mode & 0o777 == \
        (tmp_path / "plain.txt").stat().st_mode & 0o777
