"""The batched descent to stable equilibrium points, eq. 4.2 (``cluster/gp/_flow.py``).

* every SEP ``flow_to_equilibria`` returns is a minimum of σ²: a gradient near 0 by finite
  differences of ``model.variance``, and no lower σ² at small displacements;
* ``flow_to_equilibria(start=...)`` against the flow that computes its own start;
* coalesced trajectories (``_coalesce``) against every point flowed alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._variance import fit_variance_model

from .gp_data import KERNEL, paper_shapes


@pytest.mark.parametrize("name", ["rings", "three moons"])
@pytest.mark.parametrize("coalesce", [0.0, 3.0])
def test_every_sep_is_a_local_minimum_with_a_vanishing_gradient(name, coalesce) -> None:
    """Reference: the SEPs checked by ``model.variance`` alone (no closed-form gradient)."""
    X = paper_shapes()[name]
    model = fit_variance_model(KERNEL, X)
    ell = 1 / np.sqrt(400)
    r_star = float(model.variance(X).max())
    tol = 1e-4
    flow = flow_to_equilibria(model, X, length_scale=ell, variance_scale=r_star, tol=tol,
                              coalesce=coalesce)
    S = flow.equilibria
    assert flow.n_unconverged == 0 and S.shape[0] >= 2
    assert np.array_equal(np.unique(flow.assignment), np.arange(S.shape[0]))
    # central finite differences of σ² (h = 1e-4 ℓ): ‖∇σ²‖ ℓ within the convergence test
    h = 1e-4 * ell
    fd = np.empty_like(S)
    for k in range(S.shape[1]):
        E = np.zeros_like(S)
        E[:, k] = h
        fd[:, k] = (model.variance(S + E) - model.variance(S - E)) / (2 * h)
    assert np.all(np.linalg.norm(fd, axis=1) * ell <= 2 * tol * r_star)
    # no lower σ² at displacements of 0.01 to 0.1 ℓ in random directions: a gradient of at
    # most tol · r* / ℓ lowers σ² by at most 0.1 · tol · r* that far
    v = model.variance(S)
    rng = np.random.default_rng(0)
    for radius in (0.01, 0.03, 0.1):
        for _ in range(8):
            u = rng.normal(size=S.shape)
            u *= radius * ell / np.linalg.norm(u, axis=1, keepdims=True)
            assert np.all(model.variance(S + u) >= v - 0.1 * tol * r_star)


def test_equilibria_are_local_minima_below_level(rings_fit) -> None:
    gp, _X, *_ = rings_fit
    S = gp.equilibria_
    v = gp.variance(S)
    assert (v <= gp.level_).all()
    ell = 1 / np.sqrt(400)
    rng = np.random.default_rng(1)
    for _ in range(4):  # no nearby point is much lower: a minimum up to the tolerance
        P = S + 0.05 * ell * rng.normal(size=S.shape)
        assert (gp.variance(P) >= v - 1e-5 * gp.level_).all()
    # every training point reached one of them
    assert gp.basins_.min() == 0 and gp.basins_.max() == len(S) - 1


def test_flow_from_a_given_start_equals_the_flow_that_computes_it() -> None:
    X = paper_shapes()["three moons"]
    model = fit_variance_model(KERNEL, X)
    start = model.at_training_points()
    kw = {"length_scale": 0.05, "variance_scale": float(start[0].max())}
    given = flow_to_equilibria(model, X, start=start, **kw)
    own = flow_to_equilibria(model, X, **kw)
    np.testing.assert_array_equal(given.assignment, own.assignment)
    np.testing.assert_allclose(given.equilibria, own.equilibria, rtol=0, atol=1e-9)
    assert given.n_iter == own.n_iter


@pytest.mark.parametrize("name", ["rings", "three moons", "logo"])
def test_coalesced_trajectories_end_where_each_alone_ends(name) -> None:
    """Trajectories that meet move on as one: against every point flowed alone
    (``coalesce=0``), the basins are the same partition up to a few points at basin
    boundaries, and every SEP the coalesced flow finds is one the lone flows find."""
    from sklearn.metrics import adjusted_rand_score

    X = paper_shapes()[name]
    model = fit_variance_model(KERNEL, X)
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
