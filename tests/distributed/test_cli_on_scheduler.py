"""End to end: ``kernel-patterns cluster|embed --scheduler ADDRESS`` (cli/_dask.py,
cli/_dask_io.py) against a real ``dask scheduler`` and two ``dask worker`` processes started on
127.0.0.1 (the ``external_cluster`` fixture of conftest.py), reading multi-partition CSVs (one
file cut by ``--blocksize``, or a glob of files): the exact path equals the local run, the
Nyström path equals ``distributed.nystrom_kmeans`` on the same Dask array."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.datasets import make_two_moons
from kernel_patterns.distributed import nystrom_kmeans
from kernel_patterns.kernels import RBF

EXE = shutil.which("kernel-patterns", path=str(Path(sys.executable).parent))


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    assert EXE is not None, "the kernel-patterns entry point is not installed"
    full = {k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"}
    return subprocess.run([EXE, *args, "--quiet"], capture_output=True, text=True,
                          timeout=300, check=False, env={**full, **(env or {})})


@pytest.fixture
def moons_csv(tmp_path: Path) -> Path:
    X, y = make_two_moons((110, 90), noise=0.05, random_state=0)
    path = tmp_path / "moons.csv"
    pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "moon": y}).to_csv(path, index=False)
    return path


@pytest.mark.slow
def test_cluster_and_embed_on_a_dask_scheduler(external_cluster, moons_csv, tmp_path):
    address, _ = external_cluster
    common = ["--label-column", "moon", "--kernel", "rbf", "--kernel-param", "gamma=20"]
    local = run_cli("cluster", str(moons_csv), "--method", "kernel-kmeans", "--n-clusters",
                    "2", *common, "--out", str(tmp_path / "local"))
    assert local.returncode == 0, local.stderr
    dist = run_cli("cluster", str(moons_csv), "--method", "kernel-kmeans", "--n-clusters",
                   "2", *common, "--scheduler", address, "--out", str(tmp_path / "dask"))
    assert dist.returncode == 0, dist.stderr
    summary = json.loads((tmp_path / "dask" / "summary.json").read_text())
    assert summary["result"]["scheduler"] == address
    assert summary["result"]["workers"] == 2
    assert "scheduler" not in json.loads((tmp_path / "local" / "summary.json").read_text())[
        "result"]
    assert pd.read_csv(tmp_path / "dask" / "labels.csv").equals(
        pd.read_csv(tmp_path / "local" / "labels.csv"))
    # the address from the environment, as Dask's own tools read it
    emb_local = run_cli("embed", str(moons_csv), "--method", "mds", *common,
                        "--out", str(tmp_path / "emb-local"))
    emb_dask = run_cli("embed", str(moons_csv), "--method", "mds", *common,
                       "--out", str(tmp_path / "emb-dask"),
                       env={"DASK_SCHEDULER_ADDRESS": address})
    assert emb_local.returncode == 0 and emb_dask.returncode == 0, emb_dask.stderr
    assert json.loads((tmp_path / "emb-dask" / "summary.json").read_text())["result"][
        "scheduler"] == address
    a = pd.read_csv(tmp_path / "emb-local" / "embedding.csv").filter(like="component")
    b = pd.read_csv(tmp_path / "emb-dask" / "embedding.csv").filter(like="component")
    assert np.allclose(np.abs(a.to_numpy()), np.abs(b.to_numpy()), atol=1e-8)


def test_unreachable_scheduler_is_a_one_line_error(moons_csv, tmp_path):
    res = run_cli("cluster", str(moons_csv), "--method", "kernel-kmeans", "--n-clusters",
                  "2", "--out", str(tmp_path / "out"), "--scheduler", "tcp://127.0.0.1:9",
                  env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert res.returncode == 2
    assert "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in res.stderr
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", ["local", "tcp://host", "foo://host:1"])
def test_a_malformed_scheduler_address_is_a_one_line_error_at_once(moons_csv, tmp_path,
                                                                   address):
    # no Client is made: one that fails on its address waits 60 s to close at exit
    res = run_cli("cluster", str(moons_csv), "--method", "kernel-kmeans", "--n-clusters",
                  "2", "--out", str(tmp_path / "out"), "--scheduler", address)
    assert res.returncode == 2, res.stderr
    assert f"error: --scheduler '{address}' is not a scheduler address (" in res.stderr
    assert "tcp://host:8786" in res.stderr
    assert "Traceback" not in res.stderr and "Exception ignored" not in res.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture
def messy_csv(tmp_path: Path) -> Path:
    """Moons with a row-number column, a text id column, a text column to leave out and one
    row with a missing value: every column rule of the local path is at work."""
    X, y = make_two_moons((110, 90), noise=0.05, random_state=1)
    df = pd.DataFrame({"rownum": np.arange(1, 201), "name": [f"p{i}" for i in range(200)],
                       "x": X[:, 0], "y": 10 * X[:, 1], "colour": ["red", "blue"] * 100,
                       "moon": y})
    df.loc[57, "x"] = np.nan
    path = tmp_path / "messy.csv"
    df.to_csv(path, index=False)
    return path


@pytest.mark.slow
def test_partitioned_read_gives_the_local_labels(external_cluster, messy_csv, tmp_path):
    import dask.dataframe as dd

    address, _ = external_cluster
    assert dd.read_csv(messy_csv, blocksize=2000).npartitions >= 4  # really partitioned
    common = ["--method", "kernel-kmeans", "--n-clusters", "2", "--label-column", "moon",
              "--kernel", "rbf", "--kernel-param", "gamma=20", "--scale", "standard",
              "--drop-na"]
    local = run_cli("cluster", str(messy_csv), *common, "--out", str(tmp_path / "local"))
    dist = run_cli("cluster", str(messy_csv), *common, "--scheduler", address,
                   "--blocksize", "2000", "--out", str(tmp_path / "dask"))
    assert local.returncode == 0, local.stderr
    assert dist.returncode == 0, dist.stderr
    # the same note on the columns, and the note that the fit gathers the table
    for run in (local, dist):  # one line per role that left columns out, one for the rest
        assert "note: left out of the features: 'rownum' (row numbers)\n" in run.stderr
        assert "note: left out of the features: 'colour' (not numeric)\n" in run.stderr
        assert "row ids from column 'name'" in run.stderr
    assert "the fit runs in this process on the gathered table (199 x 2)" in dist.stderr
    a = pd.read_csv(tmp_path / "local" / "labels.csv")
    b = pd.read_csv(tmp_path / "dask" / "labels.csv")
    assert a.equals(b) and len(b) == 199 and "p57" not in set(b["name"])
    sa = json.loads((tmp_path / "local" / "summary.json").read_text())
    sb = json.loads((tmp_path / "dask" / "summary.json").read_text())
    assert sa["input"] | {"file": None} == sb["input"] | {"file": None}
    assert sb["input"]["dropped_rows"] == ["p57"]
    assert sa["scores"] == sb["scores"]
    # without --drop-na: the local path's error, worded the same, naming the feature and
    # the label column that hold the missing values
    frame = pd.read_csv(messy_csv)
    frame.loc[120, "moon"] = np.nan
    frame.to_csv(messy_csv, index=False)
    errors = [run_cli("cluster", str(messy_csv), *common[:-1], *where,
                      "--out", str(tmp_path / "bad")).stderr.strip().splitlines()[-1]
              for where in ([], ["--scheduler", address, "--blocksize", "2000"])]
    assert errors[0] == errors[1]
    assert ("2 row(s) have missing or infinite values (first: ['p57', 'p120']; by feature: "
            "x (1); in --label-column 'moon' (1)); fix them, leave those features out with "
            "--columns, or pass --drop-na to drop the rows") in errors[1]


@pytest.mark.slow
def test_nystrom_on_the_workers_equals_nystrom_kmeans(external_cluster, tmp_path):
    import dask.dataframe as dd

    from distributed import Client

    address, _ = external_cluster
    X, y = make_two_moons((700, 500), noise=0.05, random_state=2)
    parts = tmp_path / "parts"
    parts.mkdir()
    frame = pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "moon": y})
    for i in range(3):  # a glob of three files: three partitions
        frame.iloc[i * 400:(i + 1) * 400].to_csv(parts / f"part-{i}.csv", index=False)
    res = run_cli("cluster", str(parts / "part-*.csv"), "--method", "kernel-kmeans",
                  "--n-clusters", "2", "--label-column", "moon", "--kernel", "rbf",
                  "--kernel-param", "gamma=20", "--param", "approximation=nystrom",
                  "--param", "n_landmarks=60", "--random-state", "3", "--scheduler", address,
                  "--out", str(tmp_path / "ny"))
    assert res.returncode == 0, res.stderr
    assert "nystrom_kmeans on the workers, the data stays there: approximation=nystrom" \
        in res.stderr
    got = pd.read_csv(tmp_path / "ny" / "labels.csv")
    assert got["row"].tolist() == list(range(1200))  # row numbers across the files, in order
    summary = json.loads((tmp_path / "ny" / "summary.json").read_text())
    assert summary["result"]["fit"] == "distributed.nystrom_kmeans on the workers"
    assert summary["result"]["n_clusters"] == 2 and 0 <= summary["scores"]["accuracy"] <= 1
    # the same fit by hand: the files as a Dask array, min-max scaled from the whole data
    with Client(address, timeout=30) as client:
        Xd = dd.read_csv(str(parts / "part-*.csv"))[["x", "y"]].to_dask_array(lengths=True)
        lo, hi = X.min(axis=0), X.max(axis=0)
        Xd = (Xd - lo) / (hi - lo)
        ref = nystrom_kmeans(Xd, 2, kernel=RBF(gamma=20), n_landmarks=60, n_init=10,
                             max_iter=300, tol=0.0, random_state=3, client=client)
        want = client.compute(ref.labels).result()
    np.testing.assert_array_equal(got["label"].to_numpy(), want)


@pytest.mark.slow
def test_scheduler_lost_mid_run_is_a_one_line_error(external_cluster, tmp_path):
    """The scheduler is SIGKILLed once the output folder is staged (the table read, the fit
    under way): exit 2, one line naming the scheduler, no traceback, no output."""
    address, scheduler = external_cluster
    X, y = make_two_moons((30_000, 30_000), noise=0.05, random_state=0)
    path = tmp_path / "big.csv"
    pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "moon": y}).to_csv(path, index=False)
    full = {k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"}
    proc = subprocess.Popen(
        [str(EXE), "cluster", str(path), "--method", "kernel-kmeans", "--n-clusters", "2",
         "--kernel", "rbf", "--kernel-param", "gamma=20", "--param", "approximation=nystrom",
         "--param", "n_landmarks=200", "--scheduler", address, "--blocksize", "200KB",
         "--out", str(tmp_path / "out"), "--quiet"],
        stderr=subprocess.PIPE, text=True,
        env={**full, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".out.*.partial")):  # staged: the fit starts now
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run never reached its fit"
            time.sleep(0.02)
        scheduler.kill()
        _, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 2, err
    assert f"the Dask scheduler at {address}" in err, err
    assert "Traceback" not in err, err
    assert len([line for line in err.splitlines() if "error:" in line]) == 1
    assert not (tmp_path / "out").exists()
