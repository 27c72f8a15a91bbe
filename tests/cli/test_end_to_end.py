"""End to end: the installed ``kernel-patterns`` command on generated CSV and Parquet files,
every method, every output file checked."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kernel_patterns import datasets

EXE = shutil.which("kernel-patterns", path=str(Path(sys.executable).parent))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    assert EXE is not None, "the kernel-patterns entry point is not installed"
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300,
                          check=False)


def write(frame: pd.DataFrame, path: Path) -> Path:
    if path.suffix == ".parquet":
        frame.to_parquet(path)
    else:
        frame.to_csv(path, index=False, sep="\t" if path.suffix == ".tsv" else ",")
    return path


@pytest.fixture(scope="module")
def moons_frame() -> pd.DataFrame:
    X, y = datasets.make_two_moons(n_samples=(52, 48), noise=0.05, random_state=0)
    return pd.DataFrame({"id": [f"m{i:03d}" for i in range(len(y))], "x": X[:, 0],
                         "y": X[:, 1], "moon": y})


CLUSTER_ARGS = {
    "gp": ["--kernel", "gp", "--kernel-param", "v0=1", "--kernel-param", "v1=10",
           "--kernel-param", "v2=0.5", "--kernel-param", "l=60"],
    "kernel-kmeans": ["--n-clusters", "2", "--kernel", "rbf", "--kernel-param", "gamma=30"],
    "soft-kernel-kmeans": ["--n-clusters", "2", "--kernel", "rbf", "--kernel-param",
                           "gamma=30", "--param", "beta=20"],
    "spectral": ["--n-clusters", "2", "--kernel", "rbf", "--kernel-param", "gamma=60"],
}


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("method", sorted(CLUSTER_ARGS))
def test_cluster_every_method(tmp_path, moons_frame, method, suffix) -> None:
    src = write(moons_frame, tmp_path / f"moons{suffix}")
    before = src.read_bytes()
    out = tmp_path / "out"
    r = run_cli("cluster", str(src), "--method", method, "--label-column", "moon",
                "--id-column", "id", "--out", str(out), *CLUSTER_ARGS[method])
    assert r.returncode == 0, r.stderr
    assert src.read_bytes() == before
    labels = pd.read_csv(out / "labels.csv")
    assert labels["id"].tolist() == moons_frame["id"].tolist()
    assert labels["label"].nunique() >= 2
    if method == "soft-kernel-kmeans":
        p = labels[["p_0", "p_1"]].to_numpy()
        np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-9)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["method"] == method
    assert summary["input"]["features"] == ["x", "y"]
    assert sum(summary["result"]["cluster_sizes"].values()) == 100
    for key in ("reference_error", "cluster_error", "f_score", "accuracy",
                "adjusted_rand_index"):
        assert 0.0 <= summary["scores"][key] <= 1.0
    assert summary["timings_seconds"]["fit"] >= 0
    assert (out / "clusters.png").read_bytes()[:4] == b"\x89PNG"
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == len(list(out.glob("*.png")))
    if method == "gp":
        assert (out / "variance_landscape.png").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_cluster_high_dimensional_uses_a_kernel_mds_view(tmp_path) -> None:
    X, y = datasets.make_gaussians(5, n_per_cluster=20, random_state=0)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)]).assign(truth=y)
    src = write(frame, tmp_path / "g.tsv")
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "5",
                "--label-column", "truth", "--scale", "standard", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["scores"]["accuracy"] > 0.95


@pytest.mark.parametrize("method", ["mds", "laplacian"])
def test_embed(tmp_path, moons_frame, method) -> None:
    src = write(moons_frame, tmp_path / "m.parquet")
    out = tmp_path / "e"
    r = run_cli("embed", str(src), "--method", method, "--label-column", "moon",
                "--id-column", "id", "--kernel", "rbf", "--kernel-param", "gamma=20",
                "--out", str(out))
    assert r.returncode == 0, r.stderr
    emb = pd.read_csv(out / "embedding.csv")
    assert list(emb.columns) == ["id", "component_1", "component_2", "moon"]
    assert np.isfinite(emb[["component_1", "component_2"]].to_numpy()).all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["n_components"] == 2
    assert (out / "embedding.png").exists() and (out / "report.html").exists()


def test_embed_laplacian_default_is_the_knn_graph(tmp_path, moons_frame) -> None:
    src = write(moons_frame, tmp_path / "m.parquet")
    out = tmp_path / "e"
    r = run_cli("embed", str(src), "--method", "laplacian", "--label-column", "moon",
                "--id-column", "id", "--out", str(out))
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["parameters"]["kernel"] == "nearest_neighbors"
    assert summary["parameters"]["n_neighbors"] == "auto"
    assert summary["result"]["n_neighbors"] == 10  # √(100 / 2) = 7, at least 10
    assert summary["result"]["n_connected_components"] >= 1
    r = run_cli("embed", str(src), "--method", "laplacian", "--kernel-param", "gamma=20",
                "--out", str(tmp_path / "bad"))
    assert r.returncode != 0 and "--kernel rbf" in r.stderr


@pytest.mark.parametrize("method", ["nu", "online"])
def test_rank_with_predict_file(tmp_path, method) -> None:
    boston = datasets.load_boston()
    frame = pd.DataFrame(boston.data, columns=boston.feature_names).assign(
        medv=boston.target)
    train = write(frame.iloc[:200], tmp_path / "train.csv")
    new = write(frame.iloc[200:260].drop(columns=["medv"]), tmp_path / "new.parquet")
    out = tmp_path / "r"
    r = run_cli("rank", str(train), "--target", "medv", "--bins", "5", "--predict", str(new),
                "--method", method, "--scale", "standard", "--out", str(out))
    assert r.returncode == 0, r.stderr
    pred = pd.read_csv(out / "predictions.csv")
    assert len(pred) == 60 and pred["rank"].between(1, 5).all()
    tr = pd.read_csv(out / "train_predictions.csv")
    assert len(tr) == 200 and set(tr.columns) == {"row", "target", "f", "rank", "cv_rank"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["n_predicted"] == 60
    th = summary["result"]["thresholds"]
    assert th == sorted(th)
    assert (out / "ranking.png").exists()


def test_existing_output_needs_force_and_errors_are_one_line(tmp_path, moons_frame) -> None:
    src = write(moons_frame, tmp_path / "m.csv")
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                "--id-column", "id", "--out", str(out))
    assert r.returncode == 2 and "pass --force" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert (out / "keep.txt").read_text() == "mine"
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "500",
                "--id-column", "id", "--out", str(tmp_path / "o2"))
    assert r.returncode == 2 and "more than the 100 rows" in r.stderr
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--param", "nope=1",
                "--id-column", "id", "--out", str(tmp_path / "o3"))
    assert r.returncode == 2 and "has no parameter(s) ['nope']" in r.stderr
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                "--columns", "id,x", "--out", str(tmp_path / "o4"))
    assert r.returncode == 2 and "feature column(s) ['id'] are not numeric" in r.stderr
    assert not (tmp_path / "o4").exists()
