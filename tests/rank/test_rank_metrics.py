"""Kendall's τ and the ordinal concordance index (appended to kernel_patterns.metrics)."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.metrics import kendall_tau, ordinal_concordance_index


def brute_concordance(t, p):
    num = den = 0.0
    for i in range(len(t)):
        for j in range(len(t)):
            if t[i] < t[j]:
                den += 1
                num += 1.0 if p[i] < p[j] else 0.5 if p[i] == p[j] else 0.0
    return num / den


def brute_tau_a(t, p):
    s = 0.0
    n = len(t)
    for i in range(n):
        for j in range(i + 1, n):
            s += np.sign(t[i] - t[j]) * np.sign(p[i] - p[j])
    return s / (n * (n - 1) / 2)


@pytest.mark.parametrize("seed", range(4))
def test_concordance_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 5, size=60)
    p = np.where(rng.random(60) < 0.5, rng.integers(0, 5, size=60), rng.normal(size=60))
    assert ordinal_concordance_index(t, p) == pytest.approx(brute_concordance(t, p))


def test_tau_without_ties_is_tau_a():
    rng = np.random.default_rng(5)
    t, p = rng.permutation(30), rng.normal(size=30)
    assert kendall_tau(t, p) == pytest.approx(brute_tau_a(t, p))


def test_perfect_and_reversed():
    y = [1, 1, 2, 3, 3, 4]
    assert ordinal_concordance_index(y, y) == 1.0
    assert ordinal_concordance_index(y, [-v for v in y]) == 0.0
    assert ordinal_concordance_index(y, np.zeros(6)) == 0.5
    assert kendall_tau(y, y) == pytest.approx(1.0)
    assert kendall_tau(y, [-v for v in y]) == pytest.approx(-1.0)


def test_bad_input():
    with pytest.raises(ValueError, match="same length"):
        kendall_tau([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="single rank"):
        ordinal_concordance_index([1, 1, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="numeric"):
        ordinal_concordance_index(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match=r"NaN|finite"):
        kendall_tau([1.0, np.nan], [1, 2])
