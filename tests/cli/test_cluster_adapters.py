"""The cluster command dispatches through one adapter per method (``_cluster.METHODS``): a new
method is a row of the table, and the command never tests an estimator's class."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kernel_patterns.cli._cluster as cluster_cmd
from kernel_patterns import KernelKMeans, cli
from kernel_patterns.cli._cluster_method import ClusterMethod


def test_every_method_has_an_adapter() -> None:
    for name, method in cluster_cmd.METHODS.items():
        assert isinstance(method, ClusterMethod), name
        assert method.estimator.__name__ in {
            "GPClustering", "KernelKMeans", "SoftKernelKMeans", "SpectralClustering"}


def test_the_command_never_tests_an_estimators_class() -> None:
    tree = ast.parse(Path(cluster_cmd.__file__).read_text())
    calls = [n.func.id for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    assert "isinstance" not in calls


class _Named(ClusterMethod):
    """An adapter that reports one more number and names its own reason."""

    def result(self, est):
        return {**super().result(est), "n_features": float(est.n_features_in_)}

    def count_reason(self, est, k, n_clusters):
        return f"asked for {k}"


def test_a_new_method_is_a_row_of_the_table(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(cluster_cmd.METHODS, "my-kmeans",
                        _Named(KernelKMeans, report=("inertia_",)))
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.2, (20, 2)), rng.normal(3, 0.2, (20, 2))])
    src = tmp_path / "two.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(src, index=False)
    assert cli.main(["-q", "cluster", str(src), "--method", "my-kmeans", "--n-clusters", "2",
                     "--out", str(tmp_path / "out")]) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["result"]["why_this_count"] == "asked for 2"
    assert summary["result"]["n_features"] == 2.0
    assert "inertia" in summary["result"]
    capsys.readouterr()


@pytest.mark.parametrize("name", ["kernel-kmeans", "spectral"])
def test_fixed_count_reason(name: str) -> None:
    method = cluster_cmd.METHODS[name]
    est = method.estimator(3)
    assert method.count_reason(est, 3, 3) == "--n-clusters 3"
    assert method.count_reason(est, 2, 3) == "--n-clusters 3; 2 of them are not empty"
