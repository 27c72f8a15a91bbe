"""Hartigan's dip, its test of one mode and the division of a line into parts of one mode
(``cluster/gp/_dip.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.cluster.gp._dip import _two_means, dip_partition, dip_statistic, dip_test


def test_dip_statistic_matches_hartigans_values() -> None:
    """Values of the reference implementation (Maechler's C translation of AS 217, through
    the ``diptest`` package, outside this project), and the dip's own properties."""
    x = np.array([0.1, 0.4, 0.45, 0.5, 0.9, 1.7, 2.0, 2.1, 2.15, 3.3])
    assert dip_statistic(x) == pytest.approx(0.1318181818181818, abs=1e-15)
    rng = np.random.RandomState(42)
    y = np.r_[rng.normal(0, 1, 60), rng.normal(5, 1, 40)]
    assert dip_statistic(y) == pytest.approx(0.08173368140812705, abs=1e-15)
    assert dip_statistic(np.r_[np.zeros(10), np.ones(10)]) == 0.25  # two point masses
    assert dip_statistic(np.full(7, 2.0)) == 0.0
    # order, shift and scale do not matter
    assert dip_statistic(3.0 * y[::-1] - 7.0) == pytest.approx(dip_statistic(y), abs=1e-15)


def test_dip_test_is_calibrated_on_flat_samples_and_finds_two_modes() -> None:
    rng = np.random.RandomState(0)
    flat = np.array([dip_test(rng.uniform(size=300), random_state=0)[1] for _ in range(40)])
    assert np.sum(flat < 0.023) <= 3  # about 2.3 % expected (Silverman's test: below)
    assert dip_test(np.r_[rng.normal(0, 1, 300), rng.normal(4, 1, 300)],
                    random_state=0)[1] < 0.01
    with pytest.raises(ValueError, match="n_samples must be at least 1; got 0"):
        dip_test(np.arange(10.0), n_samples=0)


def test_two_means_on_a_line_is_the_least_within_sum_of_squares() -> None:
    """Against every split tried by brute force (shifted values, ties and a far outlier)."""
    rng = np.random.RandomState(3)
    for x in (np.sort(rng.normal(size=40)), np.sort(np.r_[rng.normal(1e6, 1, 30), 1e6 + 50]),
              np.sort(np.r_[np.zeros(5), np.ones(7), rng.uniform(size=9)])):
        within = [((x[:j] - x[:j].mean()) ** 2).sum() + ((x[j:] - x[j:].mean()) ** 2).sum()
                  for j in range(1, x.size)]
        assert within[_two_means(x) - 1] == pytest.approx(min(within), rel=1e-9, abs=1e-9)


def test_dip_partition_keeps_one_mode_whole() -> None:
    rng = np.random.RandomState(0)
    for values in (rng.uniform(size=1000), rng.normal(size=1000),
                   rng.standard_t(3, size=1000), rng.exponential(size=1000)):
        found = dip_partition(values, random_state=0)
        assert found.n_modes == 1 and found.cuts.size == 0
        assert found.pvalues[0] >= 0.023  # the whole sample's test, not rejected
    assert dip_partition(np.full(30, 2.0)).n_modes == 1
    assert dip_partition(np.arange(10.0)).pvalues.size == 0  # under 2 min_size: not tested


def test_dip_partition_cuts_in_the_valleys() -> None:
    """The parts are the generating groups: cuts in the gaps between separated groups, a
    group of 5 % far away found (the trimmed count of Silverman's test can miss it), a lone
    far outlier not drawing the cut, and two point masses cut halfway."""
    rng = np.random.RandomState(1)
    three = np.r_[rng.normal(0, 0.6, 400), rng.normal(4, 0.6, 400), rng.normal(8, 0.6, 400)]
    found = dip_partition(three, random_state=0)
    assert found.n_modes == 3
    assert 1.2 < found.cuts[0] < 2.8 and 5.2 < found.cuts[1] < 6.8
    y = np.repeat([0, 1], [2850, 150])
    far = np.r_[rng.normal(0, 1, 2850), rng.normal(8, 0.5, 150)]
    found = dip_partition(far, random_state=0)
    assert found.n_modes == 2
    assert np.array_equal(np.searchsorted(found.cuts, far), y)
    lone = np.r_[rng.normal(0, 1, 300), rng.normal(5, 1, 300), 60.0]
    found = dip_partition(lone, random_state=0)
    assert found.n_modes == 2 and 1.5 < found.cuts[0] < 3.5
    masses = dip_partition(np.r_[np.zeros(20), np.ones(20)], random_state=0)
    np.testing.assert_array_equal(masses.cuts, [0.5])


def test_dip_partition_is_reproducible_and_leaves_its_input() -> None:
    rng = np.random.RandomState(2)
    values = np.r_[rng.normal(0, 1, 200), rng.normal(5, 1, 200)]
    kept = values.copy()
    a, b = dip_partition(values, random_state=4), dip_partition(values, random_state=4)
    np.testing.assert_array_equal(a.cuts, b.cuts)
    np.testing.assert_array_equal(a.pvalues, b.pvalues)
    np.testing.assert_array_equal(values, kept)
    # a group smaller than min_size is not cut off
    small = np.r_[rng.normal(0, 1, 100), np.full(25, 40.0)]
    assert dip_partition(small, random_state=0, min_size=30).n_modes == 1
    assert dip_partition(small, random_state=0, min_size=10).n_modes == 2


def test_dip_partition_checks_its_input() -> None:
    with pytest.raises(ValueError, match="values must be 1-D"):
        dip_partition(np.ones((10, 2)))
    with pytest.raises(ValueError, match="alpha must be in"):
        dip_partition(np.arange(10.0), alpha=0.0)
    with pytest.raises(ValueError, match="min_size must be a positive integer"):
        dip_partition(np.arange(10.0), min_size=0)
    with pytest.raises(ValueError, match="min_size must be a positive integer"):
        dip_partition(np.arange(10.0), min_size=2.5)
    with pytest.raises(ValueError, match="n_samples must be at least 1; got 0"):
        dip_partition(np.arange(10.0), n_samples=0)
    with pytest.raises(ValueError, match="values contains"):
        dip_partition(np.r_[np.arange(10.0), np.nan])


def test_dip_partition_into_n_parts_cuts_the_largest_dips_first() -> None:
    rng = np.random.RandomState(5)
    three = np.r_[rng.normal(0, 0.5, 300), rng.normal(4, 0.5, 300), rng.normal(5.5, 0.5, 300)]
    two = dip_partition(three, n_parts=2)
    assert two.n_modes == 2 and two.pvalues.size == 0
    assert 1.5 < two.cuts[0] < 3.0  # the deep valley first, the shallow one second
    found = dip_partition(three, n_parts=3)
    assert found.n_modes == 3 and 4.2 < found.cuts[1] < 5.2
    assert dip_partition(three, n_parts=1).n_modes == 1
    assert dip_partition(np.r_[np.zeros(6), np.ones(6)], n_parts=4, min_size=5).n_modes == 2
    with pytest.raises(ValueError, match="n_parts must be a positive integer"):
        dip_partition(three, n_parts=0)
