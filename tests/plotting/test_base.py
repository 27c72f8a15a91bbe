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
