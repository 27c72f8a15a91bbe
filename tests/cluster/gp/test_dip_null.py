"""The reference densities of the dip test and the shape constant that picks one
(``cluster/gp/_dip_null.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kernel_patterns.cluster.gp._dip import dip_partition, dip_test
from kernel_patterns.cluster.gp._dip_null import (
    NORMAL_C,
    beta_c,
    reference_samples,
    shape_constant,
    student_c,
)


def _c_by_finite_differences(dist: stats.rv_continuous, mode: float = 0.0) -> float:
    step = 1e-4
    f0 = dist.pdf(mode)
    f2 = (dist.pdf(mode + step) - 2.0 * f0 + dist.pdf(mode - step)) / step**2
    return float(-f2 / f0**3)


def test_shape_constants_match_finite_differences_of_the_densities() -> None:
    """c = |f''(m)| / f(m)³ of scipy's densities, by central differences."""
    for beta in (0.3, 2.0, 40.0):
        dist = stats.beta(beta + 1, beta + 1, loc=-1, scale=2)
        assert beta_c(beta) == pytest.approx(_c_by_finite_differences(dist), rel=1e-5)
    for dof in (0.7, 3.0, 30.0):
        assert student_c(dof) == pytest.approx(_c_by_finite_differences(stats.t(dof)), rel=1e-5)
    normal = _c_by_finite_differences(stats.norm(3.0, 0.2), 3.0)  # any scale
    assert normal == pytest.approx(NORMAL_C, rel=1e-5)
    assert beta_c(0.0) == 0.0
    assert beta_c(1e6) == pytest.approx(NORMAL_C, rel=1e-4)
    assert student_c(1e6) == pytest.approx(NORMAL_C, rel=1e-4)


def test_reference_samples_are_the_densities_of_that_shape() -> None:
    """Kolmogorov-Smirnov against the density with the shape constant asked."""
    rng = np.random.RandomState(0)
    cases = [(0.0, stats.uniform()), (beta_c(2.0), stats.beta(3, 3)),
             (NORMAL_C, stats.norm()), (student_c(3.0), stats.t(3)),
             (1e6, stats.t(0.5))]  # beyond the peakiest reference: that one
    for c, dist in cases:
        samples = np.array(list(reference_samples(c, rng, 2000, 3)))
        assert samples.shape == (3, 2000)
        assert stats.kstest(samples.ravel(), dist.cdf).pvalue > 0.01, c


def test_shape_constant_is_zero_for_flat_and_monotone_densities() -> None:
    rng = np.random.RandomState(1)
    for _ in range(5):
        assert shape_constant(np.sort(rng.uniform(size=2000)), rng) == 0.0
        assert shape_constant(np.sort(rng.exponential(size=2000)), rng) == 0.0  # mode at an end
    assert shape_constant(np.full(50, 3.0), rng) == 0.0
    assert shape_constant(np.array([0.0, 1.0, 2.0]), rng) == 0.0


def test_shape_constant_is_a_lower_bound_and_reads_a_narrow_peak() -> None:
    rng = np.random.RandomState(2)
    normal = [shape_constant(rng.normal(size=1000), rng) for _ in range(20)]
    assert np.sum(np.asarray(normal) > NORMAL_C) <= 1  # cautious: rarely above the truth
    # a group narrower than the spread of the whole sample: its peak is read
    peaked = np.r_[rng.normal(0.0, 0.5, 700), rng.normal(5.0, 2.0, 300)]
    before = peaked.copy()
    assert shape_constant(peaked, rng) > NORMAL_C
    np.testing.assert_array_equal(peaked, before)


def test_shape_calibration_keeps_the_level_and_sees_overlapping_groups() -> None:
    rng = np.random.RandomState(3)
    for draw in (rng.uniform, rng.exponential, rng.normal):
        pvalues = [dip_test(draw(size=300), rng, 100, calibration="shape")[1]
                   for _ in range(30)]
        assert np.sum(np.asarray(pvalues) < 0.023) <= 2, draw
    shape, uniform = [], []
    for seed in range(5):
        two = np.random.RandomState(seed)
        x = np.r_[two.normal(0.0, 1.0, 700), two.normal(3.5, 1.0, 300)]
        shape.append(dip_test(x, seed, 100, calibration="shape")[1])
        uniform.append(dip_test(x, seed, 100)[1])
    assert np.all(np.asarray(shape) <= np.asarray(uniform))
    assert np.sum(np.asarray(shape) < 0.023) >= 3
    assert np.sum(np.asarray(uniform) < 0.023) == 0


def test_dip_partition_divides_overlapping_groups_by_their_shape() -> None:
    rng = np.random.RandomState(0)
    x = np.r_[rng.normal(0.0, 1.0, 700), rng.normal(3.5, 1.0, 300)]
    shaped = dip_partition(x, random_state=0)
    assert shaped.n_modes == 2 and 1.5 < shaped.cuts[0] < 3.0, shaped.cuts
    assert dip_partition(x, random_state=0, calibration="uniform").n_modes == 1


def test_calibration_is_checked() -> None:
    with pytest.raises(ValueError, match=r"calibration must be one of .*; got 'flat'"):
        dip_test(np.arange(10.0), calibration="flat")
    with pytest.raises(ValueError, match="calibration must be one of"):
        dip_partition(np.arange(10.0), calibration="normal")


def test_values_tied_up_to_round_off_are_binned() -> None:
    """More than half the values equal up to round-off, away from 0: the interquartile
    range, and so the bandwidth, was round-off too, and numpy could not bin it (a
    ValueError from np.histogram in GPClustering's fit of one feature)."""
    from kernel_patterns import GPClustering

    rng = np.random.default_rng(0)
    ties = 2.179726413678564 + np.where(rng.random(600) < 0.5, 0.0, 4.440892098500626e-16)
    x = np.r_[ties, 2.18 - 0.01 * rng.exponential(size=200),
              2.18 + 0.01 * rng.exponential(size=200)]
    assert shape_constant(x, np.random.default_rng(0)) >= 0.0
    part = 2.179726413678564 + np.repeat([0.0, 4.440892098500626e-16, 8.881784197001252e-16],
                                         [15, 10, 8])
    assert dip_partition(part, 0, min_size=5).n_modes >= 1
    assert GPClustering(random_state=0).fit(x[:, None]).n_clusters_ >= 1
