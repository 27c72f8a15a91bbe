"""Identical rows split across clusters (``cluster/_duplicates.py``)."""

from __future__ import annotations

import numpy as np

from kernel_patterns.cluster._duplicates import split_identical_rows


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
