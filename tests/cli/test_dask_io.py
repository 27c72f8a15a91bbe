"""cli/_dask_io.py and the scheduler decisions of cli/_dask.py: the local column rules over a
partitioned Dask frame, scaling from every row, results in partition order with a bar fed by
the scheduler (an in-process two-worker cluster)."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from distributed import Client, LocalCluster
from kernel_patterns.cli import _dask, _dask_io, main
from kernel_patterns.cli._io import read_table
from kernel_patterns.cli._registry import UsageError
from kernel_patterns.cluster import KernelKMeans, SpectralClustering


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as c:
        yield c


def _args(**kw) -> argparse.Namespace:
    base = {"columns": None, "id_column": None, "drop_na": False, "blocksize": 600,
            "param": None}
    return argparse.Namespace(**(base | kw))


@pytest.fixture
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 90
    return pd.DataFrame({
        "idx": np.arange(n),                      # row numbers over the whole file
        "block": np.tile(np.arange(30), 3),       # restarts: no row numbers
        "a": rng.normal(size=n), "b": 5 + 3 * rng.normal(size=n),
        "tag": rng.choice(["u", "v"], size=n),    # text, not unique: left out
        "key": [f"k{i}" for i in range(n)],       # text, unique: the id column
        "truth": np.repeat([0, 1, 2], 30),
    })


def test_a_european_csv_is_read_as_the_local_path_reads_it(client, frame, tmp_path) -> None:
    path = tmp_path / "eu.csv"
    frame.to_csv(path, sep=";", decimal=",", index=False)
    local = read_table(path, label_column="truth")
    t = _dask_io.read_table(str(path), _args(), client, "truth")
    assert t.read_notes == local.read_notes == [
        "read with ';' between fields and ',' as the decimal mark"]
    assert t.feature_names == local.feature_names == ["block", "a", "b"]
    np.testing.assert_allclose(np.asarray(t.X.compute()), local.X)


def test_windows_1252_and_header_less_files_read_as_the_local_path_reads_them(
    client, tmp_path
) -> None:
    (tmp_path / "w.csv").write_bytes("nom;pétale;sépale\n" .encode("cp1252") + "".join(
        f"p{i};{i % 7},5;{i % 3}\n" for i in range(40)).encode("cp1252"))
    (tmp_path / "raw.csv").write_text("".join(f"{(i * 3) % 11},{(i * 7) % 5}.5\n"
                                              for i in range(40)))
    for name in ("w.csv", "raw.csv"):
        local = read_table(tmp_path / name)
        t = _dask_io.read_table(str(tmp_path / name), _args(), client, None)
        assert t.read_notes == local.read_notes and t.read_notes
        assert t.feature_names == local.feature_names
        np.testing.assert_allclose(np.asarray(t.X.compute()), local.X)
    assert local.feature_names == ["x0", "x1"] and local.X.shape == (40, 2)


def test_a_column_empty_in_the_sample_is_left_out_only_when_empty_everywhere(
    client, tmp_path
) -> None:
    rows = [f"r{i},{i % 7},,{'' if i < 1500 else i % 3}\n" for i in range(1600)]
    (tmp_path / "e.csv").write_text("id,a,notes,late\n" + "".join(rows))
    t = _dask_io.read_table(str(tmp_path / "e.csv"), _args(drop_na=True), client, None)
    assert t.dropped_columns == {"notes": "empty"}  # 'late' has values past the sample
    assert t.feature_names == ["a", "late"] and t.n_rows == 100


# Dask warns of skiprows (the comment lines) with blocks smaller than its sample, 256 kB
@pytest.mark.filterwarnings("ignore:Unexpected behavior can result from passing skiprows")
@pytest.mark.parametrize("head, row", [
    ("# exported by X\n# units: mm\nid,a,b\n", "r{i},{a},{b}\n"),  # comment lines
    ("id,a,b\n", "r{i},{a},{b},\n"),                                # a trailing separator
    ("a,b\n", "r{i},{a},{b}\n"),                                     # R's row names
])
def test_messy_headers_read_as_the_local_path_reads_them(client, tmp_path, head, row) -> None:
    rows = "".join(row.format(i=i, a=i % 7, b=(i * 3) % 5) for i in range(2000))
    (tmp_path / "m.csv").write_text(head + rows)
    local = read_table(tmp_path / "m.csv")
    t = _dask_io.read_table(str(tmp_path / "m.csv"), _args(blocksize=4000), client, None)
    assert t.read_notes == local.read_notes and len(t.read_notes) == 1
    assert _dask_io.read_frame(str(tmp_path / "m.csv"), 4000)[0].npartitions > 1
    assert t.feature_names == local.feature_names == ["a", "b"]
    np.testing.assert_allclose(np.asarray(t.X.compute()), local.X)
    assert t.n_rows == 2000 and t.id_column == local.id_column


def test_rows_of_empty_fields_are_skipped_as_the_local_path_skips_them(client, tmp_path) -> None:
    rows = [f"r{i},{i % 7},{(i * 3) % 5}\n" if i % 150 else ",,\n" for i in range(1200)]
    (tmp_path / "b.csv").write_text("name,a,b\n" + "".join(rows))
    local = read_table(tmp_path / "b.csv")
    t = _dask_io.read_table(str(tmp_path / "b.csv"), _args(blocksize=4000), client, None)
    assert _dask_io.read_frame(str(tmp_path / "b.csv"), 4000)[0].npartitions > 1
    assert t.read_notes == local.read_notes == [
        "skipped 8 row(s) whose fields are all empty, as blank lines"]
    assert t.id_column == local.id_column == "name" and t.n_rows == 1192
    gathered = _dask_io.to_local(client, t, t.X)
    np.testing.assert_array_equal(gathered.X, local.X)
    assert gathered.ids.tolist() == local.ids.tolist()
    # without an id column the rows are numbered as locally, the blank ones not counted
    (tmp_path / "n.csv").write_text("a,b\n" + "".join(r.split(",", 1)[1] for r in rows))
    local = read_table(tmp_path / "n.csv")
    t = _dask_io.read_table(str(tmp_path / "n.csv"), _args(blocksize=4000), client, None)
    assert _dask_io.to_local(client, t, t.X).ids.tolist() == local.ids.tolist() == list(
        range(1192))

    # fields of spaces only are empty: a padded export reads as locally
    (tmp_path / "s.csv").write_text("name, a, b\n" + "".join(
        r.replace(",", ", ") if r != ",,\n" else " , , \n" for r in rows))
    local = read_table(tmp_path / "s.csv")
    t = _dask_io.read_table(str(tmp_path / "s.csv"), _args(blocksize=4000), client, None)
    assert t.read_notes == local.read_notes == [
        "skipped 8 row(s) whose fields are all empty, as blank lines"]
    assert t.feature_names == local.feature_names == ["a", "b"] and t.n_rows == 1192
    np.testing.assert_array_equal(_dask_io.to_local(client, t, t.X).X, local.X)


def _late(i: int, n: int, early: str, late: str) -> str:
    return late if i == n else early


def test_values_missing_past_dasks_sample_fail_as_locally(client, tmp_path) -> None:
    # Dask takes each column's type from its first 10 rows: whole numbers, then a value
    # missing at row 1500 (a later partition) was Dask's "Mismatched dtypes" error
    rows = "".join(f"{i},{i + 1},{_late(i, 1500, str(i % 7), '')},{(i * 3) % 5},{i % 2}\n"
                   for i in range(2000))
    (tmp_path / "m.csv").write_text("idx,id,a,b,truth\n" + rows)
    with pytest.raises(UsageError) as local:
        read_table(tmp_path / "m.csv", label_column="truth")
    with pytest.raises(UsageError) as dask:
        _dask_io.read_table(str(tmp_path / "m.csv"), _args(blocksize=4000), client, "truth")
    assert str(dask.value) == str(local.value) == (
        "1 row(s) have missing or infinite values (first: [1501]; by feature: a (1)); fix "
        "them, leave those features out with --columns, or pass --drop-na to drop the rows")
    # with --drop-na: the same table, the ids and the truth integers, 'idx' row numbers
    local = read_table(tmp_path / "m.csv", label_column="truth", drop_na=True)
    t = _dask_io.read_table(str(tmp_path / "m.csv"), _args(blocksize=4000, drop_na=True),
                            client, "truth")
    assert _dask_io.read_frame(str(tmp_path / "m.csv"), 4000)[0].npartitions > 1
    assert t.dropped_columns == local.dropped_columns == {"idx": "row numbers"}
    assert t.dropped_rows == local.dropped_rows == [1501]
    gathered = _dask_io.to_local(client, t, t.X)
    np.testing.assert_array_equal(gathered.X, local.X)
    assert gathered.ids.dtype.kind == gathered.labels.dtype.kind == "i"
    assert gathered.ids.tolist() == local.ids.tolist()
    assert gathered.labels.tolist() == local.labels.tolist()


def test_text_past_dasks_sample_is_read_as_the_local_path_reads_it(client, tmp_path) -> None:
    # numbers in Dask's first 10 rows, then a '?' (row 1500) or a name (row 20): text
    rows = "".join(f"{_late(i, 15, str(i), 'k15')},{_late(i, 1500, str(i % 7), '?')},"
                   f"{_late(i, 20, f'{i}.5', 'tbd')},{(i * 3) % 5}\n" for i in range(2000))
    (tmp_path / "t.csv").write_text("key,a,f,b\n" + rows)
    local = read_table(tmp_path / "t.csv")
    t = _dask_io.read_table(str(tmp_path / "t.csv"), _args(blocksize=4000), client, None)
    assert t.dropped_columns == local.dropped_columns == {
        "a": "not numeric: 1 value is not a number, '?'",
        "f": "not numeric: 1 value is not a number, 'tbd'"}
    assert t.feature_names == local.feature_names == ["b"]
    assert t.id_column == local.id_column == "key"
    gathered = _dask_io.to_local(client, t, t.X)
    assert gathered.ids.tolist() == local.ids.tolist()
    with pytest.raises(UsageError, match=r"feature column\(s\) \['a'\] are not numeric \('a': 1 "
                       r"value is not a number, '\?'\)"):
        _dask_io.read_table(str(tmp_path / "t.csv"), _args(blocksize=4000, columns="a,b"),
                            client, None)


def test_names_the_header_repeats_are_read_as_the_local_path_reads_them(client,
                                                                       tmp_path) -> None:
    rows = "".join(f"r{i},{i % 7},{(i * 3) % 5},{i % 2}\n" for i in range(1000))
    (tmp_path / "d.csv").write_text("id,a,b,a\n" + rows)
    local = read_table(tmp_path / "d.csv")
    t = _dask_io.read_table(str(tmp_path / "d.csv"), _args(blocksize=4000), client, None)
    assert t.read_notes == local.read_notes == [
        "the header names 'a' twice (read as 'a' and 'a.1')"]
    assert t.feature_names == local.feature_names == ["a", "b", "a.1"]
    np.testing.assert_array_equal(np.asarray(t.X.compute()), local.X)
    with pytest.raises(UsageError, match=r"--label-column 'a' is ambiguous: the header names 2 "
                       r"columns 'a' \(read as 'a' and 'a.1'\)"):
        _dask_io.read_table(str(tmp_path / "d.csv"), _args(blocksize=4000), client, "a")


def test_names_a_parquet_file_repeats_are_read_as_the_local_path_reads_them(client,
                                                                          tmp_path) -> None:
    # pyarrow (not pandas) writes a schema naming two columns alike; pandas and Dask then
    # stop at "Multiple matches for FieldRef"
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "pq"
    folder.mkdir()
    for i in range(2):
        cols = [pa.array(np.arange(50.0) * (j + 1) + 100 * i) for j in range(3)]
        pq.write_table(pa.Table.from_arrays(cols, names=["a", "b", "a"]),
                       folder / f"p{i}.parquet")
    local = read_table(folder / "p0.parquet")
    assert local.read_notes == ["the header names 'a' twice (read as 'a' and 'a.1')"]
    assert local.feature_names == ["a", "b", "a.1"]
    np.testing.assert_array_equal(local.X[:, 2], np.arange(50.0) * 3)
    t = _dask_io.read_table(str(folder), _args(), client, None)
    assert t.read_notes == local.read_notes and t.feature_names == local.feature_names
    gathered = _dask_io.to_local(client, t, t.X)
    np.testing.assert_array_equal(gathered.X[:50], local.X)
    assert gathered.X.shape == (100, 3) and gathered.ids.tolist() == list(range(100))
    with pytest.raises(UsageError, match=r"--label-column 'a' is ambiguous"):
        read_table(folder / "p0.parquet", label_column="a")
    with pytest.raises(UsageError, match=r"--label-column 'a' is ambiguous"):
        _dask_io.read_table(str(folder), _args(), client, "a")


@pytest.mark.parametrize("head, row", [("id|a|b\n", "r{i}|{a}|{b}\n"),
                                       ("id | a | b\n", "r{i} | {a} | {b}\n"),
                                       ("id  a  b\n", "r{i}  {a}    {b}\n"),
                                       ("", "{a} {b}\n")])  # numpy.savetxt
def test_a_bar_or_spaces_between_fields_read_as_the_local_path_reads_them(
    client, tmp_path, head, row
) -> None:
    rows = "".join(row.format(i=i, a=f"{i % 7}.5", b=(i * 3) % 5) for i in range(2000))
    (tmp_path / "s.csv").write_text(head + rows)
    local = read_table(tmp_path / "s.csv")
    t = _dask_io.read_table(str(tmp_path / "s.csv"), _args(blocksize=4000), client, None)
    assert _dask_io.read_frame(str(tmp_path / "s.csv"), 4000)[0].npartitions > 1
    assert t.read_notes == local.read_notes and "between fields" in t.read_notes[0]
    assert t.feature_names == local.feature_names and len(t.feature_names) == 2
    gathered = _dask_io.to_local(client, t, t.X)
    np.testing.assert_array_equal(gathered.X, local.X)
    assert gathered.ids.tolist() == local.ids.tolist() and len(local.ids) == 2000


def test_cluster_on_a_scheduler_reads_the_table_once(client, frame, tmp_path, capsys,
                                                    monkeypatch) -> None:
    from kernel_patterns.cli import main

    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    reads = []
    read_table = _dask_io.read_table
    monkeypatch.setattr(_dask_io, "read_table", lambda *a, **k: reads.append(a) or
                        read_table(*a, **k))
    assert main(["-q", "cluster", str(path), "--method", "kernel-kmeans", "--n-clusters", "3",
                 "--label-column", "truth", "--scheduler", client.scheduler.address,
                 "--out", str(tmp_path / "o")]) == 0
    notes = [ln for ln in capsys.readouterr().err.splitlines() if "left out of" in ln]
    assert len(reads) == 1 and len(notes) == 2, notes  # one line per role: ids, text
    # issue 62: results in the file's units on a scheduler too (the gathered fit)
    clustered = pd.read_csv(tmp_path / "o" / "clustered.csv")
    assert list(clustered.columns) == ["key", "block", "a", "b", "truth", "cluster"]
    np.testing.assert_allclose(clustered["b"], frame["b"])  # as read, not scaled
    assert (tmp_path / "o" / "pairs.png").exists()
    profile = pd.read_csv(tmp_path / "o" / "profile.csv")
    assert profile["size"].iloc[-1] == len(frame)
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert [r["column"] for r in summary["input"]["column_roles"]] == list(frame.columns)


def test_a_gzip_csv_is_read_as_the_local_path_reads_it(client, frame, tmp_path) -> None:
    path = tmp_path / "t.csv.gz"
    frame.to_csv(path, index=False)  # pandas compresses it, as the suffix says
    local = read_table(path, label_column="truth")
    t = _dask_io.read_table(str(path), _args(), client, "truth")  # blocksize 600: ignored
    assert t.feature_names == local.feature_names == ["block", "a", "b"]
    np.testing.assert_allclose(np.asarray(t.X.compute()), local.X)
    # cut short (a download interrupted): pandas' words, not Dask's wrapper's
    whole = path.read_bytes()
    path.write_bytes(whole[:len(whole) // 2])
    with pytest.raises(UsageError, match=r"could not read '.*t.csv.gz': Compressed file ended "
                       "before the end-of-stream marker was reached"):
        _dask_io.read_table(str(path), _args(), client, "truth")


def test_same_column_choice_as_the_local_path(client, frame, tmp_path) -> None:
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    assert _dask_io.read_frame(str(path), 600)[0].npartitions >= 3
    local = read_table(path, label_column="truth")
    t = _dask_io.read_table(str(path), _args(), client, "truth")
    assert t.feature_names == local.feature_names == ["block", "a", "b"]
    assert t.dropped_columns == local.dropped_columns == {"idx": "row numbers",
                                                          "tag": "not numeric"}
    assert t.id_column == local.id_column == "key"
    gathered = _dask_io.to_local(client, t, t.X)
    np.testing.assert_array_equal(gathered.X, local.X)
    assert gathered.ids.tolist() == local.ids.tolist()
    assert gathered.labels.tolist() == local.labels.tolist()


def test_bad_rows_and_unknown_columns_fail_as_locally(client, frame, tmp_path) -> None:
    frame.loc[[40, 71], "b"] = np.nan
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(UsageError, match=r"2 row\(s\) have missing .*\['k40', 'k71'\].*--drop-na"):
        _dask_io.read_table(str(path), _args(), client, "truth")
    t = _dask_io.read_table(str(path), _args(drop_na=True, columns="a,b"), client, "truth")
    assert t.n_rows == 88 and t.n_dropped == 2 and t.dropped_rows == ["k40", "k71"]
    with pytest.raises(UsageError, match=r"--label-column 'nope' is not a column"):
        _dask_io.read_table(str(path), _args(), client, "nope")
    with pytest.raises(UsageError, match=r"matches no file"):
        _dask_io.read_table(str(tmp_path / "none-*.csv"), _args(), client, None)
    (tmp_path / "header.csv").write_text("a,b\n")
    with pytest.raises(UsageError, match=r"'.*header.csv' has a header but no data rows"):
        _dask_io.read_table(str(tmp_path / "header.csv"), _args(), client, None)
    (tmp_path / "notes.txt").write_text("a,b\n1,2\n")
    with pytest.raises(UsageError, match=r"unsupported or mixed types \['.txt'\]"):
        _dask_io.read_table(str(tmp_path / "notes.txt"), _args(), client, None)


def test_parquet_folder_and_row_numbers_across_files(client, frame, tmp_path) -> None:
    folder = tmp_path / "pq"
    folder.mkdir()
    for i in range(3):
        frame.iloc[i * 30:(i + 1) * 30][["a", "b"]].to_parquet(folder / f"p{i}.parquet")
    t = _dask_io.read_table(str(folder), _args(), client, None)
    assert t.id_name == "row" and t.X.numblocks[0] == 3
    local = _dask_io.to_local(client, t, t.X)
    assert local.ids.tolist() == list(range(90))
    np.testing.assert_array_equal(local.X, frame[["a", "b"]].to_numpy())


def test_scaling_uses_every_row(client, frame, tmp_path) -> None:
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    t = _dask_io.read_table(str(path), _args(columns="a,b"), client, None)
    X = frame[["a", "b"]].to_numpy()
    mm = np.asarray(client.compute(_dask_io.scale(t.X, "minmax", client)).result())
    np.testing.assert_array_equal(mm, MinMaxScaler().fit_transform(X))  # the same numbers
    st = np.asarray(client.compute(_dask_io.scale(t.X, "standard", client)).result())
    np.testing.assert_allclose(st, StandardScaler().fit_transform(X), atol=1e-12)
    assert _dask_io.scale(t.X, "none", client) is t.X


def _slow(i: int, n: int) -> int:
    time.sleep(0.05 * (n - i))  # the last task finishes first
    return i


def test_results_come_in_partition_order_with_a_bar_per_task(client, monkeypatch) -> None:
    import dask

    ticks: list[int] = []

    class Bar:
        def update(self, n: int = 1) -> None:
            ticks.append(n)

    @contextlib.contextmanager
    def fake_bar(total: int, desc: str):
        assert total == 5 and desc == "work"
        yield Bar()

    monkeypatch.setattr(_dask_io._progress, "progress_bar", fake_bar)
    tasks = [dask.delayed(_slow)(i, 5, dask_key_name=f"slow-{i}") for i in range(5)]
    assert list(_dask_io.in_order(client, tasks, "work")) == [0, 1, 2, 3, 4]
    assert ticks == [1] * 5


def test_write_labels_in_partition_order(client, frame, tmp_path) -> None:
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    t = _dask_io.read_table(str(path), _args(), client, "truth")
    labels = t.X[:, 0].map_blocks(lambda b: (b > 0).astype(np.intp), dtype=np.intp)
    got, truth = _dask_io.write_labels(client, t, labels, Path(tmp_path / "labels.csv"))
    out = pd.read_csv(tmp_path / "labels.csv")
    assert out.columns.tolist() == ["key", "label"]
    assert out["key"].tolist() == frame["key"].tolist()
    assert out["label"].tolist() == (frame["block"] > 0).astype(int).tolist() == got.tolist()
    assert truth.tolist() == frame["truth"].tolist()


def test_when_the_fit_stays_on_the_workers() -> None:
    big = _dask.NYSTROM_ROWS + 1
    assert _dask.nystrom_reason(KernelKMeans(approximation="nystrom"), _args(), 10) == \
        "approximation=nystrom"
    assert "rows > " in _dask.nystrom_reason(KernelKMeans(), _args(), big)
    assert _dask.nystrom_reason(KernelKMeans(), _args(param=["approximation=exact"]), big) \
        is None
    assert _dask.nystrom_reason(KernelKMeans(), _args(), 10) is None
    assert _dask.nystrom_reason(SpectralClustering(), _args(), big) is None
    kw = _dask.nystrom_kwargs(KernelKMeans(n_init="auto", random_state=4), 120)
    assert kw["n_landmarks"] == 120 and kw["n_init"] == 10 and kw["random_state"] == 4


def test_column_roles_over_every_partition_are_the_local_ones(client, tmp_path) -> None:
    # issue 62: one set of rules; the Dask reader's statistics span every partition (an
    # `index` counting 1..15 within groups across block boundaries, a `year`, a class column)
    rng = np.random.default_rng(5)
    n = 60
    frame = pd.DataFrame({
        "index": np.tile(np.arange(1, 16), 4), "FL": rng.normal(15, 3, size=n),
        "RW": rng.normal(13, 2, size=n), "year": np.tile([2007, 2008, 2009], 20),
        "cultivar": np.repeat([1, 2, 3], 20), "sp": np.repeat(["B", "O"], 30)})
    path = tmp_path / "crabs.csv"
    frame.to_csv(path, index=False)
    local = read_table(path)
    t = _dask_io.read_table(str(path), _args(blocksize=400, keep_columns=None), client, None)
    assert t.roles == local.roles
    assert {r.name: r.role for r in t.roles} == {
        "index": "id", "FL": "feature", "RW": "feature", "year": "label-like",
        "cultivar": "label-like", "sp": "text"}
    assert t.feature_names == local.feature_names == ["FL", "RW"]


@pytest.mark.parametrize("size", ["0", "0.5", "-5", "lots"])
def test_a_blocksize_that_is_no_size_above_0_is_refused(size) -> None:
    """``--blocksize 0`` with ``--scheduler`` was a ZeroDivisionError in Dask's reader."""
    from kernel_patterns.cli._dask import check_blocksize

    with pytest.raises(UsageError, match=rf"^--blocksize '{re.escape(size)}' is not a size "
                       "above 0; give bytes of CSV per partition, e.g. 16MB$"):
        check_blocksize(size)
    assert check_blocksize("16MB") == 16_000_000 and check_blocksize(None) is None


def test_blocksize_0_on_a_scheduler_exits_2_naming_the_option(client, tmp_path,
                                                               capsys) -> None:
    """The command line: one error line naming ``--blocksize``."""
    src = tmp_path / "t.csv"
    src.write_text("a,b\n" + "\n".join(f"{i % 7}.5,{i % 3}" for i in range(40)) + "\n")
    code = main(["--quiet", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters",
                 "2", "--scheduler", client.scheduler.address, "--blocksize", "0",
                 "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "--blocksize '0' is not a size above 0" in err
    assert len(err.strip().splitlines()) == 1


def test_parquet_parts_that_disagree_on_their_columns_are_one_error(client, tmp_path) -> None:
    """A Parquet folder whose parts have other columns: one error naming both parts (was a
    ``KeyError ... not in index`` from Dask's reader)."""
    parts = tmp_path / "parts"
    parts.mkdir()
    pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}).to_parquet(parts / "p0.parquet")
    pd.DataFrame({"a": [1.0, 2.0], "c": [3.0, 4.0]}).to_parquet(parts / "p1.parquet")
    with pytest.raises(UsageError, match=r"the Parquet parts of '.*parts' disagree on their "
                       r"columns: 'p1\.parquet' lacks \['b'\] and has \['c'\], against "
                       r"'p0\.parquet'; write every part with the same columns$"):
        _dask_io.read_table(str(parts), _args(), client, None)


def test_parquet_nested_columns_are_left_out_on_the_scheduler_too(client, tmp_path) -> None:
    """Struct and bytes columns are left out by the Dask reader as by the local one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "n.parquet"
    pq.write_table(pa.table({"a": [1.0, 2.0, 3.0], "s": pa.array([{"u": 1}] * 3),
                             "b": [4.0, 5.0, 6.5], "blob": [b"\xff", b"\xfe", b"\xfd"]}), src)
    table = _dask_io.read_table(str(src), _args(), client, None)
    assert table.feature_names == ["a", "b"]
    assert any("'s'" in n and "'blob' (bytes)" in n for n in table.read_notes)


def test_a_csv_glob_in_mixed_encodings_is_one_error_naming_the_files(client,
                                                                     tmp_path) -> None:
    """Parts in UTF-8 and Windows-1252 (``error: UnicodeDecodeError`` from a worker)."""
    (tmp_path / "p0.csv").write_bytes("é,b\n1.5,2\n3,4\n".encode())
    (tmp_path / "p1.csv").write_bytes("é,b\n5.5,6\n7,8\n".encode("cp1252"))
    with pytest.raises(UsageError, match=r"the files of '.*p\*\.csv' are in different "
                       r"encodings: 'p0\.csv' is utf-8, 'p1\.csv' is cp1252; save them in one "
                       r"encoding \(UTF-8\)$"):
        _dask_io.read_table(str(tmp_path / "p*.csv"), _args(), client, None)
