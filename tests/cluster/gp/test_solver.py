"""The pure solver ``gp_landscape`` (``cluster/gp/_solver.py``): the estimator's results, its
input checks, the length-scale search of ``kernel=None`` with ``n_clusters`` and the
reproducible inducing-point plan."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import GPLandscape, default_kernel, gp_landscape
from kernel_patterns.kernels import CallableKernel, Precomputed

from .gp_data import KERNEL


def test_solver_equals_the_estimator(rings, fitted) -> None:
    _, y = rings
    est, land = fitted
    assert isinstance(est.landscape_, GPLandscape)
    assert np.array_equal(land.labels, est.labels_)
    assert np.array_equal(land.equilibria, est.equilibria_)
    assert np.array_equal(land.hierarchy.linkage, est.hierarchy_)
    assert land.level == est.level_ and land.max_variance == est.max_variance_
    assert land.n_clusters == est.n_clusters_ == 2
    assert adjusted_rand_score(y, land.labels) == 1.0
    Xnew, _ = datasets.make_rings((30, 30), random_state=1)
    Xnew = datasets.scale_unit_interval(Xnew)
    assert np.array_equal(land.predict(Xnew), est.predict(Xnew))
    assert np.array_equal(land.variance(Xnew), est.variance(Xnew))
    assert np.array_equal(land.gradient(Xnew[:3]), est.variance_gradient(Xnew[:3]))


def test_solver_does_not_keep_or_modify_the_callers_array(rings) -> None:
    X = rings[0].copy()
    land = gp_landscape(X, KERNEL)
    before = land.variance(X[:5])
    X[:] = 0.0
    assert np.array_equal(land.variance(rings[0][:5]), before)


def test_solver_validates_its_input(rings) -> None:
    X, _ = rings
    with pytest.raises(ValueError, match="give level or n_clusters, not both"):
        gp_landscape(X, KERNEL, level=0.5, n_clusters=2)
    with pytest.raises(ValueError, match="should be >= n_clusters=100001"):
        gp_landscape(X, KERNEL, n_clusters=100001)
    with pytest.raises(ValueError, match="needs a differentiable kernel"):
        gp_landscape(X, CallableKernel(lambda a, b: a @ b.T))
    with pytest.raises(ValueError, match="precomputed' is not supported"):
        gp_landscape(X, Precomputed())
    with pytest.raises(ValueError, match="X has 1 sample"):
        gp_landscape(X[:1], KERNEL)
    with pytest.raises(ValueError, match="contains NaN"):
        gp_landscape(np.array([[0.0, np.nan], [1.0, 1.0]]), KERNEL)
    with pytest.raises(ValueError, match="'tol' parameter"):
        gp_landscape(X, KERNEL, tol=-1.0)


def test_kernel_none_shrinks_the_length_scale_until_n_clusters_basins() -> None:
    # 20-D, 40 per cluster, every feature scaled to [0, 1]: the data-driven length scale gives
    # only 2 basins; the search shrinks it (ℓ₀/√2) to 5 basins instead of failing.
    X, y = datasets.make_gaussians(20, n_per_cluster=40, random_state=1)
    X = datasets.scale_unit_interval(X)
    ell0 = float(default_kernel(X).l) ** -0.5
    one = GPClustering(default_kernel(X)).fit(X)
    assert len(one.equilibria_) < 5
    gp = GPClustering(n_clusters=5).fit(X)
    assert gp.n_clusters_ == 5 and len(gp.equilibria_) >= 5
    assert float(gp.kernel_.l) ** -0.5 == pytest.approx(ell0 / np.sqrt(2))
    # the per-feature scaling inflates the 15 noise features: good, not perfect (docstring)
    assert adjusted_rand_score(y, gp.labels_) > 0.7
    # no length scale can give more basins than points: a clear error, before any fit
    with pytest.raises(ValueError, match="more than the 200 samples"):
        GPClustering(n_clusters=201).fit(X)
    # 20 per cluster: ℓ₀/2 gives too many basins, one bisection step back (ℓ₀/2^0.75) gives 5
    X20, _ = datasets.make_gaussians(20, n_per_cluster=20, random_state=3)
    X20 = datasets.scale_unit_interval(X20)
    ell0 = float(default_kernel(X20).l) ** -0.5
    assert len(GPClustering(default_kernel(X20, 0.5)).fit(X20).equilibria_) > 5
    gp = GPClustering(n_clusters=5).fit(X20)
    assert float(gp.kernel_.l) ** -0.5 == pytest.approx(ell0 * 2 ** -0.75)
    assert len(gp.equilibria_) == 5
    three = np.repeat([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]], 10, axis=0)  # at most 3 SEPs
    with pytest.warns(UserWarning, match=r"found 3 cluster\(s\).*fewer than n_clusters=4"):
        gp = GPClustering(n_clusters=4).fit(three)
    assert gp.n_clusters_ == 3
    assert GPClustering(n_clusters=3).fit(three).n_clusters_ == 3


def test_the_inducing_plan_is_reproducible_and_follows_random_state(rings) -> None:
    X, y = rings
    kw = {"approximation": "inducing", "n_landmarks": 60, "subsample": 200}
    a = gp_landscape(X, KERNEL, **kw, random_state=0)
    b = gp_landscape(X, KERNEL, **kw, random_state=0)
    assert a.plan is not None and b.plan is not None
    assert a.plan.U.shape == (60, 2) and a.plan.subsample.shape == (200,)
    np.testing.assert_array_equal(a.plan.U, b.plan.U)
    np.testing.assert_array_equal(a.plan.subsample, b.plan.subsample)
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.equilibria, b.equilibria)
    assert np.all(np.diff(a.plan.subsample) > 0)  # sorted, no repeats
    # a seed is the RandomState it seeds
    c = gp_landscape(X, KERNEL, **kw, random_state=np.random.RandomState(0))
    np.testing.assert_array_equal(c.plan.subsample, a.plan.subsample)
    np.testing.assert_array_equal(c.plan.U, a.plan.U)
    # another seed, another plan (the clusters of the rings all the same)
    d = gp_landscape(X, KERNEL, **kw, random_state=1)
    assert not np.array_equal(d.plan.subsample, a.plan.subsample)
    assert not np.array_equal(d.plan.U, a.plan.U)
    assert adjusted_rand_score(y, a.labels) == adjusted_rand_score(y, d.labels) == 1.0


def test_one_feature_is_read_by_the_number_of_modes_of_its_density() -> None:
    """On a line a ripple's saddle is as deep as a split's (a uniform sample of 1,000 points
    was 6 to 10 clusters): the count is the density's number of modes, one cluster with the
    warning where there is one, at both sizes (exact and inducing points)."""
    rng = np.random.RandomState(0)
    for n in (400, 2500):
        for one in (rng.uniform(size=(n, 1)), rng.normal(size=(n, 1)),
                    rng.standard_t(3, size=(n, 1))):
            with pytest.warns(UserWarning, match="one cluster.*dip test") as caught:
                gp = GPClustering(random_state=0).fit(one)
            assert not any("inducing points" in str(w.message) for w in caught)
            assert gp.n_clusters_ == 1
            assert gp.count_trace_.reading == "modes on the line"
            assert gp.count_trace_.mode_test.n_modes == 1
        y = np.repeat([0, 1, 2], n // 3)
        three = (rng.normal(0, 0.6, y.size) + 4 * y)[:, None]
        gp = GPClustering(random_state=0).fit(three)
        assert gp.n_clusters_ == 3 and gp.count_trace_.mode_test.n_modes == 3
        assert adjusted_rand_score(y, gp.labels_) > 0.95
        assert np.array_equal(gp.predict(three[:50]), gp.labels_[:50])


def test_one_feature_of_overlapping_groups_is_two_clusters() -> None:
    """A tight group beside a diffuse one, and two unequal normals 3.5 apart: the dip test
    calibrated on the data's shape at the mode sees both (calibrated on the uniform, the
    second was one cluster)."""
    rng = np.random.RandomState(0)
    y = np.repeat([0, 1], [700, 300])
    for x in (np.r_[rng.normal(0, 0.5, 700), rng.normal(5, 2, 300)],
              np.r_[rng.normal(0, 1, 700), rng.normal(3.5, 1, 300)]):
        gp = GPClustering(random_state=0).fit(x[:, None])
        assert gp.n_clusters_ == 2, gp.count_trace_.mode_test
        assert adjusted_rand_score(y, gp.labels_) > 0.75


def test_one_feature_is_cut_in_the_input_units() -> None:
    """A group of 10 % eight deviations away makes the column heavy-tailed, so the landscape
    lives in Yeo-Johnson units, which squeeze the gap and skew the rest: the parts are cut
    in the input's units (``dip_partition``) and carried through the transform."""
    rng = np.random.RandomState(0)
    y = np.repeat([0, 1], [900, 100])
    x = np.r_[rng.normal(0, 1, 900), rng.normal(8, 0.5, 100)][:, None]
    gp = GPClustering(random_state=0).fit(x)
    assert gp.landscape_.transform is not None
    assert gp.n_clusters_ == 2 and gp.count_trace_.mode_test.n_modes == 2
    assert 3.0 < gp.count_trace_.mode_test.cuts[0] < 7.0
    assert adjusted_rand_score(y, gp.labels_) > 0.98
    new = gp.predict(np.array([[-1.0], [2.0], [7.5], [9.0]]))
    assert new[0] == new[1] != new[2] == new[3]


def test_one_feature_of_few_values() -> None:
    """Too few values for the dip test (fewer than twice min_cluster_size) or all equal: one
    cluster, and the warning says why; two groups of 6 are 2; two point masses of 5, which
    the landscape at ℓ₀ (their distance) holds in one basin, are 2 at a shorter length
    scale of the ladder; parts that none down to ℓ₀/4 resolves (0 and 0.1 beside 10) are
    warned about."""
    for x, why in ((np.arange(9.0), "too few for Hartigan's dip test"),
                   (np.full(20, 3.0), "the 20 points of X are all the same point")):
        with pytest.warns(UserWarning, match=why):
            gp = GPClustering(random_state=0).fit(x[:, None])
        assert gp.n_clusters_ == 1 and gp.count_trace_.mode_test.pvalues.size == 0
    two = np.r_[np.zeros(6), np.full(6, 6.0)][:, None]
    gp = GPClustering(random_state=0).fit(two)
    assert gp.n_clusters_ == 2 and adjusted_rand_score(np.repeat([0, 1], 6), gp.labels_) == 1
    masses = np.r_[np.zeros(5), np.full(5, 10.0)][:, None]
    gp = GPClustering(random_state=0).fit(masses)  # no warning (pytest: errors)
    assert gp.n_clusters_ == 2 and adjusted_rand_score(np.repeat([0, 1], 5), gp.labels_) == 1
    trace = gp.count_trace_
    assert trace.factor == pytest.approx(2 ** -0.5) and trace.n_modes.tolist() == [2, 1]
    three = np.repeat([0.0, 0.1, 10.0], 200)[:, None]
    with pytest.warns(UserWarning, match=r"divide into 3 parts at valleys along their line "
                      r"\(dip_partition\), but the landscape at length scale 7.94 \(or any "
                      r"down to 1.98\) has stable equilibrium points in 2 of them") as caught:
        gp = GPClustering(random_state=0).fit(three)
    assert gp.n_clusters_ == 2 and len(caught) == 1
    assert gp.count_trace_.factor == 1.0 and gp.count_trace_.factors.size == 5


def test_one_feature_with_n_clusters_is_cut_at_the_valleys() -> None:
    """n_clusters on one feature: the valleys of largest dip, not the most persistent
    groups of the line (which put 40 heights of a second group among the first's); too
    many clusters asked give the parts there are and a warning."""
    rng = np.random.RandomState(0)
    y = np.repeat([0, 1], [300, 40])
    heights = np.r_[rng.normal(160, 6, 300), rng.normal(185, 5, 40)][:, None]
    gp = GPClustering(n_clusters=2, random_state=0).fit(heights)
    assert gp.n_clusters_ == 2 and gp.count_trace_ is None
    assert adjusted_rand_score(y, gp.labels_) > 0.9
    low, high = (heights[gp.labels_ == c, 0] for c in np.argsort([heights[gp.labels_ == c, 0]
                                                                  .mean() for c in (0, 1)]))
    assert low.max() < high.min()  # two intervals
    with pytest.warns(UserWarning, match="fewer than n_clusters=3: no other part can be cut"):
        gp = GPClustering(n_clusters=3, random_state=0).fit(
            np.r_[np.arange(8.0), np.arange(8.0) + 50][:, None])
    assert gp.n_clusters_ == 2


def test_n_clusters_on_a_line_has_no_cluster_below_min_cluster_size() -> None:
    """n_clusters on a line: a part cut whose SEPs' basins hold fewer than min_cluster_size
    points (a basin reaches across the cut) is noise, with a warning, as every other
    cluster that small is."""
    rng = np.random.default_rng(2)
    t = np.r_[rng.normal(0.0, 1.0, 60), np.random.default_rng(3).normal(8.0, 1.0, 60)]
    for X in (t[:, None], np.c_[t, 2 * t + 1]):
        for k in (3, 5):
            with pytest.warns(UserWarning, match=r"parts cut hold fewer points, and are noise"):
                gp = GPClustering(n_clusters=k, random_state=0).fit(X)
            sizes = np.bincount(gp.labels_[gp.labels_ >= 0])
            assert sizes.size == gp.n_clusters_ < k and sizes.min() >= 5
            assert np.count_nonzero(gp.labels_ == -1) > 0
    gp = GPClustering(n_clusters=2, random_state=0).fit(t[:, None])
    assert gp.n_clusters_ == 2 and (gp.labels_ >= 0).all()


def test_warnings_say_when_the_data_cannot_hold_the_clusters_asked() -> None:
    """Too few points for n_clusters clusters of min_cluster_size, fewer distinct points than
    n_clusters (on a line or not), all points the same: the warning says so, and not to
    shorten the length scale."""
    triangle = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]])
    rng = np.random.default_rng(0)
    cases = [
        (rng.normal(size=(6, 2)), 3, r"the 6 points are too few for 3 clusters of at least 5"),
        (rng.normal(size=(3, 2)), 1, r"the 3 points are too few for 1 cluster of at least 5\. "
                                     r"Give a smaller min_cluster_size\.$"),
        (np.repeat(triangle, 30, axis=0), 5, r"the 90 points are 3 distinct points"),
        (np.repeat([[0.0, 0.0], [1.0, 2.0]], 30, axis=0), 3, "along the line of the data, "
         r"fewer than n_clusters=3: the 60 points are 2 distinct points, .* fewer n_clusters"),
    ]
    for X, k, why in cases:
        with pytest.warns(UserWarning, match=why) as caught:
            GPClustering(n_clusters=k, random_state=0).fit(X)
        assert not any("length scale (kernel=" in str(w.message) for w in caught)
    for X in (np.full((30, 2), 7.0), np.full((30, 1), -1.0)):
        with pytest.warns(UserWarning, match="the 30 points of X are all the same point") as c:
            gp = GPClustering(random_state=0).fit(X)
        assert gp.n_clusters_ == 1 and len(c) == 1


def test_data_far_from_the_origin_give_the_landscape_of_the_data() -> None:
    """Blobs shifted 1e10 away (a million times their spread) are centred: the same labels,
    SEPs and predictions as at the origin; float64 lost the digits of their differences in
    the gradient and the flows (4 clusters, and predict disagreeing with labels_)."""
    X, _ = make_blobs(n_samples=200, centers=3, random_state=4)
    near = GPClustering(random_state=0).fit(X)
    assert near.feature_transform_ is None
    for shift in (1e10, 1e8):
        far = GPClustering(random_state=0).fit(X + shift)
        np.testing.assert_array_equal(far.labels_, near.labels_)
        np.testing.assert_allclose(far.equilibria_ - shift, near.equilibria_, atol=1e-4)
        np.testing.assert_array_equal(far.predict(X[:40] + shift), near.predict(X[:40]))
        np.testing.assert_allclose(far.variance(X[:5] + shift), near.variance(X[:5]),
                                   atol=1e-5)
        assert far.feature_transform_ is not None  # the centring
