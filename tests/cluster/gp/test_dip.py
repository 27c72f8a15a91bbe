"""Hartigan's dip and its test of one mode (``cluster/gp/_dip.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.cluster.gp import dip_statistic, dip_test


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
    with pytest.raises(ValueError, match="n_bootstrap must be at least 1"):
        dip_test(np.arange(10.0), n_samples=0)
