"""Segment checks between SEPs (errata 1) and their saddle-level single linkage (errata 3):
``cluster/gp/_graph.py``.

* ``segment_levels`` against the maximum of σ² on a dense grid along each segment;
* ``single_linkage`` against scipy's single linkage on a complete graph;
* ``segment_levels(lazy=True)`` (lazy Kruskal on lower bounds) against ``segment_levels``
  followed by ``single_linkage`` (the same linkage and merge edges), on the paper's 2-D shapes;
* ``candidate_pairs`` reduced (``MAX_COMPLETE_PAIRS``): still a connected graph.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.cluster.hierarchy import is_valid_linkage, linkage
from scipy.spatial.distance import squareform
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp._cuts import components_at
from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._graph import (
    candidate_pairs,
    segment_levels,
    single_linkage,
)
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import GPCovariance

from .gp_data import KERNEL, PAPER, lazy_against_full, paper_shapes, perfect, rings_with_new


def test_segment_levels_bound_the_dense_maximum() -> None:
    X, _ = datasets.make_two_moons(random_state=0)
    X = datasets.scale_unit_interval(X)
    model = fit_variance_model(GPCovariance(**PAPER, l=200), X)
    S = X[[0, 5, 50, 150]]
    I, J = candidate_pairs(S)
    assert I.size == 6
    coarse = segment_levels(model, S, I, J, n_points=20, refine=False)
    fine = segment_levels(model, S, I, J, n_points=20)
    t = np.linspace(0, 1, 2001)
    dense = np.array([model.variance(S[i] + t[:, None] * (S[j] - S[i])).max()
                      for i, j in zip(I, J, strict=True)])
    assert (fine >= coarse - 1e-12).all()
    assert np.allclose(fine, dense, rtol=2e-3)


def test_single_linkage_equals_scipy_on_complete_graph() -> None:
    rng = np.random.default_rng(0)
    p = 9
    W = squareform(rng.uniform(size=p * (p - 1) // 2))
    I, J = np.triu_indices(p, 1)
    Z, _ = single_linkage(p, I, J, W[I, J])
    ref = linkage(squareform(W), method="single")
    assert is_valid_linkage(Z)
    assert np.allclose(Z[:, 2], ref[:, 2])
    assert np.allclose(Z[:, 3], ref[:, 3])
    for level in ref[:, 2]:
        lab = components_at(Z, p, level)
        # brute force: connected components of {w ≤ level}
        A = (level >= W) | np.eye(p, dtype=bool)
        R = A.copy()
        for _ in range(p):
            R = (R.astype(int) @ A.astype(int)) > 0
        assert adjusted_rand_score(lab, [int(np.flatnonzero(r)[0]) for r in R]) == 1.0


@pytest.mark.parametrize("name", ["rings", "three moons", "logo"])
@pytest.mark.parametrize("n_points", [20, 5])
def test_lazy_hierarchy_equals_the_one_from_every_segment(name, n_points) -> None:
    X = paper_shapes()[name]
    model = fit_variance_model(KERNEL, X)
    start = model.at_training_points()
    S = flow_to_equilibria(model, X, length_scale=0.05, variance_scale=float(start[0].max()),
                           start=start).equilibria
    assert S.shape[0] >= 10
    lazy, full = lazy_against_full(model, S, n_points)
    assert np.sum(np.isclose(lazy, full, rtol=1e-12)) < lazy.size  # some pairs were spared


def test_lazy_hierarchy_of_no_pairs_and_of_two_seps() -> None:
    X = paper_shapes()["rings"]
    model = fit_variance_model(KERNEL, X)
    none = np.empty(0, dtype=np.intp)
    assert segment_levels(model, X[:1], none, none, lazy=True).shape == (0,)
    S = X[[0, 150]]
    I, J = np.array([0]), np.array([1])
    np.testing.assert_allclose(segment_levels(model, S, I, J, lazy=True),
                               segment_levels(model, S, I, J), rtol=1e-12)


def test_reduced_pair_graph_is_connected_and_still_separates_rings(monkeypatch) -> None:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from kernel_patterns.cluster.gp import _graph as _gp_graph

    monkeypatch.setattr(_gp_graph, "MAX_COMPLETE_PAIRS", 10)
    S = np.random.default_rng(0).uniform(size=(60, 2))
    I, J = candidate_pairs(S)
    assert 0 < I.size < 60 * 59 // 2 and (I < J).all()
    A = coo_matrix((np.ones(I.size), (I, J)), shape=(60, 60))
    assert connected_components(A, directed=False)[0] == 1
    X, y, *_ = rings_with_new()
    gp = GPClustering(GPCovariance(**PAPER, l=400)).fit(X)
    assert is_valid_linkage(gp.hierarchy_)
    perfect(y, gp.labels_)


def test_lazy_levels_need_the_refinement() -> None:
    X = paper_shapes()["rings"]
    model = fit_variance_model(KERNEL, X)
    with pytest.raises(ValueError, match="use refine=True"):
        segment_levels(model, X[[0, 150]], np.array([0]), np.array([1]), refine=False,
                       lazy=True)
