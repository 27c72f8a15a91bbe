"""Reading users' files: every bad file exits 2 with a message naming the problem and leaves
no partial output; good files in CSV, TSV and Parquet read the same."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.cli import main
from kernel_patterns.cli._io import parse_params, read_table
from kernel_patterns.cli._output import MARKER, staged_output
from kernel_patterns.cli._registry import UsageError


@pytest.fixture
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({
        "name": [f"p{i}" for i in range(30)],
        "a": rng.normal(size=30),
        "b": rng.normal(size=30),
        "truth": np.repeat([0, 1, 2], 10),
    })


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet"])
def test_csv_tsv_parquet_read_the_same(tmp_path, frame, suffix) -> None:
    path = tmp_path / f"data{suffix}"
    if suffix == ".parquet":
        frame.to_parquet(path)
    else:
        frame.to_csv(path, sep="\t" if suffix == ".tsv" else ",", index=False)
    before = path.read_bytes()
    t = read_table(path, label_column="truth", id_column="name")
    np.testing.assert_allclose(t.X, frame[["a", "b"]].to_numpy())
    assert t.feature_names == ["a", "b"]
    assert t.ids.tolist() == frame["name"].tolist()
    assert t.labels.tolist() == frame["truth"].tolist()
    assert path.read_bytes() == before  # the input is never modified


def test_columns_option_and_drop_na(tmp_path, frame) -> None:
    frame.loc[3, "a"] = np.nan
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(UsageError, match=r"1 row\(s\) have missing .*--drop-na"):
        read_table(path, columns="a,b")
    t = read_table(path, columns="b,a", drop_na=True)
    assert t.X.shape == (29, 2) and t.feature_names == ["b", "a"]
    assert t.n_dropped == 1 and t.dropped_rows == ["p3"]  # named by the guessed id column
    assert t.id_column == "name"


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, [], "does not exist"),
        ("", [], "is empty"),
        ("a,b,truth\n", [], "has a header but no data rows"),
        ("a,b,truth\nx,1,0\ny,2,1\nz,3,1\n", ["--columns", "a,b"],
         r"feature column\(s\) \['a'\] are not numeric"),
        ("a,b,truth\n1,,0\n2,,1\n3,3,1\n", [],
         r"2 row\(s\) have missing or infinite values \(first: \[0, 1\]; by feature: b \(2\)\); "
         r"fix them, leave those features out with --columns"),
        # a missing label is named as such: --columns cannot leave the label out
        ("a,b,truth\n1.5,1,0\n2,2.5,\n3,3,1\n", ["--label-column", "truth"],
         r"1 row\(s\) have missing or infinite values \(first: \[1\]; in --label-column "
         r"'truth' \(1\)\); fix them or pass --drop-na to drop the rows$"),
        ("a,b,truth\n1.5,1,0\n2,,\n3,3,1\n", ["--label-column", "truth"],
         r"\(first: \[1\]; by feature: b \(1\); in --label-column 'truth' \(1\)\); fix "
         r"them, leave those features out with --columns, or pass --drop-na"),
        ("a,b,truth\n1,1,0\n2,2,1\n3,3,1\n", ["--label-column", "nope"],
         "--label-column 'nope' is not a column"),
        ("a,b,truth\n1,1,0\n2,2,1\n3,3,1\n", ["--columns", "a,zz"],
         r"--columns names unknown column\(s\) \['zz'\]"),
    ],
    ids=["missing", "empty", "header-only", "non-numeric", "nan", "nan-label",
         "nan-label-and-feature", "no-label", "bad-columns"],
)
def test_bad_files_exit_2_with_a_message_and_no_output(tmp_path, capsys, content, extra,
                                                       message) -> None:
    path = tmp_path / "in.csv"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "out"
    code = main(["--quiet", "cluster", str(path), "--method", "kernel-kmeans",
                 "--n-clusters", "2", "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert re.search(message, err), err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == (["in.csv"] if content is not None
                                                           else [])


def test_a_missing_target_is_named_with_the_target_flag(tmp_path) -> None:
    p = _write(tmp_path, "r.csv", "a,b,score\n1.5,1,0\n2,2.5,\n3,3,1\n")
    with pytest.raises(UsageError, match=r"in --target 'score' \(1\)\); fix them or pass "
                       r"--drop-na to drop the rows$"):
        read_table(p, label_column="score", label_option="--target")


@pytest.mark.parametrize("option", ["--label-column", "--target"])
def test_one_column_as_both_the_ids_and_the_labels_is_refused(tmp_path, option) -> None:
    # it was accepted: the labels were also the row ids
    p = _write(tmp_path, "r.csv", "a,b,truth\n1.5,1,0\n2,2.5,1\n3,3,1\n")
    with pytest.raises(UsageError, match=f"^--id-column and {option} name the same column "
                       f"'truth'; it cannot be both the row ids and the {option} column"):
        read_table(p, label_column="truth", id_column="truth", label_option=option)


def test_unsupported_suffix(tmp_path) -> None:
    p = _write(tmp_path, "x.xlsx", "a\n1\n")
    with pytest.raises(UsageError, match=r"unsupported type '\.xlsx'"):
        read_table(p)


def test_staged_output_replaces_only_with_force_and_cleans_up(tmp_path) -> None:
    out = tmp_path / "res"
    with staged_output(out) as tmp:
        (tmp / "a.txt").write_text("1")
    assert (out / "a.txt").read_text() == "1"
    with pytest.raises(UsageError, match="exists; pass --force"), staged_output(out):
        pass
    with pytest.raises(RuntimeError), staged_output(out, force=True) as tmp:
        (tmp / "b.txt").write_text("2")
        raise RuntimeError("fail midway")
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a.txt"]  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]  # no staging left
    with staged_output(out, force=True) as tmp:
        (tmp / "c.txt").write_text("3")
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "c.txt"]


def test_parse_params() -> None:
    assert parse_params(["gamma=0.5", "l=[400, 200]", "matrix=normalized"], "--x") == {
        "gamma": 0.5, "l": [400, 200], "matrix": "normalized"}
    with pytest.raises(UsageError, match="--x expects KEY=VALUE"):
        parse_params(["gamma"], "--x")


def test_european_csv_is_read_with_semicolons_and_decimal_commas(tmp_path, frame) -> None:
    src = tmp_path / "eu.csv"
    frame.to_csv(src, sep=";", decimal=",", index=False)  # as a spreadsheet in Europe writes it
    table = read_table(src, label_column="truth")
    np.testing.assert_allclose(table.X, frame[["a", "b"]].to_numpy())
    assert table.feature_names == ["a", "b"] and table.id_column == "name"
    assert table.read_notes == ["read with ';' between fields and ',' as the decimal mark"]
    # integers only: the separator, no decimal mark
    (tmp_path / "int.csv").write_text("a;b;c\n1;2;3\n4;5;6\n7;8;9\n")
    table = read_table(tmp_path / "int.csv")
    np.testing.assert_array_equal(table.X, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert table.read_notes == ["read with ';' between fields"]


def test_a_comma_csv_with_semicolons_in_quoted_text_stays_a_comma_csv(tmp_path) -> None:
    (tmp_path / "q.csv").write_text('name,note,x,y\nA,"p;q",1.5,2\nB,"r;s",2.5,1\nC,t,3.5,0\n')
    table = read_table(tmp_path / "q.csv")
    np.testing.assert_allclose(table.X, [[1.5, 2], [2.5, 1], [3.5, 0]])
    assert table.read_notes == []


def test_a_first_row_of_numbers_is_data_not_a_header(tmp_path, capsys) -> None:
    (tmp_path / "raw.csv").write_text("1,2\n3,4\n5,6\n7,8.5\n")
    table = read_table(tmp_path / "raw.csv")
    np.testing.assert_allclose(table.X, [[1, 2], [3, 4], [5, 6], [7, 8.5]])  # 4 rows, not 3
    assert table.feature_names == ["x0", "x1"]
    assert table.read_notes[0].startswith("the first row is all numbers: read as data")
    out = tmp_path / "o"
    assert main(["-q", "cluster", str(tmp_path / "raw.csv"), "--method", "kernel-kmeans",
                 "--n-clusters", "2", "--out", str(out)]) == 0
    assert "note: the first row is all numbers" in capsys.readouterr().err
    summary = pd.read_json(out / "summary.json", typ="series")
    assert summary["input"]["read_notes"] == table.read_notes
    assert summary["input"]["n_rows_used"] == 4


def test_a_windows_1252_file_is_read_with_its_accents(tmp_path) -> None:
    # a spreadsheet's "CSV" export in Western Europe: Windows-1252, ';' and decimal commas
    (tmp_path / "w.csv").write_bytes("nom;pétale;sépale\nA;1,5;2\nB;2,5;1\nC;3,5;0\n"
                                     .encode("cp1252"))
    table = read_table(tmp_path / "w.csv")
    assert table.feature_names == ["pétale", "sépale"] and table.id_column == "nom"
    np.testing.assert_allclose(table.X, [[1.5, 2], [2.5, 1], [3.5, 0]])
    assert table.read_notes == ["read with ';' between fields and ',' as the decimal mark",
                                "the file is not UTF-8: read as cp1252"]


def test_a_byte_past_the_sample_that_is_not_utf8_still_reads(tmp_path) -> None:
    from kernel_patterns.cli import _sniff

    rows = "".join(f"r{i},{i % 5}.5,{i % 3}\n" for i in range(8000))  # past the 64 KB sample
    (tmp_path / "late.csv").write_bytes(("name,a,b\n" + rows + "é,1.0,2\n").encode("cp1252"))
    assert (tmp_path / "late.csv").stat().st_size > _sniff._SNIFF_BYTES
    table = read_table(tmp_path / "late.csv")
    assert table.X.shape == (8001, 2)
    assert table.read_notes == ["the file is not UTF-8: read as cp1252"]
