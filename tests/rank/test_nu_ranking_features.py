"""The ν-ranking dual on explicit features (the Nyström path) against the exact reference."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import NuRanking
from kernel_patterns.kernels import RBF, NystromKernelOperator
from kernel_patterns.rank._nu_ranking_features import _nu_ranking_features
from kernel_patterns.rank._nu_ranking_solver import _nu_ranking_dual, max_feasible_nu

from .dual_reference import noisy_ranks, objective


@pytest.mark.parametrize("n_ranks", [2, 3, 5])
@pytest.mark.parametrize("ratio", [0.5, 0.7, 0.95])
def test_features_solver_reaches_the_qp_objective(n_ranks, ratio):
    # with as many landmarks as points the Nyström features are exact: K = F Fᵀ
    X, y = noisy_ranks(n=120, n_ranks=n_ranks, seed=n_ranks)
    K = RBF(0.5)(X)
    F = NystromKernelOperator(RBF(0.5), X, n_components=120, random_state=0).features
    np.testing.assert_allclose(F @ F.T, K, atol=1e-10)
    nu = ratio * max_feasible_nu(y, n_ranks)
    qu, ql, _ = _nu_ranking_dual(K, y, nu, solver="piqp", tol=1e-10, max_iter=500)
    fu, fl, info = _nu_ranking_features(F, y, nu, n_ranks=n_ranks, tol=1e-10)
    assert info["status"] == "solved"
    ref = objective(K, qu, ql)
    assert objective(K, fu, fl) == pytest.approx(ref, rel=1e-6)
    assert info["objective"] == pytest.approx(ref, rel=1e-6)
    np.testing.assert_allclose(info["w"], F.T @ (fu - fl), atol=1e-12)
    # feasibility: box, fixed ends, the corrected pairing (erratum 8), the total mass
    C = info["C"]
    assert np.all(fu >= 0) and np.all(fl >= 0)
    assert np.all(fu <= C) and np.all(fl <= C)
    assert np.all(fu[y == 0] == 0) and np.all(fl[y == n_ranks - 1] == 0)
    for t in range(n_ranks - 1):
        assert fl[y == t].sum() == pytest.approx(fu[y == t + 1].sum(), abs=1e-9)
    assert (fu + fl).sum() == pytest.approx(1.0, abs=1e-9)


def test_features_solver_below_nu_one_over_l_solves_the_hard_margin_qp():
    # the box does not bind below ν = 1/ℓ: the QP of ν = 1/ℓ, in the same scaled variables
    X, y = noisy_ranks(n=60, n_ranks=3, noise=0.0, seed=2)
    F = NystromKernelOperator(RBF(0.5), X, n_components=60, random_state=0).features
    ref_u, ref_l, _ = _nu_ranking_features(F, y, 1 / 60, tol=1e-10)
    fu, fl, info = _nu_ranking_features(F, y, 1e-9, tol=1e-10)
    assert info["status"] == "solved" and info["C"] == 1.0
    np.testing.assert_allclose(fu - fl, ref_u - ref_l, atol=1e-9)


def test_nystrom_with_every_point_a_landmark_is_the_exact_ranker():
    X, y = noisy_ranks(n=150, n_ranks=4, seed=5)
    nu = 0.8 * max_feasible_nu(y, 4)
    exact = NuRanking(nu=nu, kernel=RBF(0.5), solver="piqp").fit(X, y)
    nys = NuRanking(nu=nu, kernel=RBF(0.5), approximation="nystrom", n_landmarks=150,
                    random_state=0).fit(X, y)
    assert nys.support_vectors_ is None and nys.landmark_indices_.shape == (150,)
    assert exact.landmark_indices_ is None and exact.support_vectors_ is not None
    X_new = np.random.default_rng(9).normal(size=(40, 3))
    for Z in (X, X_new):
        f_ref, f_nys = exact.decision_function(Z), nys.decision_function(Z)
        np.testing.assert_allclose(f_nys, f_ref, atol=1e-5 * np.abs(f_ref).max())
    np.testing.assert_allclose(nys.thresholds_, exact.thresholds_,
                               atol=1e-4 * np.abs(exact.decision_function(X)).max())
    assert np.mean(nys.predict(X) == exact.predict(X)) >= 0.97


def test_nystrom_defaults_rank_held_out_data_and_repeat_with_a_seed():
    X, y = noisy_ranks(n=900, n_ranks=5, noise=0.3, seed=2)
    train, test = np.arange(600), np.arange(600, 900)
    a = NuRanking(approximation="nystrom", n_landmarks=60, random_state=3).fit(X[train],
                                                                               y[train])
    b = NuRanking(approximation="nystrom", n_landmarks=60, random_state=3).fit(X[train],
                                                                               y[train])
    np.testing.assert_array_equal(a.landmark_indices_, b.landmark_indices_)
    np.testing.assert_allclose(a.decision_function(X[test]), b.decision_function(X[test]))
    assert a.cv_results_ is not None  # nu="auto" chose ν on the exact subsample
    mae = np.mean(np.abs(a.predict(X[test]) - y[test]))
    assert mae < 0.6  # always predicting the middle rank: 1.2
    # f's medians increase with the rank (erratum 8)
    f = a.decision_function(X[test])
    medians = [np.median(f[y[test] == r]) for r in range(5)]
    assert np.all(np.diff(medians) > 0)


def test_nystrom_input_errors_and_warnings():
    X, y = noisy_ranks(n=40, n_ranks=3, seed=1)
    with pytest.raises(ValueError, match="approximation='nystrom' needs a kernel function"):
        NuRanking(nu=0.5, kernel="precomputed", approximation="nystrom").fit(RBF(0.5)(X), y)
    with pytest.warns(UserWarning, match="n_landmarks=80 landmarks is more than n_samples=40"):
        r = NuRanking(nu=0.5, approximation="nystrom", n_landmarks=80, random_state=0).fit(X, y)
    assert r.landmark_indices_.shape == (40,)
    with pytest.raises(ValueError, match="approximation"):
        NuRanking(approximation="landmark").fit(X, y)
    with pytest.raises(ValueError, match="n_landmarks"):
        NuRanking(approximation="nystrom", n_landmarks=0).fit(X, y)
