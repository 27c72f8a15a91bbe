"""The one ladder of length scales of kernel=None (``cluster/gp/_ladder.py``)."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernel_patterns.cluster.gp import _ladder
from kernel_patterns.cluster.gp._ladder import FACTORS, Ladder, factors_between, step_up
from kernel_patterns.cluster.gp._landscape import FlowOptions


def test_the_rungs_are_root_two_steps_from_a_quarter_to_two_root_two() -> None:
    np.testing.assert_allclose(np.diff(np.log2(FACTORS)), 0.5)
    assert FACTORS[0] == 0.25 and 1.0 in FACTORS
    assert FACTORS[-1] == pytest.approx(2 * np.sqrt(2))


def test_factors_between_follow_the_order_of_the_bounds() -> None:
    assert factors_between(1.0, 0.25) == [1.0, 2**-0.5, 0.5, 2**-1.5, 0.25]
    assert factors_between(0.5, 1.0) == [0.5, 2**-0.5, 1.0]
    assert step_up(1.0) == 2**0.5
    assert step_up(FACTORS[-1]) == FACTORS[-1]


@pytest.mark.parametrize("threads", [1, 2])
def test_each_rung_is_fitted_and_read_once(threads, monkeypatch) -> None:
    monkeypatch.setattr(_ladder, "LADDER_THREADS", threads)
    X, _ = make_blobs(120, centers=2, random_state=0)
    reads = []

    def read(fit):
        reads.append(fit.ell)
        return np.zeros(fit.S.shape[0], dtype=np.intp), 1, fit.r_star

    opts = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)
    with _ladder.ladder_pool() as pool:
        rungs = Ladder(X, X, opts, None, read, pool)
        first = rungs.rung(1.0)
        assert rungs.rung(1.0) is first
        longer = rungs.rung(2**0.5)  # fitted ahead on the pool, or now without one
        np.testing.assert_array_equal(rungs.basins(1.0), rungs.basins(1.0))
    assert longer.fit.ell == pytest.approx(2**0.5 * first.fit.ell)
    assert sorted(reads) == sorted(set(reads))  # no landscape read twice
    assert rungs.basins(1.0).shape == (120,)
