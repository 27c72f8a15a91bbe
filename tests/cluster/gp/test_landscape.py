"""One landscape fit for one kernel (``cluster/gp/_landscape.py``).

* ``fit_landscape``: exact, its steps (variance, flow, segment levels, linkage) done by hand;
  inducing, the flow of the plan's subsample only (in chunks with ``batch_size``);
* ``landscape_basins``: the fit's own flow (exact), the subsample's flows and the short-flow
  assignment of the other points (inducing);
* ``assign_points``: the full flow (exact) or ``assign_to_equilibria`` (inducing);
* ``assign_kwargs``: what ``GPClustering.assign_params()`` returns;
* ``Rung``: a frozen record whose ``own`` is the fit's flow assignment.
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import GPVarianceModel, assign_to_equilibria, flow_to_equilibria
from kernel_patterns.cluster.gp._assign import flow_assign
from kernel_patterns.cluster.gp._cuts import components_at
from kernel_patterns.cluster.gp._graph import candidate_pairs, segment_levels, single_linkage
from kernel_patterns.cluster.gp._inducing import InducingVarianceModel, choose_inducing_points
from kernel_patterns.cluster.gp._landscape import (
    FlowOptions,
    InducingPlan,
    Rung,
    assign_kwargs,
    assign_points,
    fit_landscape,
    landscape_basins,
)
from kernel_patterns.kernels import GPCovariance

KERNEL = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)
OPTS = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)


def _rings(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    X, y = datasets.make_rings((n // 3, n - n // 3), random_state=seed)
    return datasets.scale_unit_interval(X), y


def _plan(X: np.ndarray, m: int = 60, s: int = 150) -> InducingPlan:
    rng = np.random.RandomState(0)
    sub = np.sort(rng.choice(X.shape[0], s, replace=False)).astype(np.intp)
    return InducingPlan(U=choose_inducing_points(X, m, "kmeans", rng), subsample=sub)


@pytest.fixture(scope="module")
def rings() -> tuple[np.ndarray, np.ndarray]:
    return _rings(300)


@pytest.fixture(scope="module")
def exact_fit(rings):
    return fit_landscape(KERNEL, rings[0], OPTS)


@pytest.fixture(scope="module")
def inducing_fit(rings):
    return fit_landscape(KERNEL, rings[0], OPTS, _plan(rings[0]))


def test_exact_fit_is_its_steps_done_by_hand(rings, exact_fit) -> None:
    X, y = rings
    fit = exact_fit
    assert isinstance(fit.model, GPVarianceModel) and fit.plan is None
    v = fit.model.variance(X)
    np.testing.assert_allclose(fit.point_variance, v, rtol=1e-8)
    assert fit.r_star == pytest.approx(v.max(), rel=1e-8)
    assert fit.ell == pytest.approx(0.05)
    flow = flow_to_equilibria(fit.model, X, length_scale=0.05, variance_scale=fit.r_star,
                              tol=OPTS.tol, max_iter=OPTS.max_iter,
                              merge_radius=OPTS.merge_radius,
                              start=fit.model.at_training_points())
    np.testing.assert_array_equal(fit.flow.assignment, flow.assignment)
    np.testing.assert_array_equal(fit.S, flow.equilibria)
    np.testing.assert_array_equal(fit.sep_var, fit.model.variance(fit.S))
    I, J = candidate_pairs(fit.S)
    Z, edges = single_linkage(fit.S.shape[0], I, J, segment_levels(fit.model, fit.S, I, J))
    np.testing.assert_array_equal(fit.Z[:, [0, 1, 3]], Z[:, [0, 1, 3]])
    np.testing.assert_allclose(fit.Z[:, 2], Z[:, 2], rtol=1e-12)
    np.testing.assert_array_equal(fit.edges, edges)
    # the paper's cut at r*: the two rings
    groups = components_at(fit.Z, fit.S.shape[0], fit.r_star)
    assert adjusted_rand_score(y, groups[fit.flow.assignment]) == 1.0


def test_inducing_fit_flows_the_subsample_only(rings, inducing_fit) -> None:
    X, y = rings
    fit = inducing_fit
    plan = fit.plan
    assert isinstance(fit.model, InducingVarianceModel)
    np.testing.assert_array_equal(fit.model.U, plan.U)
    assert fit.flow.assignment.shape == plan.subsample.shape == (150,)
    v = fit.model.variance(X[plan.subsample])
    np.testing.assert_array_equal(fit.point_variance, v)
    assert fit.r_star == v.max()
    np.testing.assert_array_equal(fit.sep_var, fit.model.variance(fit.S))
    groups = components_at(fit.Z, fit.S.shape[0], fit.r_star)
    assert adjusted_rand_score(y[plan.subsample], groups[fit.flow.assignment]) == 1.0
    # in chunks of 40 points (the SEPs found so far passed on): the same clusters
    chunked = fit_landscape(KERNEL, X, dataclasses.replace(OPTS, batch_size=40), plan)
    assert chunked.flow.assignment.shape == (150,)
    assert chunked.flow.assignment.max() < chunked.S.shape[0]
    cgroups = components_at(chunked.Z, chunked.S.shape[0], chunked.r_star)
    assert adjusted_rand_score(groups[fit.flow.assignment],
                               cgroups[chunked.flow.assignment]) == 1.0


def test_landscape_basins_exact_is_the_fits_own_flow(rings, exact_fit) -> None:
    assert landscape_basins(exact_fit, rings[0], OPTS) is exact_fit.flow.assignment


def test_landscape_basins_inducing_steps_put_every_point_in_its_short_flows_cluster(
        rings, inducing_fit) -> None:
    # the points outside the subsample step to lower points (step_to_lower_neighbours); each
    # path stays in the level set {σ² ≤ σ²(x)}, as the short flow's segment check does, so
    # at r* (above every training point) both put every point in the same cluster
    X, y = rings
    fit = inducing_fit
    basins = landscape_basins(fit, X, OPTS)
    sub = fit.plan.subsample
    rest = np.setdiff1d(np.arange(X.shape[0]), sub)
    np.testing.assert_array_equal(basins[sub], fit.flow.assignment)
    ref = assign_to_equilibria(fit.model, X[rest], fit.S,
                               **assign_kwargs(fit.ell, fit.r_star, OPTS)).basins
    groups = components_at(fit.Z, fit.S.shape[0], fit.r_star)
    np.testing.assert_array_equal(groups[basins[rest]], groups[ref])
    assert adjusted_rand_score(y, groups[basins]) == 1.0


def test_landscape_basins_split_over_a_pool_equals_one_thread() -> None:
    """With the ladder's pool, half of the points are assigned on it: the same basins."""
    from concurrent.futures import ThreadPoolExecutor

    from kernel_patterns.cluster.gp import _landscape

    X, _ = _rings(3000)
    fit = fit_landscape(KERNEL, X, OPTS, _plan(X))
    alone = landscape_basins(fit, X, OPTS)
    assert X.shape[0] - fit.plan.subsample.size >= 2 * _landscape.SPLIT_AT_LEAST
    with ThreadPoolExecutor(1) as pool:
        np.testing.assert_array_equal(landscape_basins(fit, X, OPTS, pool), alone)


def test_assign_points_exact_is_the_full_flow(rings, exact_fit) -> None:
    fit = exact_fit
    Xn = _rings(90, seed=1)[0]
    got = assign_points(fit.model, fit.S, fit.ell, fit.r_star, Xn, OPTS, inducing=False)
    flow_kw = {"length_scale": fit.ell, "variance_scale": fit.r_star, "tol": OPTS.tol,
               "max_iter": OPTS.max_iter, "merge_radius": OPTS.merge_radius}
    np.testing.assert_array_equal(got, flow_assign(fit.model, Xn, fit.S, **flow_kw,
                                                   n_points=OPTS.n_segment_points))
    # reference: every point whose full flow reaches a known SEP takes that SEP
    flow = flow_to_equilibria(fit.model, Xn, known=fit.S, share_new=False, **flow_kw)
    reached = flow.assignment < fit.S.shape[0]
    assert reached.mean() >= 0.9
    np.testing.assert_array_equal(got[reached], flow.assignment[reached])


def test_assign_points_inducing_is_assign_to_equilibria(rings, inducing_fit) -> None:
    fit = inducing_fit
    Xn = _rings(90, seed=1)[0]
    got = assign_points(fit.model, fit.S, fit.ell, fit.r_star, Xn, OPTS, inducing=True)
    ref = assign_to_equilibria(fit.model, Xn, fit.S,
                               **assign_kwargs(fit.ell, fit.r_star, OPTS)).basins
    np.testing.assert_array_equal(got, ref)


def test_assign_kwargs_is_what_assign_params_returns(rings) -> None:
    X, _ = rings
    est = GPClustering(KERNEL, approximation="inducing", n_landmarks=60, subsample=150,
                       assign_steps=4, batch_size=32, tol=2e-4, random_state=0).fit(X)
    land = est.landscape_
    params = est.assign_params()
    assert params == assign_kwargs(land.length_scale, est.max_variance_, land.options)
    assert params == {"length_scale": pytest.approx(0.05), "variance_scale": est.max_variance_,
                      "n_steps": 4, "merge_radius": 0.1, "tol": 2e-4, "max_iter": 500,
                      "batch_size": 32}
    # keyword arguments of assign_to_equilibria, every one
    keywords = {name for name, p in inspect.signature(assign_to_equilibria).parameters.items()
                if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert set(params) <= keywords
    # a flat landscape (r* = 0) still gives a positive variance scale
    assert assign_kwargs(1.0, 0.0, OPTS)["variance_scale"] == 1e-300


def test_rung_is_a_frozen_reading_of_one_fit(exact_fit) -> None:
    p = exact_fit.S.shape[0]
    modes = components_at(exact_fit.Z, p, exact_fit.r_star)
    rung = Rung(exact_fit, modes, 2, exact_fit.r_star)
    assert rung.own is exact_fit.flow.assignment
    assert rung.n_modes == 2 and rung.level == exact_fit.r_star and rung.modes is modes
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field"):
        rung.n_modes = 3  # type: ignore[misc]
