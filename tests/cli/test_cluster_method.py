"""``kernel-patterns cluster data.csv`` with no flags runs GP clustering; the closing line and
the summary say which method ran and why this count; ``--n-clusters`` keeps its meaning."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from kernel_patterns import cli
from kernel_patterns.cli._cluster import DEFAULT_METHOD


@pytest.fixture(scope="module")
def blobs_csv(tmp_path_factory) -> str:
    X, _ = make_blobs(n_samples=120, centers=3, cluster_std=0.6, random_state=0)
    frame = pd.DataFrame(X, columns=["a", "b"])
    frame.insert(0, "id", [f"p{i}" for i in range(len(frame))])
    frame["colour"] = np.array(["red", "blue", "green"])[np.arange(len(frame)) % 3]
    path = tmp_path_factory.mktemp("blobs") / "blobs.csv"
    frame.to_csv(path, index=False)
    return str(path)


def _run(capsys, tmp_path, src: str, *flags: str) -> tuple[str, dict]:
    out = tmp_path / "out"
    assert cli.main(["-q", "cluster", src, *flags, "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    return line, json.loads((out / "summary.json").read_text())


def test_no_flags_runs_gp_and_says_why_this_count(blobs_csv, tmp_path, capsys) -> None:
    assert DEFAULT_METHOD == "gp"
    line, summary = _run(capsys, tmp_path, blobs_csv)
    assert summary["method"] == "gp" and summary["method_given"] is False
    result = summary["result"]
    assert result["n_clusters"] == 3
    assert result["method"] == "gp (GPClustering; the default method, --method chooses another)"
    assert result["why_this_count"].startswith("found by GP clustering: 3 clusters: the "
                                               "clusters of greatest excess of mass")
    assert result["why_this_count"].endswith("read: the count trace)")
    assert line.startswith("gp (the default method): 3 clusters, found by GP clustering: ")
    assert line.endswith(f"; wrote {tmp_path / 'out'}/")
    assert summary["input"]["dropped_columns"] == {"colour": "not numeric"}
    assert summary["input"]["id_column"] == "id"


def test_gp_n_clusters_is_the_most_persistent_groups(blobs_csv, tmp_path, capsys) -> None:
    line, summary = _run(capsys, tmp_path, blobs_csv, "--n-clusters", "2")
    assert summary["method_given"] is False and summary["result"]["n_clusters"] == 2
    assert summary["result"]["why_this_count"] == (
        "--n-clusters 2: the 2 most persistent groups of the GP hierarchy")
    assert line.startswith("gp (the default method): 2 clusters, --n-clusters 2: ")


@pytest.mark.parametrize(("method", "name"), [("kernel-kmeans", "KernelKMeans"),
                                              ("spectral", "SpectralClustering")])
def test_other_methods_say_the_count_is_given_or_their_default(blobs_csv, tmp_path, capsys,
                                                               method, name) -> None:
    line, summary = _run(capsys, tmp_path, blobs_csv, "--method", method, "--n-clusters", "3")
    assert summary["method"] == method and summary["method_given"] is True
    assert summary["result"]["method"] == f"{method} ({name})"
    assert summary["result"]["why_this_count"] == "--n-clusters 3"
    assert line.startswith(f"{method}: 3 clusters, --n-clusters 3; wrote ")
    line, summary = _run(capsys, tmp_path, blobs_csv, "--method", method, "--force")
    why = summary["result"]["why_this_count"]
    assert why.startswith(f"{name}'s default n_clusters=8 (as scikit-learn's; --n-clusters "
                          "sets it; --method gp finds the count)")
    assert summary["result"]["n_clusters"] <= 8


def test_unknown_method_is_a_usage_error(blobs_csv, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["cluster", blobs_csv, "--method", "nope", "--out", str(tmp_path / "o")])
    assert exc.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err
