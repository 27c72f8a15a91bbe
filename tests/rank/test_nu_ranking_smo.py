"""The decomposition (SMO) solver of the ν-ranking dual against the interior-point reference."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import NuRanking
from kernel_patterns.kernels import RBF, make_operator
from kernel_patterns.rank._nu_ranking_smo import _nu_ranking_smo
from kernel_patterns.rank._nu_ranking_solver import _nu_ranking_dual, max_feasible_nu

from .dual_reference import noisy_ranks, objective


@pytest.mark.parametrize("n_ranks", [2, 3, 5])
@pytest.mark.parametrize("ratio", [0.3, 0.7, 0.95])
def test_smo_reaches_the_qp_objective(n_ranks, ratio):
    X, y = noisy_ranks(n=90, n_ranks=n_ranks, seed=n_ranks)
    K = RBF(0.5)(X)
    nu = ratio * max_feasible_nu(y, n_ranks)
    qu, ql, _ = _nu_ranking_dual(K, y, nu, solver="piqp", tol=1e-10, max_iter=500)
    su, sl, info = _nu_ranking_smo(K, y, nu, tol=1e-9)
    assert info["status"] == "solved"
    ref = objective(K, qu, ql)
    assert objective(K, su, sl) == pytest.approx(ref, rel=1e-6)
    assert info["objective"] == pytest.approx(ref, rel=1e-6)
    # feasibility, exactly: box, fixed ends, corrected pairing (erratum 8), total mass
    C = info["C"]
    assert np.all(su >= 0) and np.all(sl >= 0)
    assert np.all(su <= C * (1 + 1e-12)) and np.all(sl <= C * (1 + 1e-12))
    assert np.all(su[y == 0] == 0) and np.all(sl[y == n_ranks - 1] == 0)
    for t in range(n_ranks - 1):
        assert sl[y == t].sum() == pytest.approx(su[y == t + 1].sum(), abs=1e-12)
    assert (su + sl).sum() == pytest.approx(1.0, abs=1e-12)


def test_smo_reads_rows_through_a_chunked_operator():
    X, y = noisy_ranks(n=80, seed=4)
    kernel = RBF(0.5)
    nu = 0.6 * max_feasible_nu(y, 4)
    dense_u, dense_l, _ = _nu_ranking_smo(kernel(X), y, nu, tol=1e-9)
    op = make_operator(kernel, X, operator="chunked")
    op_u, op_l, info = _nu_ranking_smo(op, y, nu, tol=1e-9, cache_rows=8)
    np.testing.assert_allclose(op_u - op_l, dense_u - dense_l, atol=1e-10)
    assert info["solver"] == "smo"


def test_estimator_with_smo_matches_piqp():
    X, y = noisy_ranks(n=150, n_ranks=4, seed=5)
    nu = 0.8 * max_feasible_nu(y, 4)  # well above ν_min: a unique, non-degenerate f
    smo = NuRanking(nu=nu, kernel=RBF(0.5), solver="smo", tol=1e-9).fit(X, y)
    ref = NuRanking(nu=nu, kernel=RBF(0.5), solver="piqp").fit(X, y)
    f_smo, f_ref = smo.decision_function(X), ref.decision_function(X)
    np.testing.assert_allclose(f_smo, f_ref, atol=1e-5 * np.abs(f_ref).max())
    assert np.mean(smo.predict(X) == ref.predict(X)) >= 0.97


def test_smo_below_nu_one_over_l_solves_the_hard_margin_qp():
    # scaled by νℓ = 8e-8 the gradient was below tol from the start: SMO stopped after one
    # step, far from the QP; the mass is now at least 1 (scaled_mass)
    X, y = noisy_ranks(n=80, n_ranks=3, noise=0.0, seed=2)
    K = RBF(0.5)(X)
    qu, ql, _ = _nu_ranking_dual(K, y, 1 / 80, solver="piqp", tol=1e-10, max_iter=500)
    su, sl, info = _nu_ranking_smo(K, y, 1e-9, tol=1e-9)
    assert info["status"] == "solved" and info["iterations"] > 1
    assert info["C"] == 1.0  # the box that binds: α ≤ 1
    assert objective(K, su, sl) == pytest.approx(objective(K, qu, ql), rel=1e-6)
    assert (su + sl).sum() == pytest.approx(1.0, abs=1e-12)
