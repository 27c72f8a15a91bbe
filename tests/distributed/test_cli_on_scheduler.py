"""End to end: ``kernel-patterns cluster|embed --scheduler ADDRESS`` (cli/_dask.py) against a
real ``dask scheduler`` and two ``dask worker`` processes started on 127.0.0.1 (the
``external_cluster`` fixture of conftest.py); the result equals the local run's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.datasets import make_two_moons

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
