"""Training points assigned by steps to lower training points (``_steps``)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import StandardScaler

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp._assign import CHECK_SPACING, flow_assign
from kernel_patterns.cluster.gp._steps import (
    N_NEIGHBOURS,
    follow_steps,
    step_to_lower_neighbours,
)
from kernel_patterns.cluster.gp._variance import fit_variance_model

from .test_assign import KERNEL, _flow_kwargs, _rings


# ---------------------------------------------------------------- steps to lower points
def test_steps_go_down_along_segments_that_pass_the_check() -> None:
    X, _ = _rings(400)
    model = fit_variance_model(KERNEL, X)
    v = model.variance(X)
    ell, scale, tol = 1.0 / np.sqrt(400.0), float(v.max()), 1e-4
    todo = np.arange(0, 400, 3)
    step = step_to_lower_neighbours(model, X, v, todo, NearestNeighbors().fit(X),
                                    length_scale=ell, variance_scale=scale, tol=tol)
    has = step >= 0
    assert has.mean() > 0.5
    x, y = todo[has], step[has]
    # lower (σ², then index: no cycle), among the point's N_NEIGHBOURS + 1 nearest rows
    assert np.all((v[y] < v[x]) | ((v[y] == v[x]) & (y < x)))
    d = np.linalg.norm(X[x] - X[y], axis=1)
    kth = NearestNeighbors(n_neighbors=N_NEIGHBOURS + 1).fit(X).kneighbors(X[x])[0][:, -1]
    assert np.all(d <= kth + 1e-12)
    # the check of assign_to_equilibria, point by point: σ² at the segment's checked points
    # (one every CHECK_SPACING length scales, at most 8, the far end included) ≤ σ²(x) + slack
    r = np.clip(np.ceil(d / (CHECK_SPACING * ell)), 1, 8).astype(int)
    for xi, yi, ri in zip(x, y, r, strict=True):
        t = np.arange(1, ri + 1)[:, None] / ri
        assert model.variance(X[xi] + t * (X[yi] - X[xi])).max() <= v[xi] + tol * scale
    # a point with no lower neighbour has no step: the global minimum of σ²
    low = int(np.argmin(v))
    none = step_to_lower_neighbours(model, X, v, np.array([low]), NearestNeighbors().fit(X),
                                    length_scale=ell, variance_scale=scale, tol=tol)
    assert none.tolist() == [-1]


def test_steps_found_block_by_block_are_the_same(monkeypatch) -> None:
    from kernel_patterns.cluster.gp import _steps

    X, _ = _rings(300)
    model = fit_variance_model(KERNEL, X)
    v = model.variance(X)
    kw = {"length_scale": 1.0 / np.sqrt(300.0), "variance_scale": float(v.max()), "tol": 1e-4}
    nn = NearestNeighbors().fit(X)
    todo = np.arange(300)
    whole = step_to_lower_neighbours(model, X, v, todo, nn, **kw)
    monkeypatch.setattr(_steps, "STEP_BLOCK", 7)
    np.testing.assert_array_equal(step_to_lower_neighbours(model, X, v, todo, nn, **kw), whole)


def test_follow_steps_needs_every_path_to_end_at_a_known_sep() -> None:
    assert follow_steps(np.array([1, 2, -1]), np.array([-1, -1, 4])).tolist() == [4, 4, 4]
    with pytest.raises(RuntimeError, match="SEP is unknown"):
        follow_steps(np.array([1, -1]), np.array([-1, -1]))


def test_inducing_basins_by_steps_agree_with_each_points_own_flow() -> None:
    # 3,000 points (inducing, subsample 2,000): the points outside the subsample step to
    # lower points; their SEP is the one their own full flow reaches for most of them
    X, y = make_blobs(3000, centers=4, random_state=1)
    X = StandardScaler().fit_transform(X)
    gp = GPClustering(random_state=0).fit(X)
    land = gp.landscape_
    rest = np.setdiff1d(np.arange(3000), land.plan.subsample)[::4]
    flow = flow_assign(land.model, X[rest], land.equilibria, **_flow_kwargs(land))
    assert np.mean(gp.basins_[rest] == flow) >= 0.9
    assert adjusted_rand_score(y, gp.labels_) > 0.9
