"""Embedding scatter and eigenvalue-spectrum figures."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import plotting


def test_plot_embedding_2d_3d_labels_and_ranks(tmp_path):
    Z = np.random.default_rng(0).normal(size=(40, 3))
    ax = plotting.plot_embedding(Z[:, :2], labels=np.arange(40) % 4, title="t")
    assert len(ax.collections) == 4 and ax.get_title() == "t"
    ax3 = plotting.plot_embedding(Z, ranks=np.arange(40))
    assert ax3.name == "3d"
    assert plotting.save_figure(ax3, tmp_path / "e.png").exists()


def test_plot_embedding_bad_input():
    Z = np.zeros((5, 4))
    with pytest.raises(ValueError, match="2 or 3 columns"):
        plotting.plot_embedding(Z)
    with pytest.raises(ValueError, match="labels has 3 entries"):
        plotting.plot_embedding(Z[:, :2], labels=[0, 1, 2])
    with pytest.raises(ValueError, match="not both"):
        plotting.plot_embedding(Z[:, :2], labels=np.zeros(5), ranks=np.zeros(5))


def test_plot_spectrum_marks_the_gap():
    ax = plotting.plot_spectrum([0.0, 0.01, 0.02, 0.5, 0.6], ascending=True)
    assert ax.gap_index_ == 3
    ax = plotting.plot_spectrum([1.0, 0.9, 0.5], n_selected=1)
    assert ax.gap_index_ == 1
    with pytest.raises(ValueError, match="n_selected"):
        plotting.plot_spectrum([1.0, 0.9], n_selected=2)
