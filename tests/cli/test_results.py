"""Results in the user's units (issue 62): clustered.csv, profile.csv, pairs.png and the
agreement with --label-column, from the features as the file holds them."""

from __future__ import annotations

import json
import types

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.cli import main
from kernel_patterns.cli._pairs import pair_plot, separation
from kernel_patterns.cli._results import agreement, cluster_profile, clustered_frame


@pytest.fixture
def wine_csv(tmp_path):
    """wine's shape: two well-separated groups in large units and a `cultivar` column."""
    rng = np.random.default_rng(0)
    y = np.repeat([1, 2], 25)
    frame = pd.DataFrame({"name": [f"w{i}" for i in range(50)],
                          "proline": np.where(y == 1, 1000.0, 500.0) + rng.normal(size=50) * 30,
                          "alcohol": np.where(y == 1, 14.0, 12.0) + rng.normal(size=50) * 0.2,
                          "cultivar": y})
    path = tmp_path / "wine.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_cluster_writes_results_in_the_files_units(tmp_path, capsys, wine_csv) -> None:
    path, frame = wine_csv
    out = tmp_path / "o"
    assert main(["-q", "cluster", str(path), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--label-column", "cultivar", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "agreement with --label-column 'cultivar': adjusted Rand index 1.000" in stdout
    assert "cultivar=1" in stdout and "cultivar=2" in stdout
    clustered = pd.read_csv(out / "clustered.csv")
    assert list(clustered.columns) == [*frame.columns, "cluster"]
    pd.testing.assert_frame_equal(clustered[frame.columns], frame)  # the input as read
    assert pd.read_csv(path).equals(frame)  # the input file untouched
    profile = pd.read_csv(out / "profile.csv")
    assert list(profile["cluster"]) == ["0", "1", "all"]
    assert list(profile.columns) == ["cluster", "size", "share", "proline median",
                                     "proline IQR", "alcohol median", "alcohol IQR"]
    # original units: proline's medians near 500 and 1000, not in [0, 1]
    assert sorted(profile["proline median"][:2].round(-2)) == [500.0, 1000.0]
    assert profile["size"].tolist() == [25, 25, 50]
    assert (out / "pairs.png").stat().st_size > 0
    page = (out / "report.html").read_text()
    assert "Clusters in the file&#x27;s units" in page
    assert "Agreement with &#x27;cultivar&#x27;" in page
    summary = json.loads((out / "summary.json").read_text())
    assert summary["scores"]["adjusted_rand_index"] == pytest.approx(1.0)


def test_clustered_frame_adds_probability_and_outlier_score_when_the_model_has_them() -> None:
    frame = pd.DataFrame({"x": [0.0, 1.0, 9.0], "probability": [1, 2, 3]})
    est = types.SimpleNamespace(probabilities_=np.array([1.0, 0.5, 0.0]),
                                outlier_scores_=np.array([0.0, 0.4, 1.0]))
    out = clustered_frame(frame, np.array([0, 0, -1]), est)
    assert list(out.columns) == ["x", "probability", "cluster", "probability_1",
                                 "outlier_score"]
    assert out["probability_1"].tolist() == [1.0, 0.5, 0.0]
    assert list(frame.columns) == ["x", "probability"]  # not modified
    plain = clustered_frame(frame, np.array([0, 0, -1]), object())
    assert list(plain.columns) == ["x", "probability", "cluster"]


def test_profile_keeps_noise_last_and_all() -> None:
    X = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 50.0], [100.0, 0.0]])
    p = cluster_profile(X, ["a", "b"], np.array([1, 1, 0, -1]))
    assert p["cluster"].tolist() == ["0", "1", "noise", "all"]
    assert p.loc[1, "a median"] == 2.0 and p.loc[1, "b IQR"] == 10.0


def test_pair_plot_picks_the_six_features_that_separate_most(tmp_path) -> None:
    rng = np.random.default_rng(1)
    labels = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 8))
    X[:, [1, 6]] += 5 * labels[:, None]
    assert set(np.argsort(-separation(X, labels))[:2]) == {1, 6}
    names = [f"f{j}" for j in range(8)]
    path, caption = pair_plot(tmp_path / "pairs.png", X, names, labels)
    assert path.stat().st_size > 0
    assert "the 6 of the 8 features that separate the clusters most" in caption


def test_agreement_counts_noise_last() -> None:
    ari, table = agreement(np.array([0, 0, 1, 1]), np.array([1, 1, 0, -1]))
    assert list(table.columns) == ["0", "1", "noise"]
    assert table.values.tolist() == [[0, 2, 0], [1, 0, 1]]
    assert -1 <= ari <= 1


def test_the_clusters_figure_names_its_axes_by_the_features(tmp_path, monkeypatch,
                                                            wine_csv) -> None:
    from kernel_patterns import plotting

    saved = {}
    save = plotting.save_figure

    def recording(fig_or_ax, path, *args, **kw):
        fig = getattr(fig_or_ax, "figure", fig_or_ax)
        saved[path.name] = ([(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes],
                            [t.get_text() for ax in fig.axes for t in ax.texts])
        return save(fig_or_ax, path, *args, **kw)

    monkeypatch.setattr(plotting, "save_figure", recording)
    path, _ = wine_csv
    assert main(["-q", "cluster", str(path), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--out", str(tmp_path / "o")]) == 0
    assert saved["clusters.png"][0] == [("proline", "alcohol")]
    # the pair plot names the features below its bottom row and beside its left column
    texts = saved["pairs.png"][1]
    assert {"proline", "alcohol", "proline\n(histograms)"} <= set(texts)
    assert "1000" in texts  # proline's values as read
