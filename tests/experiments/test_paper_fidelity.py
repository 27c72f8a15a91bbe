"""The measurements behind the GP and soft-geodesic tables (issue 13): the paper's accuracy
measure, the critical stiffness, the grid level set, the common scaling, and the
three-column tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster import SoftKernelKMeans
from kernel_patterns.experiments import geodesic, gp
from kernel_patterns.kernels import GPCovariance


def test_class_mean_accuracy_gives_the_papers_two_moons_figures() -> None:
    y = np.repeat([0, 1], [104, 96])
    for errors, paper in ((10, 94.792), (15, 92.188)):
        labels = y.copy()
        labels[104:104 + errors] = 0
        assert geodesic.class_mean_accuracy(y, labels) == pytest.approx(paper, abs=1e-3)
        # the overall accuracy is a multiple of 1/200, never the paper's figure
        assert geodesic.per_class_accuracy(y, labels)[1] != pytest.approx(paper, abs=1e-2)


def test_class_mean_accuracy_ignores_cluster_names() -> None:
    y = np.array([0, 0, 1, 1, 2, 2])
    assert geodesic.class_mean_accuracy(y, np.array([2, 2, 0, 0, 1, 1])) == 100.0


def test_below_the_critical_beta_responsibilities_are_uniform() -> None:
    X, y = datasets.load_iris(return_X_y=True)
    K = geodesic.rbf_K(X, 0.948)
    bc = geodesic.critical_beta(K)
    assert 1.0 < bc < 3.0
    with pytest.warns(UserWarning, match=rf"responsibilities are uniform.*above {bc:.3g}"):
        cold = SoftKernelKMeans(3, kernel="precomputed", beta=bc / 3, random_state=0).fit(K)
    hot = SoftKernelKMeans(3, kernel="precomputed", beta=bc * 5, random_state=0).fit(K)
    assert cold.responsibilities_.max(axis=1).mean() < 0.4
    assert hot.responsibilities_.max(axis=1).mean() > 0.7
    assert geodesic.class_mean_accuracy(y, hot.labels_) > 85.0


def test_critical_beta_scales_inversely_with_the_kernel() -> None:
    X, _ = datasets.make_two_moons(random_state=0)
    K = geodesic.rbf_K(X, 0.5)
    assert geodesic.critical_beta(4.0 * K) == pytest.approx(geodesic.critical_beta(K) / 4.0)


def test_level_set_count_on_the_rings_is_two() -> None:
    X, _ = datasets.make_rings(random_state=0)
    X = datasets.scale_unit_interval(X)
    model = GPClustering(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)).fit(X)
    assert gp.level_set_count(model, X, model.max_variance_, n=150) == 2


def test_scale_common_keeps_the_shape() -> None:
    X = np.array([[0.0, 0.0], [4.0, 1.0], [2.0, 2.0]])
    Z = gp.scale_common(X)
    assert Z.min() == 0.0 and Z.max() == 1.0
    np.testing.assert_allclose(Z, X / 4.0)


def test_paper_fit_cuts_at_the_largest_training_variance() -> None:
    X, y = datasets.make_rings(random_state=0)
    X = datasets.scale_unit_interval(X)
    model, labels = gp.paper_fit(X, 400.0)
    assert model.max_variance_ == pytest.approx(float(model.variance(X).max()))
    assert np.unique(labels).size == 2
    assert gp.score(y, labels) == (0.0, 0.0, 1.0)


def test_quick_geodesic_run_has_paper_settings_and_defaults_columns(tmp_path: Path) -> None:
    text = geodesic.run(tmp_path, quick=True)
    assert "| paper | ours, paper's settings | ours, defaults |" in text
    rows = [r for r in text.splitlines() if r.startswith("| soft ")]
    assert len(rows) == 2 * 3 * 9
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert 0.0 <= float(cells[4]) <= 100.0 and 0.0 <= float(cells[5]) <= 100.0


def test_hard_objective_is_the_within_cluster_scatter() -> None:
    X = np.array([[0.0], [2.0], [10.0], [14.0]])
    K = X @ X.T  # linear kernel: the k-means objective in input space
    labels = np.array([0, 0, 1, 1])
    assert geodesic.hard_objective(K, labels) == pytest.approx(2.0 + 8.0)
    assert geodesic.hard_objective(K, np.zeros(4, dtype=int)) > geodesic.hard_objective(K, labels)


def test_crabs_points_are_two_scaled_components() -> None:
    for log in (False, True):
        X = gp.crabs_points(log)
        assert X.shape == (200, 2)
        np.testing.assert_allclose(X.min(axis=0), 0.0)
        np.testing.assert_allclose(X.max(axis=0), 1.0)
