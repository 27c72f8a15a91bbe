"""Silverman's test along G-means' direction (``_unimodal.py``), the shoulder check of
``_readings.py`` and the persistent modes it opens in ``GPClustering()``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp import default_kernel
from kernel_patterns.cluster.gp._dip import dip_test
from kernel_patterns.cluster.gp._landscape import FlowOptions, fit_landscape
from kernel_patterns.cluster.gp._unimodal import (
    mode_count_test,
    shoulder,
    silverman_test,
    some_group_has_two_modes,
    unimodal_split_test,
)

OPTS = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)


def _exact_modes(values: np.ndarray, bandwidth: float, inner: tuple[float, float]) -> int:
    """Modes inside ``inner`` of the Gaussian kernel estimate, summed point by point on a
    fine grid (no binning, no FFT)."""
    grid = np.linspace(values.min() - 5 * bandwidth, values.max() + 5 * bandwidth, 8001)
    density = np.exp(-0.5 * ((grid[:, None] - values[None, :]) / bandwidth) ** 2).sum(1)
    inside = (grid[1:-1] >= inner[0]) & (grid[1:-1] <= inner[1])
    peak = (density[1:-1] > density[:-2]) & (density[1:-1] >= density[2:])
    return int(np.sum(peak & inside))


def _elliptical_t(n: int, d: int, seed: int) -> np.ndarray:
    rng = np.random.RandomState(seed)
    return rng.normal(size=(n, d)) / np.sqrt(rng.chisquare(3, (n, 1)) / 3)


def _standardised(X: np.ndarray) -> np.ndarray:
    return (X - X.mean(0)) / X.std(0)


def _annulus(n: int, seed: int) -> np.ndarray:
    rng = np.random.RandomState(seed)
    angle = rng.uniform(0, 2 * np.pi, n)
    radius = np.sqrt(rng.uniform(1, 4, n))  # even density between radii 1 and 2
    return _standardised(np.c_[radius * np.cos(angle), radius * np.sin(angle)])


def test_the_critical_bandwidth_equals_a_point_by_point_estimate() -> None:
    rng = np.random.RandomState(0)
    values = np.r_[rng.normal(0, 1, 200), rng.normal(3.5, 0.7, 120)]
    h, _ = silverman_test(values, random_state=0, n_bootstrap=10)
    inner = tuple(np.quantile(values, [0.025, 0.975]))
    h = h * values.std()
    assert _exact_modes(values, 1.02 * h, inner) == 1
    assert _exact_modes(values, 0.98 * h, inner) >= 2


def test_two_modes_are_found_and_one_is_not_rejected() -> None:
    rng = np.random.RandomState(1)
    two = np.r_[rng.normal(0, 1, 300), rng.normal(4, 1, 300)]
    assert silverman_test(two, random_state=0)[1] < 0.01
    # one mode, heavy tails: every outlier is a mode of its own outside the central 95 %
    assert silverman_test(rng.standard_t(3, 1000), random_state=0)[1] > 0.05
    assert silverman_test(np.full(50, 2.0)) == (0.0, 1.0)


def test_mode_count_test_counts_separated_modes_and_one_for_unimodal_samples() -> None:
    rng = np.random.RandomState(2)
    three = np.r_[rng.normal(0, 1, 200), rng.normal(6, 1, 200), rng.normal(12, 1, 200)]
    found = mode_count_test(three, random_state=0)
    assert found.n_modes == 3
    # a test per count up to the first not rejected; the critical bandwidths do not grow
    assert found.pvalues.shape == found.critical_bandwidths.shape == (3,)
    assert np.all(found.pvalues[:2] < 0.023) and found.pvalues[2] >= 0.023
    assert np.all(np.diff(found.critical_bandwidths) <= 0)
    for one in (rng.normal(size=800), rng.standard_t(3, 800), rng.exponential(size=800)):
        assert mode_count_test(one, random_state=0).n_modes == 1


def test_mode_count_test_for_one_mode_is_the_dip_test() -> None:
    rng = np.random.RandomState(3)
    values = np.r_[rng.normal(0, 1, 150), rng.normal(4, 1, 150)]
    h, _ = silverman_test(values, random_state=5)
    found = mode_count_test(values, random_state=5, max_modes=1)
    assert found.critical_bandwidths[0] == pytest.approx(h * values.std())
    assert found.pvalues[0] == dip_test(values, random_state=5)[1] < 0.023
    assert found.n_modes == 1  # max_modes reached with every test rejected
    assert mode_count_test(np.full(20, 3.0)).n_modes == 1


def test_silverman_test_is_liberal_on_flat_samples() -> None:
    """Why one mode is the dip's: on 20 uniform samples of 1,000 values Silverman's
    bootstrap rejects one mode 3 times at Φ(−2), the dip test none."""
    samples = [np.random.RandomState(s).uniform(size=1000) for s in range(20)]
    assert sum(silverman_test(x, random_state=0)[1] < 0.023 for x in samples) >= 3
    assert sum(dip_test(x, random_state=0)[1] < 0.023 for x in samples) == 0


def test_mode_count_test_checks_its_input() -> None:
    with pytest.raises(ValueError, match="values must be 1-D"):
        mode_count_test(np.ones((10, 2)))
    with pytest.raises(ValueError, match="alpha must be in"):
        mode_count_test(np.arange(10.0), alpha=1.5)
    with pytest.raises(ValueError, match="max_modes must be at least 1; got 0"):
        mode_count_test(np.arange(10.0), max_modes=0)
    with pytest.raises(ValueError, match="n_bootstrap must be at least 1"):
        mode_count_test(np.arange(10.0), n_bootstrap=0)


def test_silverman_test_checks_its_input() -> None:
    with pytest.raises(ValueError, match="values must be 1-D"):
        silverman_test(np.ones((10, 2)))
    with pytest.raises(ValueError, match="values contains"):
        silverman_test(np.array([1.0, np.inf, 2.0]))
    with pytest.raises(ValueError, match="values has 1 sample"):
        silverman_test(np.array([1.0]))
    with pytest.raises(ValueError, match="n_bootstrap must be at least 1; got 0"):
        silverman_test(np.arange(10.0), n_bootstrap=0)


def test_unimodal_data_are_rejected_rarely() -> None:
    # uncalibrated, Silverman's test is conservative: below its level on one mode
    rejected = [silverman_test(np.random.RandomState(s).normal(size=300), random_state=s,
                               n_bootstrap=100)[1] < 0.05 for s in range(20)]
    assert sum(rejected) <= 2


def test_the_split_test_reads_two_means_on_the_first_half() -> None:
    X = make_blobs(201, centers=2, cluster_std=2.0, random_state=3)[0]
    got = unimodal_split_test(X, random_state=7)
    rng = np.random.RandomState(7)
    order = rng.permutation(201)
    km = KMeans(2, n_init=10, random_state=rng.randint(np.iinfo(np.int32).max))
    centres = km.fit(X[order[:100]]).cluster_centers_
    np.testing.assert_allclose(got.centres, centres)
    h, p = silverman_test(X[order[100:]] @ (centres[1] - centres[0]), rng)
    assert (got.critical_bandwidth, got.pvalue) == (h, p)


def test_the_split_test_keeps_heavy_tails_and_skew_whole() -> None:
    # a normality test (G-means' Anderson-Darling) rejects all three
    rng = np.random.RandomState(2)
    for X in (_elliptical_t(1000, 5, 0), rng.gamma(2.0, size=(1000, 2)),
              np.exp(0.5 * rng.normal(size=(1000, 3)))):
        assert unimodal_split_test(X, random_state=0).pvalue > 0.05


def test_the_split_test_is_reproducible_and_checks_its_input() -> None:
    X = np.random.RandomState(2).normal(size=(100, 3))
    assert unimodal_split_test(X, random_state=3).pvalue == unimodal_split_test(
        X, random_state=3).pvalue
    with pytest.raises(ValueError, match="X has 5 sample"):
        unimodal_split_test(X[:5])
    with pytest.raises(ValueError, match="X contains NaN"):
        unimodal_split_test(np.where(X > 2, np.nan, X))
    same = unimodal_split_test(np.ones((20, 3)), random_state=0)
    assert (same.critical_bandwidth, same.pvalue) == (0.0, 1.0)


def test_a_curved_band_is_no_shoulder_though_it_has_two_modes_along_a_line() -> None:
    X = _annulus(1000, 1000)
    assert unimodal_split_test(X, random_state=0).pvalue < 0.0228  # an arc piles up at its ends
    fit = fit_landscape(default_kernel(X), X, OPTS)
    a, b = unimodal_split_test(X, random_state=0).centres
    segment = a + np.linspace(0, 1, 20)[:, None] * (b - a)
    assert fit.model.variance(segment).max() > fit.r_star  # the segment crosses the hole
    assert not shoulder(X, fit, 20, random_state=0)


def test_too_few_points_to_halve_are_no_shoulder() -> None:
    # every reading of these 5 points gives one cluster, and they are not uniform on
    # their box: the check is asked, and 5 points cannot be halved and tested
    X = np.random.RandomState(0).normal(size=(5, 2))
    X[:2] += 3
    fit = fit_landscape(default_kernel(X), X, OPTS)
    assert not shoulder(X, fit, 20, random_state=0)
    with warnings.catch_warnings():  # one mode read: one cluster without doubt
        warnings.simplefilter("error")
        assert GPClustering(random_state=0).fit(X).n_clusters_ == 1


def test_overlapping_blobs_are_a_shoulder() -> None:
    X = _standardised(make_blobs(400, centers=5, cluster_std=1.5, random_state=1)[0])
    fit = fit_landscape(default_kernel(X), X, OPTS)
    assert shoulder(X, fit, 20, random_state=0)


def test_a_shoulder_is_split_by_the_persistent_modes() -> None:
    # every other reading gives one cluster here (the support at ℓ₀ in one piece)
    X, y = make_blobs(400, centers=5, cluster_std=1.5, random_state=1)
    gp = GPClustering(random_state=0).fit(_standardised(X))
    assert gp.count_trace_.reading == "modes"
    assert gp.n_clusters_ >= 3
    assert adjusted_rand_score(y, gp.labels_) > 0.5


@pytest.mark.parametrize("kind", ["gaussian", "t", "annulus"])
def test_one_mode_and_one_band_stay_one_cluster(kind: str) -> None:
    rng = np.random.RandomState(4)
    if kind == "annulus":  # with the segment check left out, 5 arcs
        X = _annulus(300, 0)
    else:
        X = rng.normal(size=(400, 2)) if kind == "gaussian" else _elliptical_t(400, 2, 4)
        X = X @ np.array([[1.0, 0.6], [0.0, 0.5]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gp = GPClustering(random_state=0).fit(X)
    # one mode at a length scale read: no warning; the annulus (one band) is read as
    # several modes at every length scale, and one cluster is in doubt there
    assert (len(caught) > 0) == (kind == "annulus"), [str(w.message) for w in caught]
    assert gp.n_clusters_ == 1


def test_some_group_has_two_modes_only_where_a_split_group_is_two_groups() -> None:
    rng = np.random.RandomState(0)
    one = rng.normal(size=(400, 3))  # one blob, cut in two by a finer reading
    halves = (one[:, 0] > 0).astype(np.intp)
    coarse = np.zeros(400, dtype=np.intp)
    assert not some_group_has_two_modes(one, coarse, halves, 10, 0.0228, random_state=0)
    two = np.r_[rng.normal(0, 1, (200, 3)), rng.normal(4, 1, (200, 3))]
    split = np.repeat([0, 1], 200).astype(np.intp)
    assert some_group_has_two_modes(two, coarse, split, 10, 0.0228, random_state=0)
    # a group the finer reading does not split is not tested: nothing to test, no
    assert not some_group_has_two_modes(two, split, split, 10, 0.0228, random_state=0)
    # noise (-1) in the finer reading is in no group
    noisy = split.copy()
    noisy[::50] = -1
    assert some_group_has_two_modes(two, coarse, noisy, 10, 0.0228, random_state=0)
    assert not some_group_has_two_modes(two, coarse, np.full(400, -1), 10, 0.0228)

