"""Data on a line: one feature, or every point close to one straight line."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp import auto_length_scale
from kernel_patterns.cluster.gp._line import LINE_WIDTH, principal_axis


def test_principal_axis_of_a_line_and_of_what_is_not_one() -> None:
    rng = np.random.default_rng(0)
    t = rng.normal(size=200)
    direction = np.array([1.0, -2.0, 3.0]) / np.sqrt(14)
    X = 5.0 + np.outer(t, -direction)
    axis = principal_axis(X, length_scale=0.1)
    assert axis is not None
    np.testing.assert_allclose(axis, direction, atol=1e-12)  # the sign: largest part > 0
    assert principal_axis(t[:, None], length_scale=0.1).tolist() == [1.0]
    # every point must be within LINE_WIDTH length scales of the axis: one is not
    off = X.copy()
    off[7] += np.array([2.0, 1.0, 0.0]) * 0.3
    gap = np.linalg.norm(np.cross(off[7] - off.mean(axis=0), direction))
    assert principal_axis(off, length_scale=0.99 * gap / LINE_WIDTH) is None
    assert principal_axis(off, length_scale=1.01 * gap / LINE_WIDTH) is not None
    # more features than points (the Gram matrix's eigenvector), and copies of one point
    wide = np.outer(t[:20], rng.normal(size=50))
    wide_axis = principal_axis(wide, length_scale=0.1)
    assert wide_axis is not None
    np.testing.assert_allclose(abs(wide_axis @ wide[0]), np.linalg.norm(wide[0]))
    assert principal_axis(np.ones((5, 8)), length_scale=0.1) is not None
    # an arc, a plane
    s = np.linspace(0.0, np.pi, 100)
    assert principal_axis(np.c_[np.cos(s), np.sin(s)], length_scale=0.1) is None
    assert principal_axis(rng.normal(size=(100, 2)), length_scale=0.5) is None


def test_a_gaussian_on_a_line_is_one_cluster() -> None:
    """A feature and copies of it in other units: the rule for several features cut such a
    Gaussian of 1,000 points into two to six clusters; along the line it has one mode."""
    rng = np.random.default_rng(0)
    z = rng.normal(size=1000)
    X = np.outer(z, [1.0, 2.0, 3.0, -1.0])
    before = X.copy()
    with pytest.warns(UserWarning, match="found one cluster"):
        gp = GPClustering(random_state=0).fit(X)
    np.testing.assert_array_equal(X, before)
    assert gp.n_clusters_ == 1 and not (gp.labels_ < 0).any()
    trace = gp.count_trace_
    assert trace.reading == "modes on the line"
    np.testing.assert_allclose(abs(trace.line_axis @ [1.0, 2.0, 3.0, -1.0]), np.sqrt(15))


def test_groups_on_a_line_are_counted_along_it() -> None:
    """Three groups on a line in 3-D, with a little spread across it: the same clusters
    as their values along the line given as one feature, and the cuts in those values."""
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 150)
    t = np.r_[rng.normal(0, 1, 150), rng.normal(8, 1, 150), rng.normal(16, 1, 150)]
    direction = np.array([2.0, 1.0, -2.0]) / 3
    X = np.outer(t, direction) + 1e-3 * rng.normal(size=(450, 3))
    assert principal_axis(X, auto_length_scale(X)) is not None
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 3 and adjusted_rand_score(y, gp.labels_) == 1.0
    along = X @ gp.count_trace_.line_axis
    cuts = gp.count_trace_.mode_test.cuts
    assert cuts.size == 2 and np.all(np.diff(np.searchsorted(cuts, along)[np.argsort(along)])
                                     >= 0)
    one = GPClustering(random_state=0).fit(along[:, None])
    assert adjusted_rand_score(one.labels_, gp.labels_) == 1.0
    assert one.count_trace_.one_feature and not gp.count_trace_.one_feature
    # given the count, the valleys of largest dip along the line
    two = GPClustering(n_clusters=2, random_state=0).fit(X)
    assert two.n_clusters_ == 2 and two.count_trace_ is None
    assert adjusted_rand_score(np.minimum(y, 1), two.labels_) == 1.0 or \
        adjusted_rand_score(np.maximum(y, 1), two.labels_) == 1.0


def test_data_off_a_line_keep_the_rule_for_several_features() -> None:
    rng = np.random.default_rng(2)
    X = np.r_[rng.normal(0, 0.3, (100, 2)), rng.normal(0, 0.3, (100, 2)) + 3.0]
    gp = GPClustering(random_state=0).fit(X)
    assert gp.count_trace_.reading != "modes on the line"
    assert gp.count_trace_.line_axis is None and gp.n_clusters_ == 2
    assert not gp.count_trace_.one_feature
