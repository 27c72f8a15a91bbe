"""The fast paths of ``benchmarks/results/gp_speed.md`` (round 2) against the computations
they replace.

* ``_graph._advance``: a batch of pairs one stage on in one variance evaluation, the
  refinement a stage per round; driven to the last stage, every pair's level is the one of
  ``segment_levels`` (every segment evaluated and refined), up to round-off;
* ``segment_levels(lazy=True)`` on an inducing-point landscape: the linkage of every segment.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import datasets
from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._graph import (
    _advance,
    _LazyState,
    candidate_pairs,
    segment_levels,
)
from kernel_patterns.cluster.gp._inducing import (
    InducingVarianceModel,
    choose_inducing_points,
    fit_inducing_model,
)
from kernel_patterns.kernels import GPCovariance

from .gp_data import lazy_against_full


def _landscape(n: int = 1500, n_landmarks: int = 120) -> tuple[InducingVarianceModel, np.ndarray]:
    X, _ = datasets.make_two_moons(n_samples=n, random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    U = choose_inducing_points(X, n_landmarks, "kmeans", np.random.RandomState(0))
    model = fit_inducing_model(GPCovariance(v0=1.0, v1=10.0, v2=0.1, l=16.0), X, U)
    Xf = X[::5]
    S = flow_to_equilibria(model, Xf, length_scale=0.25,
                           variance_scale=float(model.variance(Xf).max())).equilibria
    return model, S


@pytest.mark.parametrize("n_points", [20, 7, 1])
def test_stages_to_the_end_give_the_refined_level(n_points: int) -> None:
    model, S = _landscape()
    I, J = candidate_pairs(S)
    full = segment_levels(model, S, I, J, n_points=n_points)
    vS = model.variance(S)
    state = _LazyState(S[I], S[J] - S[I], n_points, np.maximum(vS[I], vS[J]))
    rng = np.random.default_rng(0)
    while (state.stage < state.n_stages).any():
        todo = np.flatnonzero(state.stage < state.n_stages)
        # batches of mixed stages, in any order: each pair's stages stay its own
        _advance(model, state, [int(e) for e in rng.permutation(todo)[: 1 + todo.size // 3]])
    np.testing.assert_allclose(state.w, full, rtol=1e-12, atol=1e-15)


def test_lazy_linkage_on_an_inducing_landscape() -> None:
    model, S = _landscape()
    assert S.shape[0] > 3
    lazy, full = lazy_against_full(model, S)
    assert np.sum(np.isclose(lazy, full, rtol=1e-12)) < lazy.size // 2  # most pairs spared
