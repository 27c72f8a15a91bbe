"""The one ladder of length scales of kernel=None (``cluster/gp/_ladder.py``)."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernel_patterns._parallel import Cancelled
from kernel_patterns.cluster.gp import _ladder
from kernel_patterns.cluster.gp._inducing import auto_n_landmarks, farthest_first
from kernel_patterns.cluster.gp._kernel import auto_length_scale
from kernel_patterns.cluster.gp._ladder import FACTORS, Ladder, factors_between, step_up
from kernel_patterns.cluster.gp._landscape import FlowOptions, InducingPlan


def test_the_rungs_are_root_two_steps_from_a_quarter_to_four() -> None:
    np.testing.assert_allclose(np.diff(np.log2(FACTORS)), 0.5)
    assert FACTORS[0] == 0.25 and 1.0 in FACTORS
    assert FACTORS[-1] == pytest.approx(4.0)


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
        rungs = Ladder(X, auto_length_scale(X), opts, None, read, pool)
        first = rungs.rung(1.0)
        assert rungs.rung(1.0) is first
        longer = rungs.rung(2**0.5)  # fitted ahead on the pool, or now without one
        np.testing.assert_array_equal(rungs.basins(1.0), rungs.basins(1.0))
    assert longer.fit.ell == pytest.approx(2**0.5 * first.fit.ell)
    assert sorted(reads) == sorted(set(reads))  # no landscape read twice
    assert rungs.basins(1.0).shape == (120,)


def test_a_rung_started_ahead_and_not_read_stops_when_the_pool_closes(monkeypatch) -> None:
    """The ladder's exit does not wait for a rung nobody reads: one being fitted stops at
    its next variance evaluation (Cancelled), one not begun is dropped."""
    monkeypatch.setattr(_ladder, "LADDER_THREADS", 2)
    monkeypatch.setattr(_ladder, "usable_threads", lambda: 2)
    X = np.random.RandomState(0).rand(1500, 2)

    def read(fit):
        return np.zeros(fit.S.shape[0], dtype=np.intp), 1, fit.r_star

    opts = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)
    with _ladder.ladder_pool() as pool:
        rungs = Ladder(X, auto_length_scale(X), opts, None, read, pool)
        rungs.start(1.0)
        rungs.start(2**0.5)
        ahead = [rungs._made[1.0], rungs._made[2**0.5]]
    assert all(f.cancelled() or isinstance(f.exception(), Cancelled) for f in ahead)
    assert rungs.done == {}
    # the same ladder without a pool fits each rung when asked, to its end
    alone = Ladder(X[:200], auto_length_scale(X[:200]), opts, None, read)
    assert alone.rung(1.0).n_modes == 1


def test_longer_rungs_use_a_cover_of_the_inducing_points_at_their_length_scale() -> None:
    """With a count that follows the length scale (``low`` set), a rung √2 and 2√2 longer
    uses fewer inducing points, a farthest-point cover of the plan's own: each is within
    half a length scale of every subsample point that ℓ₀'s points cover; ℓ₀ and shorter
    rungs, and a plan with a count given, keep them all."""
    X = np.random.RandomState(0).rand(3000, 2)
    sub = np.arange(0, 3000, 2)
    ell0 = auto_length_scale(X[sub])
    m = auto_n_landmarks(X[sub], ell0, low=50, high=1000)
    U = X[sub][farthest_first(X[sub], m)]
    plan = InducingPlan(U=U, subsample=sub, low=50)
    assert plan.at_length_scale(X, ell0) is plan
    assert plan.at_length_scale(X, ell0 / 2**0.5) is plan
    sizes = [len(plan.at_length_scale(X, f * ell0).U) for f in (2**0.5, 2.0, 2**1.5)]
    assert m > sizes[0] > sizes[1] > sizes[2] >= 50
    longer = plan.at_length_scale(X, 2 * ell0)
    assert {tuple(u) for u in longer.U} <= {tuple(u) for u in U}  # a subset of the plan's
    np.testing.assert_array_equal(longer.subsample, sub)
    given = InducingPlan(U=U, subsample=sub)  # n_landmarks given: low is None
    assert given.at_length_scale(X, 2 * ell0) is given


def test_farthest_first_is_the_greedy_cover() -> None:
    U = np.random.RandomState(1).rand(200, 3)
    idx = farthest_first(U, 10)
    assert idx[0] == 0 and np.unique(idx).size == 10
    # brute force: each next pick is the row farthest from those chosen before it
    for k in range(1, 10):
        d = np.min(np.linalg.norm(U[:, None] - U[idx[:k]][None], axis=2), axis=1)
        assert d[idx[k]] == pytest.approx(d.max())
