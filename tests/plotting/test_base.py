"""Basic figures: they draw what they are given and save atomically."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import datasets, plotting


def test_plot_clusters_colours_by_label_and_marks_centres(tmp_path) -> None:
    X, y = datasets.make_three_moons(random_state=0)
    ax = plotting.plot_clusters(X, y, centers=[[0.0, 0.0], [1.0, 1.0]], title="t")
    assert len(ax.collections) == 2
    np.testing.assert_allclose(ax.collections[0].get_offsets(), X)
    path = plotting.save_figure(ax, tmp_path / "sub" / "c.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((tmp_path / "sub").iterdir()) == [path]  # no temporary file left


def test_plot_errors() -> None:
    with pytest.raises(ValueError, match="X must have 2 columns"):
        plotting.plot_clusters(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="labels has 3 entries but X has 4 rows"):
        plotting.plot_clusters(np.zeros((4, 2)), [0, 1, 2])


def test_plot_clusters_legend_counts_points_and_noise_is_grey_crosses() -> None:
    X, y = datasets.make_three_moons(random_state=0)
    labels = y.copy()
    labels[:7] = -1
    ax = plotting.plot_clusters(X, labels, legend=True, legend_title="cluster (points)")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    counts = np.bincount(labels[labels >= 0])
    assert texts == [f"{k} ({n})" for k, n in enumerate(counts)] + ["noise (7)"]
    assert ax.get_legend().get_title().get_text() == "cluster (points)"
    clusters, noise = ax.collections
    np.testing.assert_allclose(clusters.get_offsets(), X[7:])
    np.testing.assert_allclose(noise.get_offsets(), X[:7])
    np.testing.assert_allclose(noise.get_facecolors()[0][:3], [0.55] * 3)
    assert plotting.plot_clusters(X, y).get_legend() is None  # legend only when asked


def test_plot_clusters_legend_sums_labels_beyond_twenty() -> None:
    X = np.c_[np.arange(30.0), np.zeros(30)]
    ax = plotting.plot_clusters(X, [f"g{i:02d}" for i in range(30)], legend=True)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 20 and texts[0] == "g00 (1)" and texts[-1] == "11 more (11)"
