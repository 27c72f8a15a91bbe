"""The shortcuts of the exact GP fit give what the plain computation gives.

* ``GPVarianceModel.at_training_points`` (weights ``I − ν C⁻¹``, no GEMM) against
  ``value_and_gradient(X)`` and against central finite differences;
* ``GPVarianceModel.variance`` (a triangular solve) against ``value_and_gradient`` (C⁻¹);
* ``flow_to_equilibria(start=...)`` against the flow that computes its own start;
* ``hierarchy_levels`` (lazy Kruskal on lower bounds) against ``segment_levels`` followed by
  ``single_linkage`` (the same linkage and merge edges), on the paper's 2-D shapes.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import datasets
from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._graph import (
    candidate_pairs,
    hierarchy_levels,
    segment_levels,
    single_linkage,
)
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import RBF, GPCovariance

PAPER = GPCovariance(v0=1, v1=10, v2=1, l=400)


def _scaled(X: np.ndarray) -> np.ndarray:
    return datasets.scale_unit_interval(X)


def _shapes() -> dict[str, np.ndarray]:
    return {
        "rings": _scaled(datasets.make_rings((100, 200), random_state=0)[0]),
        "three moons": _scaled(datasets.make_three_moons(random_state=0)[0]),
        "logo": _scaled(datasets.make_icassp_logo(random_state=0)[0]),
    }


@pytest.mark.parametrize(
    ("kernel", "atol"),
    [(PAPER, 1e-12), (GPCovariance(v0=2, v1=0, v2=0.5, l=[300, 100]), 1e-12),
     # no noise: the block product itself (σ² = 0 at the points up to round-off)
     (RBF(gamma=50.0), 0.0)],
)
def test_values_at_the_training_points_match_the_block_product(kernel, atol) -> None:
    X = _scaled(datasets.make_rings((60, 90), random_state=1)[0])
    model = fit_variance_model(kernel, X)
    v, g = model.at_training_points()
    v_ref, g_ref = model.value_and_gradient(X)
    np.testing.assert_allclose(v, v_ref, rtol=1e-8, atol=atol)
    scale = np.abs(g_ref).max()
    np.testing.assert_allclose(g, g_ref, rtol=0, atol=max(1e-8 * scale, atol))


@pytest.mark.parametrize("kernel", [PAPER, GPCovariance(v0=2, v1=0, v2=0.5, l=[300, 100])])
def test_variance_by_triangular_solve_equals_the_product_with_the_inverse(kernel) -> None:
    """``variance`` (‖L⁻¹k‖², one solve) against ``value_and_gradient`` (kᵀC⁻¹k, one GEMM),
    on query points off the data, in blocks smaller than the query set."""
    X = _scaled(datasets.make_rings((60, 90), random_state=1)[0])
    model = fit_variance_model(kernel, X)
    Q = np.random.RandomState(0).uniform(-0.2, 1.2, size=(300, 2))
    Q_before = Q.copy()
    ref = model.value_and_gradient(Q)[0]
    np.testing.assert_allclose(model.variance(Q), ref, rtol=1e-10, atol=1e-12)
    model._block_rows = 64  # type: ignore[misc]
    np.testing.assert_allclose(model.variance(Q), ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(Q, Q_before)
    assert model.L.flags.f_contiguous


def test_gradient_at_the_training_points_equals_finite_differences() -> None:
    X = _scaled(datasets.make_rings((40, 60), random_state=2)[0])
    model = fit_variance_model(PAPER, X)
    _, g = model.at_training_points()
    h = 1e-6
    for i in (0, 17, 55, 99):
        fd = np.empty(2)
        for k in range(2):
            e = np.zeros((1, 2))
            e[0, k] = h
            up = model.variance(X[i : i + 1] + e)[0]
            down = model.variance(X[i : i + 1] - e)[0]
            fd[k] = (up - down) / (2 * h)
        np.testing.assert_allclose(g[i], fd, rtol=1e-5, atol=1e-7 * np.abs(g).max())


def test_flow_from_a_given_start_equals_the_flow_that_computes_it() -> None:
    X = _shapes()["three moons"]
    model = fit_variance_model(PAPER, X)
    start = model.at_training_points()
    kw = {"length_scale": 0.05, "variance_scale": float(start[0].max())}
    given = flow_to_equilibria(model, X, start=start, **kw)
    own = flow_to_equilibria(model, X, **kw)
    np.testing.assert_array_equal(given.assignment, own.assignment)
    np.testing.assert_allclose(given.equilibria, own.equilibria, rtol=0, atol=1e-9)
    assert given.n_iter == own.n_iter


@pytest.mark.parametrize("name", ["rings", "three moons", "logo"])
@pytest.mark.parametrize("n_points", [20, 5])
def test_lazy_hierarchy_equals_the_one_from_every_segment(name, n_points) -> None:
    X = _shapes()[name]
    model = fit_variance_model(PAPER, X)
    start = model.at_training_points()
    S = flow_to_equilibria(model, X, length_scale=0.05, variance_scale=float(start[0].max()),
                           start=start).equilibria
    assert S.shape[0] >= 10
    I, J = candidate_pairs(S)
    full = segment_levels(model, S, I, J, n_points=n_points)
    lazy = hierarchy_levels(model, S, I, J, n_points=n_points)
    Z_full, e_full = single_linkage(S.shape[0], I, J, full)
    Z_lazy, e_lazy = single_linkage(S.shape[0], I, J, lazy)
    np.testing.assert_array_equal(e_lazy, e_full)
    np.testing.assert_array_equal(Z_lazy[:, [0, 1, 3]], Z_full[:, [0, 1, 3]])
    np.testing.assert_allclose(Z_lazy[:, 2], Z_full[:, 2], rtol=1e-12)
    # every weight is a lower bound of the merge level, exact on the merges
    assert np.all(lazy <= full * (1 + 1e-12))
    pair = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(I, J, strict=True))}
    used = [pair[(int(a), int(b))] for a, b in np.sort(e_full, axis=1)]
    np.testing.assert_allclose(lazy[used], full[used], rtol=1e-12)
    assert np.sum(np.isclose(lazy, full, rtol=1e-12)) < I.size  # some pairs were spared


def test_lazy_hierarchy_of_no_pairs_and_of_two_seps() -> None:
    X = _shapes()["rings"]
    model = fit_variance_model(PAPER, X)
    none = np.empty(0, dtype=np.intp)
    assert hierarchy_levels(model, X[:1], none, none).shape == (0,)
    S = X[[0, 150]]
    I, J = np.array([0]), np.array([1])
    np.testing.assert_allclose(hierarchy_levels(model, S, I, J),
                               segment_levels(model, S, I, J), rtol=1e-12)


@pytest.mark.parametrize("name", ["rings", "three moons", "logo"])
def test_coalesced_trajectories_end_where_each_alone_ends(name) -> None:
    """Trajectories that meet move on as one: against every point flowed alone
    (``coalesce=0``), the basins are the same partition up to a few points at basin
    boundaries, and every SEP the coalesced flow finds is one the lone flows find."""
    from sklearn.metrics import adjusted_rand_score

    X = _shapes()[name]
    model = fit_variance_model(PAPER, X)
    start = model.at_training_points()
    kw = {"length_scale": 0.05, "variance_scale": float(start[0].max()), "start": start}
    alone = flow_to_equilibria(model, X, coalesce=0.0, **kw)
    joint = flow_to_equilibria(model, X, **kw)
    assert adjusted_rand_score(alone.assignment, joint.assignment) > 0.97
    gap = np.linalg.norm(joint.equilibria[:, None] - alone.equilibria[None], axis=2).min(1)
    assert gap.max() <= 0.1 * 0.05  # within merge_radius length scales
    # a follower's endpoint is its leader's: on its SEP like every other point
    np.testing.assert_allclose(joint.endpoints, joint.equilibria[joint.assignment],
                               rtol=0, atol=2 * 0.1 * 0.05)


def test_the_point_higher_up_follows() -> None:
    from kernel_patterns.cluster.gp._flow import _coalesce

    x = np.array([[0.0, 0.0], [0.01, 0.0], [1.0, 1.0]])
    f = np.array([0.5, 0.4, 0.3])
    g = np.array([[1.0, 0.0], [1.0, 0.01], [0.0, 1.0]])
    idx = np.arange(3)
    follows = np.full(3, -1)
    active = np.ones(3, dtype=bool)
    moving = _coalesce(x, f, g, idx, 0.05, follows, active, (x, f, g, idx))  # current places
    assert moving.tolist() == [1, 2]
    assert follows.tolist() == [1, -1, -1]
    assert active.tolist() == [False, True, True]
    # the same two points moving apart (a basin boundary between them): both go on
    g_apart = np.array([[1.0, 0.0], [-1.0, 0.2], [0.0, 1.0]])
    follows[:] = -1
    active[:] = True
    moving = _coalesce(x, f, g_apart, idx, 0.05, follows, active, (x, f, g_apart, idx))
    assert moving.tolist() == [0, 1, 2] and (follows == -1).all()


def test_a_point_follows_the_trail_another_left() -> None:
    """A point near where another passed (lower on σ², same direction) follows it, though
    that point is now far away; its own trail and places higher up are not followed."""
    from kernel_patterns.cluster.gp._flow import _coalesce

    x = np.array([[0.0, 0.0], [5.0, 5.0]])
    f = np.array([0.5, 0.1])
    g = np.array([[1.0, 0.0], [1.0, 0.0]])
    own = (np.array([[0.01, 0.0]]), np.array([0.3]), np.array([[1.0, 0.0]]), np.array([0]))
    higher = (np.array([[0.01, 0.0]]), np.array([0.6]), np.array([[1.0, 0.0]]), np.array([1]))
    passed = (np.array([[0.01, 0.0]]), np.array([0.4]), np.array([[1.0, 0.01]]), np.array([1]))
    for trail, leader in [(own, -1), (higher, -1), (passed, 1)]:
        follows = np.full(2, -1)
        active = np.ones(2, dtype=bool)
        moving = _coalesce(x, f, g, np.arange(2), 0.05, follows, active, trail)
        assert follows.tolist() == [leader, -1]
        assert moving.tolist() == ([1] if leader == 1 else [0, 1])
        assert active.tolist() == [leader == -1, True]
