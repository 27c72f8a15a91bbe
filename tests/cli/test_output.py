"""``--out`` and ``--force`` (``cli/_output.py``): the harsher fuzz's data losses (issue 63).
``--force`` replaces only a folder the tool wrote (its marker file inside) or an empty one,
never the folder holding the input; a failed run leaves no staging folder."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kernel_patterns.cli import main
from kernel_patterns.cli._output import MARKER, check_output
from kernel_patterns.cli._registry import UsageError


def _table(folder):
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(15, 2)), rng.normal(size=(15, 2)) + 6.0]
    src = folder / "in.csv"
    src.write_text("a,b\n" + "\n".join(f"{x:.6f},{y:.6f}" for x, y in X) + "\n")
    return src


def _cluster(src, *extra):
    return main(["--quiet", "cluster", str(src), "--method", "kernel-kmeans",
                 "--n-clusters", "2", *extra])


def _one_error_line(capsys, pattern):
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err


def test_force_never_replaces_the_folder_holding_the_input(tmp_path, capsys) -> None:
    """``--out`` at the input's folder with ``--force`` is refused; the input is intact."""
    src = _table(tmp_path)
    before = src.read_bytes()
    assert _cluster(src, "--out", str(tmp_path), "--force") == 2
    _one_error_line(capsys, r"holds the input .*in\.csv")
    assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]


def test_force_never_empties_a_folder_the_tool_did_not_write(tmp_path, capsys) -> None:
    """A non-empty folder without the marker is not replaced, even with ``--force``."""
    src = _table(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    assert _cluster(src, "--out", str(mine), "--force") == 2
    _one_error_line(capsys, f"--force replaces only a results folder.*{re.escape(MARKER)}")
    assert (mine / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "mine"]


def test_force_replaces_an_empty_folder_and_the_tools_own(tmp_path) -> None:
    """An empty folder, and a results folder the tool wrote, are replaced with ``--force``."""
    src = _table(tmp_path)
    out = tmp_path / "res"
    out.mkdir()
    assert _cluster(src, "--out", str(out), "--force") == 0
    assert (out / MARKER).is_file() and (out / "labels.csv").is_file()
    (out / "old.txt").write_text("from the first run")
    assert _cluster(src, "--out", str(out), "--force") == 0
    assert not (out / "old.txt").exists() and (out / "labels.csv").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("out", [".", ".."])
def test_out_dot_is_a_clear_error_and_leaves_nothing(tmp_path, capsys, monkeypatch,
                                                    out) -> None:
    """``--out .`` / ``..`` (here folders holding the input) are one clear error, with or
    without ``--force`` (not ``PosixPath('.') has an empty name``); no ``.partial`` is
    left."""
    work = tmp_path / "work"
    work.mkdir()
    src = _table(work)
    monkeypatch.chdir(work)
    assert _cluster(src, "--out", out) == 2
    _one_error_line(capsys, r"--out '\.{1,2}' holds the input")
    assert _cluster(src, "--out", out, "--force") == 2
    _one_error_line(capsys, r"holds the input")
    assert sorted(p.name for p in work.iterdir()) == ["in.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"]


def test_out_dot_elsewhere_needs_force_and_a_folder_the_tool_wrote(tmp_path, capsys,
                                                                   monkeypatch) -> None:
    """``--out .`` in another folder: "exists; pass --force"; with ``--force`` in a folder
    the tool did not write, refused; in an empty folder, the results are written there."""
    src = _table(tmp_path)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert _cluster(src, "--out", ".") == 2
    _one_error_line(capsys, r"exists; pass --force")
    assert _cluster(src, "--out", ".", "--force") == 0
    assert (here / "labels.csv").is_file()
    assert here.samefile(".")  # the current folder was filled, not replaced


def test_the_root_is_refused() -> None:
    """``--out /`` is refused before anything is read."""
    with pytest.raises(UsageError, match="root of the file system"):
        check_output("/", force=True)
