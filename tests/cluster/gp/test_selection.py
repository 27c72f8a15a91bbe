"""Excess-of-mass selection over the saddle tree (``cluster/gp/_selection.py``) and the
default GPClustering() it drives on scikit-learn's toy grid, at two sizes."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import datasets as skd
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp._cuts import effective_count
from kernel_patterns.cluster.gp._inducing import auto_n_landmarks
from kernel_patterns.cluster.gp._selection import excess_of_mass, join_within_noise

# two deep basins (SEPs 0, 1) joined high, SEP 2 a ripple of SEP 1
Z = np.array([[1, 2, 1.02, 2], [0, 3, 1.4, 3]], dtype=float)
EDGES = np.array([[1, 2], [0, 1]])
BASINS = np.repeat([0, 1, 2], 30)
SEP_VAR = np.array([1.01, 1.01, 1 + 1 / 55])  # SEP 2: λ 55 over the saddle λ 50, z 0.67
PAIR = np.array([[0, 1]])  # the edge of a two-SEP tree


def test_effective_count_is_v2_over_the_excess_variance() -> None:
    np.testing.assert_allclose(effective_count(np.array([2.0, 1.5]), 0.5), [1 / 3, 0.5])


def test_stability_is_the_excess_of_mass_computed_by_hand() -> None:
    pv = SEP_VAR[BASINS] + 0.05
    sel = excess_of_mass(Z, EDGES, BASINS, pv, SEP_VAR, top_level=1.3, noise=1.0,
                         min_cluster_size=5)
    # 1.4 > 1.3: the two sides are apart at the top, and each is born where they part, at
    # λ(1.4) (HDBSCAN's birth: the mass above r* counts); every point leaves at its own λ
    lam_b = 1 / 0.4
    by_hand = [np.sum(1 / (pv[BASINS == 0] - 1) - lam_b),
               np.sum(1 / (pv[BASINS >= 1] - 1) - lam_b)]
    assert sel.n_clusters == 2
    np.testing.assert_array_equal(sel.groups, [0, 1, 1])
    np.testing.assert_allclose(sel.stability, by_hand)


def test_a_group_at_the_top_is_born_where_it_parts_from_the_others() -> None:
    """SEPs 1 and 2 (λ 5) are apart at the top (their saddle 1.5 is above r* = 1.3) but
    joined within the noise (5 - 2 < 2 sqrt(5)): one cluster, born with SEP 0's where the
    two groups part, at 3.0 (λ 0.5), not at r*. The whole data of one piece stays born at
    r*."""
    Zs = np.array([[1, 2, 1.5, 2], [0, 3, 3.0, 3]], dtype=float)
    sep_var = np.array([1.01, 1.2, 1.2])
    pv = sep_var[BASINS] + 0.05
    sel = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, top_level=1.3, noise=1.0,
                         min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, [0, 1, 1])
    lam = 1 / (pv - 1)
    np.testing.assert_allclose(sel.stability, [np.sum(lam[BASINS == 0] - 0.5),
                                               np.sum(lam[BASINS >= 1] - 0.5)])
    whole = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, top_level=3.5, noise=1.0,
                           min_cluster_size=5, significance=10.0)
    assert whole.n_clusters == 1
    np.testing.assert_allclose(whole.stability, [np.sum(lam - 1 / 2.5)])


def test_a_small_group_at_the_top_falls_out_and_does_not_set_a_birth() -> None:
    """SEP 0 (30 points) first meets SEP 1, a 3-point piece (fewer than min_cluster_size),
    at 1.5 and SEP 2 (30 points) at 3.0, both above r* = 1.3: as in HDBSCAN the small piece
    falls out of SEP 0's cluster, which is born where it parts from SEP 2's, at λ(3.0) = 0.5,
    not at λ(1.5) = 2."""
    Zs = np.array([[0, 1, 1.5, 2], [3, 2, 3.0, 3]], dtype=float)
    basins = np.repeat([0, 1, 2], [30, 3, 30])
    sep_var = np.array([1.01, 1.2, 1.02])
    pv = sep_var[basins] + 0.05
    sel = excess_of_mass(Zs, np.array([[0, 1], [0, 2]]), basins, pv, sep_var, top_level=1.3,
                         noise=1.0, min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, [0, -1, 1])
    lam = 1 / (pv - 1)
    np.testing.assert_allclose(sel.stability, [np.sum(lam[basins == 0] - 0.5),
                                               np.sum(lam[basins == 2] - 0.5)])


def test_a_split_within_the_noise_is_no_split() -> None:
    """Sparse SEPs 1 and 2 (effective count 10) part at a saddle of count 5: deeper than
    their parent lives (excess of mass keeps them apart with no noise test), but within
    two Poisson standard deviations (10 - 5 < 2 sqrt(10)): one cluster."""
    Zs = np.array([[1, 2, 1.2, 2], [0, 3, 2.5, 3]], dtype=float)
    sep_var = np.full(3, 1.1)
    kw = {"top_level": 2.0, "noise": 1.0, "min_cluster_size": 5}
    tested = excess_of_mass(Zs, EDGES, BASINS, sep_var[BASINS], sep_var, **kw)
    every = excess_of_mass(Zs, EDGES, BASINS, sep_var[BASINS], sep_var, significance=0.0,
                           **kw)
    np.testing.assert_array_equal(tested.groups, [0, 1, 1])
    np.testing.assert_array_equal(every.groups, [0, 1, 2])


def test_the_noise_of_a_count_of_weighted_points_is_w_lambda() -> None:
    """Points of weight w (a subsample's landscape averaging all n points, w = s / n): the
    count λ has the Poisson variance w λ. The split of the test above (10 - 5 within
    2 sqrt(10)) clears 2 sqrt(10 / 4) at w = 1/4; so do the pieces of a cut (3 - 2/3
    within 2 sqrt(3), not within 2 sqrt(3 / 4))."""
    Zs = np.array([[1, 2, 1.2, 2], [0, 3, 2.5, 3]], dtype=float)
    sep_var = np.full(3, 1.1)
    kw = {"top_level": 2.0, "noise": 1.0, "min_cluster_size": 5}
    for weight, groups in ((1.0, [0, 1, 1]), (0.25, [0, 1, 2])):
        sel = excess_of_mass(Zs, EDGES, BASINS, sep_var[BASINS], sep_var, weight=weight, **kw)
        np.testing.assert_array_equal(sel.groups, groups)
    pair_var = np.array([1 + 1 / 3, 1 + 1 / 3])
    for weight, groups in ((1.0, [0, 0]), (0.25, [0, 1])):
        out = join_within_noise(np.array([[0, 1, 2.5, 2]]), PAIR, np.array([0, 1]),
                                np.array([30, 30]), pair_var, level=2.0, noise=1.0,
                                min_cluster_size=5, weight=weight)
        np.testing.assert_array_equal(out, groups)


@pytest.mark.parametrize(("saddle", "groups"), [(78.0, [0, 0, 0]), (70.0, [0, 1, 2])])
def test_family_wise_keeps_the_whole_data_only_while_no_split_clears_its_level(
    saddle: float, groups: list[int]
) -> None:
    """One piece at the top (r* at λ 2), splitting at λ ``saddle`` into SEP 0 and SEPs
    1 + 2, which split at λ 79; every SEP at λ 100, every point at λ 90. The root holds the
    most mass, and by mass alone it is kept. Both splits clear 2 standard deviations alone
    (z 2.2 and 2.1 at λ 78), but not the Bonferroni level of two tests (2.28): with
    ``family_wise``, "no structure" stands and the root is kept. At λ 70 the first split
    has z 3.0: the root is not kept, the leaves are."""
    Zs = np.array([[1, 2, 1 + 1 / 79, 2], [0, 3, 1 + 1 / saddle, 3]], dtype=float)
    sep_var = np.full(3, 1.01)
    pv = np.full(BASINS.size, 1 + 1 / 90)
    kw = {"top_level": 1.5, "noise": 1.0, "min_cluster_size": 5}
    by_mass = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, **kw)
    family = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, family_wise=True, **kw)
    np.testing.assert_array_equal(by_mass.groups, [0, 0, 0])
    np.testing.assert_array_equal(family.groups, groups)


@pytest.mark.parametrize(("pair_saddle", "groups"), [(50.0, [0, 1, 2]), (79.0, [0, 1, 1])])
def test_a_split_clearing_the_family_wise_level_is_two_clusters_whatever_the_mass(
    pair_saddle: float, groups: list[int]
) -> None:
    """SEP 0 splits from SEPs 1 + 2 at λ 20, and those two split at λ ``pair_saddle``;
    every SEP at λ 100, the points of SEP 0 at λ 90, those of SEPs 1 and 2 at λ 60. The
    parent of 1 and 2 holds more mass than its two children (60 points over λ 20-50 against
    60 over λ 50-60), and by mass alone it is kept. At λ 50 the pair's split has z 5,
    above the Bonferroni level of the two splits tested (2.28): two clusters. At λ 79 it
    has z 2.1, a split but not beyond the multiple testing: the mass decides."""
    Zs = np.array([[1, 2, 1 + 1 / pair_saddle, 2], [0, 3, 1 + 1 / 20, 3]], dtype=float)
    sep_var = np.full(3, 1.01)
    pv = np.where(BASINS == 0, 1 + 1 / 90, 1 + 1 / 60)
    sel = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, top_level=1.5, noise=1.0,
                         min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, groups)


def test_a_piece_at_the_top_splits_as_a_cluster_below_it_does() -> None:
    """The tree of the test above read from λ 25: SEP 0 and SEPs 1 + 2 are two pieces at
    the top (joined at λ 20, below it), and the piece 1 + 2 holds more mass (60 points over
    λ 25-50) than its children (60 over λ 50-60). Its split (z 5) clears the family-wise
    level of the one split tested (2.0): three clusters. Only the whole data, one piece at
    the top, is kept by its mass alone (without ``family_wise``)."""
    Zs = np.array([[1, 2, 1 + 1 / 50, 2], [0, 3, 1 + 1 / 20, 3]], dtype=float)
    sep_var = np.full(3, 1.01)
    pv = np.where(BASINS == 0, 1 + 1 / 90, 1 + 1 / 60)
    sel = excess_of_mass(Zs, EDGES, BASINS, pv, sep_var, top_level=1 + 1 / 25, noise=1.0,
                         min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, [0, 1, 2])


def test_branches_apart_above_the_top_level_within_the_noise_are_one_cluster() -> None:
    """SEPs 0 and 1 (effective count 3) are joined only above r* (at σ² 2.5, count 2/3):
    apart in the level set, but 3 - 2/3 < 2 sqrt(3), so one cluster; with no noise test,
    two."""
    Zs = np.array([[0, 1, 2.5, 2]], dtype=float)
    sep_var = np.array([1 + 1 / 3, 1 + 1 / 3])
    basins = np.repeat([0, 1], 30)
    kw = {"top_level": 2.0, "noise": 1.0, "min_cluster_size": 5}
    pv = sep_var[basins] + 0.1
    tested = excess_of_mass(Zs, PAIR, basins, pv, sep_var, **kw)
    every = excess_of_mass(Zs, PAIR, basins, pv, sep_var, significance=0.0, **kw)
    assert tested.n_clusters == 1
    np.testing.assert_array_equal(tested.groups, [0, 0])
    np.testing.assert_array_equal(every.groups, [0, 1])


def test_a_ripple_joined_above_the_top_level_joins_the_piece_it_meets() -> None:
    """Above r* (1.5), SEPs 0 and 1 (count 100) split far above the noise at σ² 2; SEP 2
    (count 1.5) meets SEP 1 at σ² 2.5, within the noise: it joins 1's cluster, and 0 stays
    apart (the merges are replayed bottom-up, not decided by the top one)."""
    Zs = np.array([[0, 1, 2.0, 2], [2, 3, 2.5, 3]], dtype=float)
    edges = np.array([[0, 1], [1, 2]])
    sep_var = np.array([1.01, 1.01, 1 + 1 / 1.5])
    pv = sep_var[BASINS] + 0.001
    sel = excess_of_mass(Zs, edges, BASINS, pv, sep_var, top_level=1.5, noise=1.0,
                         min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, [0, 1, 1])


def test_join_within_noise_applies_the_same_test_to_the_pieces_of_a_cut() -> None:
    """The same two SEPs as pieces of a cut at 2.0: joined by the test, apart without it;
    a piece smaller than min_cluster_size is left alone."""
    Zs = np.array([[0, 1, 2.5, 2]], dtype=float)
    sep_var = np.array([1 + 1 / 3, 1 + 1 / 3])
    kw = {"level": 2.0, "noise": 1.0, "min_cluster_size": 5}
    groups = np.array([0, 1])
    joined = join_within_noise(Zs, PAIR, groups, np.array([30, 30]), sep_var, **kw)
    apart = join_within_noise(Zs, PAIR, groups, np.array([30, 30]), sep_var,
                              significance=0.0, **kw)
    small = join_within_noise(Zs, PAIR, groups, np.array([30, 3]), sep_var, **kw)
    np.testing.assert_array_equal(joined, [0, 0])
    np.testing.assert_array_equal(apart, [0, 1])
    np.testing.assert_array_equal(small, [0, 1])


def test_a_branch_smaller_than_min_cluster_size_joins_the_cluster_it_opens_into() -> None:
    basins = np.r_[np.repeat(0, 30), np.repeat(1, 30), np.repeat(2, 3)]
    pv = SEP_VAR[basins] + 0.05
    sel = excess_of_mass(Z, EDGES, basins, pv, SEP_VAR, top_level=1.5, noise=1.0,
                         min_cluster_size=5)
    np.testing.assert_array_equal(sel.groups, [0, 1, 1])


def test_a_thin_ring_far_from_the_rest_is_not_outweighed_by_its_arcs() -> None:
    """Two noisy rings of 500 + 500 points (radii 1 and 2, noise 0.05, random_state=2, as
    ``benchmarks/bench_defaults_time.py`` draws them): the outer ring is a piece of the
    support whose sparse stretches split it into arcs. Born at r*, it held less mass than
    its arcs (5 clusters, ARI 0.64); born where it parts from the inner ring, as in
    HDBSCAN, it holds the mass above r* too: the two rings."""
    X, y = datasets.make_rings(n_samples=(500, 500), radii=(1.0, 2.0), noise=0.05,
                               random_state=2)
    gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) == pytest.approx(1.0)


def test_auto_n_landmarks_covers_at_half_a_length_scale() -> None:
    X = np.linspace(0, 100, 1001).reshape(-1, 1)
    m = auto_n_landmarks(X, 10.0, low=1, high=1000)
    assert 11 <= m <= 21  # the optimal cover has 11 centres; the greedy one is within 2x
    assert auto_n_landmarks(X, 10.0, low=50, high=1000) == 50
    assert auto_n_landmarks(X, 0.001, low=7) == 7  # rows isolated: the low count


def _toy(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's 'Comparing clustering algorithms on toy datasets' grid."""
    X, y = skd.make_blobs(n, random_state=170)
    sets = {
        "circles": lambda: skd.make_circles(n, factor=0.5, noise=0.05, random_state=170),
        "moons": lambda: skd.make_moons(n, noise=0.05, random_state=170),
        "varied": lambda: skd.make_blobs(n, cluster_std=[1.0, 2.5, 0.5], random_state=170),
        "aniso": lambda: (X @ np.array([[0.6, -0.6], [-0.4, 0.8]]), y),
        "blobs": lambda: (X, y),
    }
    X, y = sets[name]()
    return StandardScaler().fit_transform(X), y


@pytest.mark.parametrize(("name", "bar"), [("circles", 0.95), ("moons", 0.95),
                                           ("aniso", 0.95), ("blobs", 0.95),
                                           ("varied", 0.85)])
def test_toy_grid_with_defaults(name: str, bar: float) -> None:
    X, y = _toy(name, 500)
    gp = GPClustering(random_state=0).fit(X)
    assert adjusted_rand_score(y, gp.labels_) >= bar
    assert gp.count_trace_.reading == "excess of mass"


def test_no_structure_is_one_cluster_with_the_warning() -> None:
    X = np.random.RandomState(170).rand(500, 2)
    with pytest.warns(UserWarning, match="found one cluster"):
        gp = GPClustering(random_state=0).fit(StandardScaler().fit_transform(X))
    assert gp.n_clusters_ == 1


@pytest.mark.slow
def test_no_structure_is_one_cluster_with_inducing_points() -> None:
    """scikit-learn's uniform square at 1,500 points: the excess of mass at ℓ₀/√2 finds 3
    clusters there and 1 at ℓ₀/2, so it is not kept (one cluster, with the warning)."""
    X = np.random.RandomState(170).rand(1500, 2)
    with pytest.warns(UserWarning, match="found one cluster"):
        gp = GPClustering(random_state=0).fit(StandardScaler().fit_transform(X))
    assert gp.n_clusters_ == 1
    assert gp.count_trace_.reading == "support"


def test_of_two_agreeing_readings_the_one_with_fewer_clusters_is_kept() -> None:
    """Three moons (300 points, random_state=4): the excess of mass at √2ℓ₀ gives the same
    clusters as at ℓ₀ (ARI ≥ 0.9) but fewer of them, and is the reading kept."""
    X, _ = datasets.make_three_moons(300, random_state=4)
    gp = GPClustering(random_state=0).fit(StandardScaler().fit_transform(X))
    trace = gp.count_trace_
    assert trace.reading == "excess of mass"
    assert trace.factor == pytest.approx(np.sqrt(2))
    assert trace.agreement[trace.kept - 1] >= 0.9  # at ℓ₀, against √2ℓ₀
    assert gp.n_clusters_ == 3


@pytest.mark.slow
def test_the_count_is_the_same_exact_and_with_inducing_points() -> None:
    """800 points (exact landscape) and 1,500 (inducing points, their count following the
    length scale) of scikit-learn's moons: two clusters both times (300 inducing points
    gave one at 3,000)."""
    counts = []
    for n in (800, 1500):
        X, y = skd.make_moons(n, noise=0.08, random_state=0)
        gp = GPClustering(random_state=0).fit(StandardScaler().fit_transform(X))
        assert adjusted_rand_score(y, gp.labels_) >= 0.95
        counts.append(gp.n_clusters_)
    assert counts == [2, 2]
