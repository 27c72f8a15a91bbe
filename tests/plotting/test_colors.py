"""Cluster colours (issue 62): distinct past ten clusters, noise grey, one colour per cluster."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgba

from kernel_patterns import plotting
from kernel_patterns.plotting import NOISE_COLOR, cluster_colors, label_colors


def test_26_clusters_get_26_distinct_colours_none_grey() -> None:
    colors = cluster_colors(26)
    assert len({tuple(c) for c in colors.round(4)}) == 26
    # far apart: no two closer than a tenth of the RGB cube's side, none the noise grey
    d = np.linalg.norm(colors[:, None, :3] - colors[None, :, :3], axis=-1)
    assert d[~np.eye(26, dtype=bool)].min() > 0.1
    assert np.linalg.norm(colors[:, :3] - np.array(NOISE_COLOR[:3]), axis=1).min() > 0.1
    assert len({tuple(c) for c in cluster_colors(40).round(4)}) == 40


def test_the_first_nine_are_tab10_but_grey_and_a_cluster_keeps_its_colour() -> None:
    np.testing.assert_allclose(cluster_colors(9)[:, :3],
                               [to_rgba(f"C{i}")[:3] for i in range(10) if i != 7], atol=1e-6)
    np.testing.assert_array_equal(cluster_colors(30)[:12], cluster_colors(12))
    # cluster 3 has the same colour whichever other clusters a figure shows
    np.testing.assert_array_equal(label_colors([3, 0])[0], label_colors([3, 25, -1])[0])
    np.testing.assert_array_equal(label_colors([-1])[0], NOISE_COLOR)


def test_plot_clusters_draws_26_clusters_in_26_colours() -> None:
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(26), 3)
    ax = plotting.plot_clusters(rng.normal(size=(78, 2)), labels, legend=True)
    faces = ax.collections[0].get_facecolors()
    assert len({tuple(c) for c in faces.round(4)}) == 26
    assert len({tuple(h.get_color()) for h in ax.get_legend().legend_handles}) == 20  # 19+more


def test_cluster_colors_rejects_a_negative_count() -> None:
    with pytest.raises(ValueError, match="n must be >= 0"):
        cluster_colors(-1)
