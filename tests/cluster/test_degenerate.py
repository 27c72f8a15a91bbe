"""Degenerate clusterings (``cluster/_degenerate.py``)."""

from __future__ import annotations

import numpy as np

from kernel_patterns.cluster._degenerate import held_first, split_identical_rows


def test_split_identical_rows_reference():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(200, 2)).astype(float)  # 9 distinct rows, many copies
    labels = rng.integers(0, 2, size=200)
    # brute force: a group is split when its rows carry two labels
    groups: dict[tuple[float, ...], set[int]] = {}
    for row, lab in zip(map(tuple, X), labels, strict=True):
        groups.setdefault(row, set()).add(int(lab))
    want = sum(len(v) > 1 for v in groups.values())
    largest = max(np.unique(X, axis=0, return_counts=True)[1])
    assert split_identical_rows(X, labels) == (want, largest)
    assert split_identical_rows(np.eye(4), np.arange(4)) == (0, 1)


def test_held_first_numbers_without_gaps_and_keeps_the_order() -> None:
    rng = np.random.default_rng(1)
    labels = rng.choice([1, 3, 4, 7], size=50)
    rank = held_first(labels, 9)
    new = rank[labels]
    np.testing.assert_array_equal(np.unique(new), np.arange(4))
    # the same partition, the held clusters in their order, every old cluster a new number
    assert sorted(rank) == list(range(9))
    np.testing.assert_array_equal(rank[[1, 3, 4, 7]], [0, 1, 2, 3])
    assert held_first(np.arange(9), 9) is None
