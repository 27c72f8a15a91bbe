"""What the two rankers share (rank/_common.py): ``score``'s weights are checked as fit's."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import NuRanking, OnlineRanking
from kernel_patterns.kernels import Linear


@pytest.mark.parametrize("ranker", [NuRanking(nu=0.3, kernel=Linear()),
                                    OnlineRanking(kernel=Linear())])
def test_score_checks_its_sample_weight(ranker) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = ranker.fit(X, y)
    err = np.abs(np.searchsorted(model.classes_, model.predict(X)) - y)
    w = rng.uniform(0.5, 2.0, 40)
    w0 = w.copy()
    assert model.score(X, y, sample_weight=w) == pytest.approx(-np.average(err, weights=w))
    np.testing.assert_array_equal(w, w0)
    assert model.score(X, y, sample_weight=np.r_[np.zeros(39), 1.0]) == -err[-1]
    bad = {r"sample_weight\.shape == \(3,\), expected \(40,\)": np.ones(3),
           r"sample_weight contains NaN": np.full(40, np.nan),
           r"Negative values in data passed to `sample_weight`": -np.ones(40),
           r"(sample_weight must have a positive sum|at least one non-zero)": np.zeros(40)}
    for match, weights in bad.items():
        with pytest.raises(ValueError, match=match):
            model.score(X, y, sample_weight=weights)
