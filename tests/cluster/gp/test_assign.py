"""Assigning points to known SEPs (``cluster/gp/_assign.py``).

* ``assign_to_equilibria`` (segment checks, short flow, fallback) against the full flow;
* ``flow_assign`` (the full flow, the rule of the exact ``predict``): the same basins as
  ``GPLandscape.assign`` and ``GPClustering.predict``; ``n_nearest`` of at least the number
  of SEPs is every SEP; a point that stops at no known SEP takes the SEP whose segment to
  its end point has the lowest largest σ², checked on a fine grid along every segment.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import GPLandscape, gp_landscape
from kernel_patterns.cluster.gp._assign import (
    assign_to_equilibria,
    default_batch_size,
    flow_assign,
)
from kernel_patterns.cluster.gp._cuts import components_at
from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._inducing import choose_inducing_points, fit_inducing_model
from kernel_patterns.cluster.gp._landscape import FlowOptions, fit_landscape
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import GPCovariance

PAPER = {"v0": 1.0, "v1": 10.0, "v2": 1.0}
KERNEL = GPCovariance(**PAPER, l=400.0)


def _rings(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    X, y = datasets.make_rings((n // 3, n - n // 3), random_state=seed)
    return datasets.scale_unit_interval(X), y


def _flow_kwargs(land: GPLandscape) -> dict:
    """The arguments ``GPLandscape.assign`` gives ``flow_assign`` (exact fit)."""
    o = land.options
    return {"length_scale": land.length_scale, "variance_scale": land.max_variance,
            "tol": o.tol, "max_iter": o.max_iter, "merge_radius": o.merge_radius,
            "n_points": o.n_segment_points}


def _segment_maxima(model, E: np.ndarray, S: np.ndarray, n: int = 1001) -> np.ndarray:
    """Brute force: the largest σ² on ``n`` evenly spaced points (ends included) of the
    segment from every row of ``E`` to every row of ``S``, shape (len(E), len(S))."""
    t = np.linspace(0.0, 1.0, n)[None, None, :, None]
    P = E[:, None, None, :] + t * (S[None, :, None, :] - E[:, None, None, :])
    return model.variance(P.reshape(-1, S.shape[1])).reshape(E.shape[0], S.shape[0], n).max(2)


@pytest.fixture(scope="module")
def rings_landscape() -> tuple[GPLandscape, np.ndarray]:
    X, _ = _rings(300)
    return gp_landscape(X, KERNEL), X


# ---------------------------------------------------------------- short-flow assignment
def test_assignment_agrees_with_the_full_flow_and_is_blockwise_pure() -> None:
    X, _ = _rings(360)  # dense enough for the segment graph to follow the rings
    k = GPCovariance(**PAPER, l=400.0)
    model = fit_variance_model(k, X)
    r_star = float(model.variance(X).max())
    opts = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)
    fit = fit_landscape(k, X, opts)
    X0 = X.copy()
    a = assign_to_equilibria(model, X, fit.S, length_scale=fit.ell, variance_scale=r_star)
    sep_comp = components_at(fit.Z, fit.S.shape[0], r_star)
    assert np.array_equal(sep_comp[a.basins], sep_comp[fit.flow.assignment])
    b = assign_to_equilibria(model, X, fit.S, length_scale=fit.ell, variance_scale=r_star,
                             batch_size=7)
    assert np.array_equal(a.basins, b.basins)
    assert np.array_equal(X, X0)
    # with no steps and no candidates passing, the fallback (full flow) still answers
    c = assign_to_equilibria(model, X[:20], fit.S[:1], length_scale=fit.ell,
                             variance_scale=r_star, n_steps=0)
    assert np.array_equal(c.basins, np.zeros(20, dtype=np.intp))
    assert default_batch_size(300, 50, 8) * 300 * 9 * 8 <= 64 * 2**20


def test_full_flow_of_the_inducing_model_reaches_minima() -> None:
    X, _ = _rings(300)
    k = GPCovariance(**PAPER, l=400.0)
    model = fit_inducing_model(k, X, choose_inducing_points(X, 80, "kmeans",
                                                            np.random.RandomState(0)))
    r_star = float(model.variance(X).max())
    flow = flow_to_equilibria(model, X, length_scale=0.05, variance_scale=r_star)
    g = model.gradient(flow.equilibria)
    assert np.all(np.linalg.norm(g, axis=1) * 0.05 <= 1e-3 * r_star)


# ---------------------------------------------------------------- the full-flow rule
def test_flow_assign_is_the_exact_assign_and_predict(rings_landscape) -> None:
    land, X = rings_landscape
    Xn = datasets.scale_unit_interval(datasets.make_rings((30, 30), random_state=1)[0])
    Xn0 = Xn.copy()
    basins = flow_assign(land.model, Xn, land.equilibria, **_flow_kwargs(land), n_nearest=None)
    assert np.array_equal(Xn, Xn0)
    assert basins.shape == (60,) and basins.min() >= 0
    assert basins.max() < land.equilibria.shape[0]
    assert np.array_equal(basins, land.assign(Xn))
    est = GPClustering(KERNEL).fit(X)
    assert np.array_equal(est.equilibria_, land.equilibria)
    assert np.array_equal(land.equilibrium_labels[basins], est.predict(Xn))
    # each point's SEP does not depend on the rest of the batch (share_new=False)
    assert np.array_equal(flow_assign(land.model, Xn[:7], land.equilibria,
                                      **_flow_kwargs(land)), basins[:7])
    # a training point whose full flow reaches a known SEP keeps the fit's basin, but for a
    # few at basin boundaries (the fit's trajectories coalesce, these flow alone)
    own = flow_assign(land.model, X, land.equilibria, **_flow_kwargs(land))
    assert np.mean(own == land.basins) >= 0.99


def test_n_nearest_at_least_the_number_of_seps_is_every_sep(rings_landscape) -> None:
    land, _ = rings_landscape
    S = land.equilibria
    p = S.shape[0]
    # near the data, in the gap between the rings and far away: many stop at no known SEP
    Q = np.vstack([np.random.default_rng(0).uniform(-0.2, 1.2, size=(30, 2)),
                   [[3.0, 3.0], [-2.0, 0.5], [0.5, 0.5]]])
    kw = _flow_kwargs(land)
    every = flow_assign(land.model, Q, S, **kw, n_nearest=None)
    for n_nearest in (p, p + 3):
        assert np.array_equal(flow_assign(land.model, Q, S, **kw, n_nearest=n_nearest), every)
    flow = flow_to_equilibria(land.model, Q, known=S, share_new=False, capture=2.0,
                              **{k: v for k, v in kw.items() if k != "n_points"})
    assert np.count_nonzero(flow.assignment >= p) >= 3


def _bridge() -> tuple[np.ndarray, GPCovariance]:
    """Blobs A at (0, 0) and C at (4, 0) joined by a dense chain of points, and a blob B at
    (4, 2.1): B is nearer to C, but the chain is the lower way from C (to A)."""
    rng = np.random.default_rng(0)
    A = rng.normal(scale=0.3, size=(20, 2))
    C = rng.normal(scale=0.3, size=(20, 2)) + np.array([4.0, 0.0])
    chain = np.c_[np.linspace(0.4, 3.6, 25), np.zeros(25)]
    B = rng.normal(scale=0.3, size=(20, 2)) + np.array([4.0, 2.1])
    return np.vstack([A, C, B, chain]), GPCovariance(v0=1.0, v1=10.0, v2=0.1, l=1.0)


def test_a_point_that_stops_at_no_known_sep_takes_the_lowest_segment() -> None:
    """Reference: the SEP of a point whose flow ends elsewhere is the one whose segment to
    the end point has the lowest largest σ² (brute force: 1,001 points per segment), not the
    nearest one."""
    X, kernel = _bridge()
    model = fit_variance_model(kernel, X)
    r_star = float(model.variance(X).max())
    kw = {"length_scale": 1.0, "variance_scale": r_star, "tol": 1e-4, "max_iter": 500,
          "merge_radius": 0.1}
    S_all = flow_to_equilibria(model, X, **kw).equilibria
    # the known SEPs: A's and B's (C's minimum, and the chain's, the fit "did not find")
    known = S_all[[int(np.argmin(np.linalg.norm(S_all - c, axis=1)))
                   for c in ([0.0, 0.0], [4.0, 2.1])]]
    assert np.linalg.norm(known - [[0.0, 0.0], [4.0, 2.1]], axis=1).max() < 0.3
    C = X[20:40]
    flow = flow_to_equilibria(model, C, known=known, share_new=False, capture=2.0, **kw)
    assert (flow.assignment >= 2).all()  # every C point stops at no known SEP
    E = flow.equilibria[flow.assignment]
    brute = _segment_maxima(model, E, known)
    best = np.argmin(brute, axis=1)
    assert (best == 0).all() and (brute[:, 1] > 1.1 * brute[:, 0]).all()  # A, clearly
    nearest = np.argmin(np.linalg.norm(E[:, None] - known[None], axis=2), axis=1)
    assert (nearest == 1).all()  # B is the nearer
    got = flow_assign(model, C, known, **kw, n_points=20)
    assert np.array_equal(got, best)
    # among its one nearest SEP only, a point takes the nearest
    assert np.array_equal(flow_assign(model, C, known, **kw, n_points=20, n_nearest=1),
                          nearest)


def test_a_point_far_from_the_data_takes_a_lowest_segment(rings_landscape) -> None:
    """Far from the data σ² is flat (the prior less what the bias v1 explains): the flow
    stops where it starts and every segment's largest σ² is that of its end point, up to
    round-off; the SEP taken is one of the lowest by brute force."""
    land, _ = rings_landscape
    S = land.equilibria
    far = np.array([[3.0, 3.0], [-2.0, 0.5], [0.5, 4.0]])
    kw = _flow_kwargs(land)
    flow = flow_to_equilibria(land.model, far, known=S, share_new=False, capture=2.0,
                              **{k: v for k, v in kw.items() if k != "n_points"})
    assert (flow.assignment >= S.shape[0]).all()
    E = flow.equilibria[flow.assignment]
    got = flow_assign(land.model, far, S, **kw)
    brute = _segment_maxima(land.model, E, S, n=201)
    chosen = brute[np.arange(far.shape[0]), got]
    assert np.all(chosen <= brute.min(axis=1) + 1e-9 * land.max_variance)
    assert np.all(land.equilibrium_labels[got] >= 0)


def test_in_many_dimensions_points_take_the_sep_of_the_nearest_flowed_point() -> None:
    """Beyond 15 features the points lie above the saddles between clusters, where a check
    at a point's own variance cannot tell them apart: the fit's points outside the
    subsample and new points take the SEP of the nearest flowed point, so predict gives
    the fit's labels and agrees with the full flows of new points (standardised digits:
    91 % of them, where the checks agreed with 80 %)."""
    from sklearn.datasets import load_digits
    from sklearn.preprocessing import StandardScaler

    X = StandardScaler().fit_transform(load_digits().data)
    train, new = X[:1200], X[1200:]
    gp = GPClustering(random_state=0, subsample=800).fit(train)
    land = gp.landscape_
    assert land.flowed is not None and land.flowed.shape == (800, 64)
    np.testing.assert_array_equal(gp.predict(train), gp.labels_)
    flows = flow_assign(land.model, new, land.equilibria, length_scale=land.length_scale,
                        variance_scale=land.max_variance, tol=1e-4, max_iter=500,
                        merge_radius=0.1, n_points=20)
    checks = assign_to_equilibria(land.model, new, land.equilibria,
                                  **gp.assign_params()).basins
    labels = land.equilibrium_labels
    near = np.mean(gp.predict(new) == labels[flows])
    assert near > 0.85
    assert near > np.mean(labels[checks] == labels[flows]) + 0.05


def test_predict_gives_the_subsample_its_own_seps_in_few_dimensions_too() -> None:
    X, _ = datasets.make_rings(random_state=0)
    gp = GPClustering(random_state=0, approximation="inducing", subsample=200).fit(X)
    land = gp.landscape_
    assert land.flowed is not None and land.flowed.shape == (200, 2)
    sub = land.plan.subsample
    np.testing.assert_array_equal(land.assign(X[sub]), land.basins[sub])
    assert np.mean(gp.predict(X) == gp.labels_) > 0.99
