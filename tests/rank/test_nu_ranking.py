"""NuRanking: the ν-ranking dual QP (Algorithm 8.9 with erratum 8) and its estimator."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

from kernel_patterns import NuRanking
from kernel_patterns.kernels import RBF, Linear
from kernel_patterns.metrics import mean_absolute_error, mean_zero_one_error
from kernel_patterns.rank._nu_ranking import _nu_ranking_dual, max_feasible_nu
from kernel_patterns.rank._nu_ranking_solver import _thresholds


def ranked_data(n=150, n_ranks=4, gap=0.3, noise=0.0, seed=0):
    """Points whose rank is a cut of x0 + x1; ``gap`` removes points near the cuts."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(4 * n, 2))
    z = X[:, 0] + X[:, 1] + noise * rng.normal(size=4 * n)
    cuts = np.linspace(-2.5, 2.5, n_ranks + 1)[1:-1]
    keep = np.min(np.abs(z[:, None] - cuts[None, :]), axis=1) > gap / 2
    X, z = X[keep][:n], z[keep][:n]
    return X, np.digitize(z, cuts) + 1


def margin_failures(f, y, b, gamma, tol):
    """Points with a non-zero slack: f above b_y − γ or below b_{y−1} + γ (ranks 0-based)."""
    R = b.shape[0] + 1
    upper = np.where(y < R - 1, b[np.minimum(y, R - 2)] - gamma, np.inf)
    lower = np.where(y > 0, b[np.maximum(y - 1, 0)] + gamma, -np.inf)
    return int(np.sum((f > upper + tol) | (f < lower - tol)))


# ----------------------------------------------------------------------- the solver
@pytest.mark.parametrize("solver", ["piqp", "clarabel"])
@pytest.mark.parametrize("formulation", ["dense", "lifted"])
def test_dual_constraints_hold(solver, formulation):
    X, y = ranked_data(n=120, noise=0.5, seed=1)
    r = y - 1
    K = RBF(0.5)(X)
    nu = 0.3
    au, al, info = _nu_ranking_dual(K, r, nu, solver=solver, formulation=formulation)
    C = 1.0 / (nu * len(y))
    assert info["C"] == pytest.approx(C)
    tol = 1e-7
    assert np.all(au >= -tol) and np.all(al >= -tol)
    assert np.all(au <= C + tol) and np.all(al <= C + tol)
    assert (au + al).sum() == pytest.approx(1.0, abs=1e-7)
    assert np.all(au[r == 0] == 0) and np.all(al[r == r.max()] == 0)
    for t in range(r.max()):  # corrected pairing: α^l of rank t against α^u of rank t + 1
        assert al[r == t].sum() == pytest.approx(au[r == t + 1].sum(), abs=1e-7)


def test_solvers_and_formulations_agree():
    X, y = ranked_data(n=80, noise=0.6, seed=2)
    K = RBF(0.7)(X)
    ref = None
    for solver in ("piqp", "clarabel"):
        for form in ("dense", "lifted"):
            au, al, _ = _nu_ranking_dual(K, y - 1, 0.25, solver=solver, formulation=form)
            f = K @ (au - al)
            if ref is None:
                ref = f
            # f is unique (K is positive definite): compare it, not the α's
            np.testing.assert_allclose(f, ref, atol=1e-6 * np.abs(ref).max())


def test_matches_brute_force_slsqp():
    """An independent solve of the same dual with scipy's SLSQP on a tiny problem."""
    X, y = ranked_data(n=24, n_ranks=3, noise=0.5, seed=3)
    r = y - 1
    K = RBF(0.5)(X)
    nu, n = 0.5, len(y)
    C = 1.0 / (nu * n)
    au, al, _ = _nu_ranking_dual(K, r, nu)

    def obj(v):
        beta = v[:n] - v[n:]
        return 0.5 * beta @ K @ beta

    cons = [{"type": "eq", "fun": lambda v: v.sum() - 1.0}]
    for t in range(r.max()):
        cons.append({"type": "eq",
                     "fun": lambda v, t=t: v[n:][r == t].sum() - v[:n][r == t + 1].sum()})
    bounds = [(0, 0 if r[i] == 0 else C) for i in range(n)]
    bounds += [(0, 0 if r[i] == r.max() else C) for i in range(n)]
    v0 = np.array([hi / 2 for _, hi in bounds])
    v0 /= v0.sum()
    res = minimize(obj, v0, method="SLSQP", bounds=bounds, constraints=cons,
                   options={"ftol": 1e-14, "maxiter": 1000})
    assert res.success
    ours = obj(np.concatenate([au, al]))
    assert ours <= res.fun + 1e-9
    assert ours == pytest.approx(res.fun, rel=1e-4)


def test_max_feasible_nu():
    r = np.array([0, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert max_feasible_nu(r, 2) == pytest.approx(0.2)
    r = np.repeat([0, 1, 2], 10)
    assert max_feasible_nu(r, 3) == pytest.approx(40 / 30)


def test_threshold_fallback_uses_kkt_bracket():
    # rank 0: α^l = 0 at f = 0, 1 (below b − γ) and α^l = C at f = 2 (above): b − γ ∈ [1, 2]
    # rank 1: a margin vector at f = 3 (0 < α^u < C): b + γ = 3
    f = np.array([0.0, 1.0, 2.0, 3.0])
    y = np.array([0, 0, 0, 1])
    C = 0.5
    al = np.array([0.0, 0.0, C, 0.0])
    au = np.array([0.0, 0.0, 0.0, 0.2])
    b, gamma = _thresholds(f, y, au, al, C, 2)
    assert b[0] == pytest.approx(0.5 * (1.5 + 3.0))
    assert gamma == pytest.approx(0.5 * (3.0 - 1.5))


# ----------------------------------------------------------------------- the estimator
def test_separable_ranks_fit_with_ordered_thresholds():
    X, y = ranked_data(n=160, n_ranks=4, gap=0.4, seed=4)
    model = NuRanking(nu=0.05, kernel="rbf", kernel_params={"gamma": 0.5}).fit(X, y)
    assert mean_zero_one_error(y, model.predict(X)) <= 0.05
    assert np.all(np.diff(model.thresholds_) >= 0)
    assert model.thresholds_.shape == (3,)
    assert model.margin_ > 0
    np.testing.assert_array_equal(model.classes_, [1, 2, 3, 4])


@pytest.mark.parametrize("nu", [0.1, 0.5, 0.9])
def test_nu_property_theorem_8_10(nu):
    X, y = ranked_data(n=150, n_ranks=4, noise=0.7, seed=5)
    model = NuRanking(nu=nu, kernel=RBF(0.5)).fit(X, y)
    r = np.searchsorted(model.classes_, y)
    f = model.decision_function(X)
    n = len(y)
    tol = 1e-6 * max(abs(model.margin_), 1e-12) + 1e-9
    # at most νℓ training points fail to reach the margin γ from both adjacent thresholds
    assert margin_failures(f, r, model.thresholds_, model.margin_, tol) <= nu * n + 1e-9
    # and at least νℓ dual variables are non-zero (Σ α = 1, each ≤ 1/(νℓ))
    C = 1.0 / (nu * n)
    n_active = np.sum(model.alpha_upper_ > 1e-6 * C) + np.sum(model.alpha_lower_ > 1e-6 * C)
    assert n_active >= nu * n - 1e-9


def test_decision_function_medians_increase_with_rank():
    """Erratum 8: with the printed constraints f is not ordered by rank."""
    X, y = ranked_data(n=200, n_ranks=5, noise=0.8, seed=6)
    model = NuRanking(nu=0.8, kernel=RBF(1.0)).fit(X, y)
    f = model.decision_function(X)
    medians = [np.median(f[y == k]) for k in model.classes_]
    assert np.all(np.diff(medians) > 0)


def test_decision_function_is_kernel_expansion():
    X, y = ranked_data(n=90, noise=0.5, seed=7)
    Xn = np.random.default_rng(8).uniform(-2, 2, size=(13, 2))
    model = NuRanking(nu=0.3, kernel=RBF(0.4)).fit(X, y)
    alpha = model.alpha_upper_ - model.alpha_lower_
    np.testing.assert_allclose(model.decision_function(Xn), RBF(0.4)(Xn, X) @ alpha,
                               atol=1e-12)
    pred = model.predict(Xn)
    expect = model.classes_[np.searchsorted(model.thresholds_, RBF(0.4)(Xn, X) @ alpha,
                                            side="right")]
    np.testing.assert_array_equal(pred, expect)


def test_precomputed_kernel_matches():
    X, y = ranked_data(n=80, noise=0.5, seed=9)
    Xn = X[:10] + 0.1
    a = NuRanking(nu=0.3, kernel=RBF(0.5)).fit(X, y)
    b = NuRanking(nu=0.3, kernel="precomputed").fit(RBF(0.5)(X), y)
    np.testing.assert_allclose(a.decision_function(Xn), b.decision_function(RBF(0.5)(Xn, X)),
                               atol=1e-8)
    with pytest.raises(ValueError, match=r"columns|features"):
        b.decision_function(RBF(0.5)(Xn, X[:5]))
    # a non-square "kernel" is named before nu="auto" cuts its folds out of it
    for nu in ("auto", 0.3):
        with pytest.raises(ValueError, match=r"precomputed kernel must be a square kernel "
                                             r"matrix; got shape \(80, 2\)"):
            NuRanking(nu=nu, kernel="precomputed").fit(X, y)


def test_labels_mapped_to_ranks_and_back():
    X, y = ranked_data(n=90, n_ranks=3, gap=0.5, seed=10)
    labels = np.array([10.0, 20.0, 45.5])[y - 1]
    model = NuRanking(nu=0.1, kernel=Linear()).fit(X, labels)
    np.testing.assert_array_equal(model.classes_, [10.0, 20.0, 45.5])
    assert set(np.unique(model.predict(X))) <= {10.0, 20.0, 45.5}
    # score = −MAE in rank steps (greater is better)
    pred_ranks = np.searchsorted(model.classes_, model.predict(X))
    assert model.score(X, labels) == pytest.approx(-mean_absolute_error(y - 1, pred_ranks))
    assert model.score(X, labels) <= 0


def test_ordered_categorical_labels():
    pd = pytest.importorskip("pandas")
    X, y = ranked_data(n=60, n_ranks=3, gap=0.5, seed=11)
    cats = pd.Categorical(np.array(["low", "mid", "high"])[y - 1],
                          categories=["low", "mid", "high"], ordered=True)
    model = NuRanking(nu=0.1, kernel=Linear()).fit(X, cats)
    np.testing.assert_array_equal(model.classes_, ["low", "mid", "high"])
    assert mean_zero_one_error(np.asarray(cats), model.predict(X)) <= 0.05
    with pytest.raises(ValueError, match="unordered"):
        NuRanking().fit(X, pd.Categorical(np.asarray(cats), ordered=False))


def test_degenerate_solution_warns():
    from sklearn.exceptions import ConvergenceWarning

    X, y = ranked_data(n=150, n_ranks=5, noise=0.8, seed=6)
    with pytest.warns(ConvergenceWarning, match="degenerate"):
        NuRanking(nu=0.1, kernel=RBF(0.1)).fit(X, y)


@pytest.mark.parametrize("solver", ["piqp", "clarabel", "smo"])
def test_nu_below_one_over_l_is_the_hard_margin_ranker(solver):
    # the box α ≤ 1/(νℓ) does not bind below ν = 1/ℓ: the same QP, solved as ν = 1/ℓ (at
    # ν = 1e-9 piqp stopped 5 % off its mass, every α below the support cut 1e-8 C, and
    # decision_function was 0 everywhere with no warning; SMO stopped after one step)
    X, y = ranked_data(n=80, n_ranks=3, seed=3)
    ref = NuRanking(nu=1 / 80, kernel=RBF(1.0), solver=solver).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tiny = NuRanking(nu=1e-9, kernel=RBF(1.0), solver=solver).fit(X, y)
    np.testing.assert_allclose(tiny.decision_function(X), ref.decision_function(X),
                               atol=1e-9)
    np.testing.assert_array_equal(tiny.predict(X), y)  # separable: every rank right
    assert tiny.nu_ == 1e-9 and tiny.n_iter_ > 1


def test_degenerate_warning_when_no_support_vector_is_kept(monkeypatch):
    # decision_function is an expansion over the support (|α| > 1e-8 C): when it keeps no
    # α the ranker is f ≡ 0, whatever the solver's α gave f in fit
    from sklearn.exceptions import ConvergenceWarning

    from kernel_patterns.rank import _nu_ranking

    solve = _nu_ranking._nu_ranking_dual

    def tiny_alphas(*args, **kwargs):
        au, al, info = solve(*args, **kwargs)
        return au * 1e-9, al * 1e-9, info

    monkeypatch.setattr(_nu_ranking, "_nu_ranking_dual", tiny_alphas)
    X, y = ranked_data(n=60, n_ranks=3, seed=3)
    with pytest.warns(ConvergenceWarning, match=r"degenerate \(f ≈ 0"):
        fitted = NuRanking(nu=0.2, kernel=RBF(1.0)).fit(X, y)
    assert fitted.support_.size == 0 and not fitted.decision_function(X).any()


def test_input_not_modified():
    X, y = ranked_data(n=60, noise=0.3, seed=12)
    X0, y0 = X.copy(), y.copy()
    NuRanking(nu=0.3).fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_bad_input():
    X, y = ranked_data(n=40, n_ranks=3, seed=13)
    with pytest.raises(ValueError, match="single rank"):
        NuRanking().fit(X, np.ones(len(y)))
    y_nan = y.astype(float)
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match=r"NaN|finite"):
        NuRanking().fit(X, y_nan)
    with pytest.raises(ValueError, match="no rank order"):
        NuRanking().fit(X, np.array(["a", "b", "c", "d"] * 10))
    for nu in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="nu"):
            NuRanking(nu=nu).fit(X, y)
    unbalanced = np.r_[np.zeros(1), np.ones(len(y) - 1)]
    with pytest.raises(ValueError, match="infeasible"):
        NuRanking(nu=0.5).fit(X, unbalanced)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        NuRanking().fit(Xn, y)
    with pytest.raises(ValueError, match="samples"):
        NuRanking().fit(X, y[:-1])
    with pytest.raises(ValueError, match="features"):
        NuRanking().fit(X, y).predict(X[:, :1])
    with pytest.raises(ValueError, match="solver"):
        NuRanking(solver="cvxopt").fit(X, y)
    with pytest.raises(ValueError, match="not seen"):
        NuRanking().fit(X, y).score(X, y + 10)


def test_plot_ranking_strip_and_1d_view():
    pytest.importorskip("matplotlib")
    from kernel_patterns.plotting import plot_ranking

    X, y = ranked_data(n=60, n_ranks=3, gap=0.5, seed=14)
    model = NuRanking(nu=0.2, kernel=Linear()).fit(X, y)
    f = model.decision_function(X)
    ax = plot_ranking(f, y, model.thresholds_)
    assert len(ax.lines) == 2
    assert [float(line.get_ydata()[0]) for line in ax.lines] == list(model.thresholds_)
    ax = plot_ranking(f, y, model.thresholds_, x=X[:, 0] + X[:, 1], xlabel="x0 + x1")
    assert ax.get_xlabel() == "x0 + x1"
    with pytest.raises(ValueError, match="length"):
        plot_ranking(f[:-1], y, model.thresholds_)
    ax.figure.clf()


def test_auto_solver_choice():
    from kernel_patterns.rank._nu_ranking_solver import AUTO_SWITCH, resolve_solver

    assert resolve_solver("auto", "auto", AUTO_SWITCH) == ("piqp", "dense")
    assert resolve_solver("auto", "auto", AUTO_SWITCH + 1) == ("smo", "decomposition")
    assert resolve_solver("clarabel", "auto", 10) == ("clarabel", "lifted")
    assert resolve_solver("piqp", "lifted", 10) == ("piqp", "lifted")


def test_printed_constraints_of_the_book_fail(monkeypatch):
    """Erratum 8: the printed pairing Σ_{y_i=y} α^l = Σ_{y_i=y−1} α^u reverses f."""
    import kernel_patterns.rank._nu_ranking_solver as solver_module

    def printed_structure(y, R):
        idx_u = np.flatnonzero(y <= R - 2)
        idx_l = np.flatnonzero(y >= 1)
        n_u, n_l = idx_u.size, idx_l.size
        A = np.zeros((R, n_u + n_l))
        A[y[idx_u], np.arange(n_u)] = -1.0
        A[y[idx_l] - 1, n_u + np.arange(n_l)] = 1.0
        A[R - 1, :] = 1.0
        return idx_u, idx_l, A

    X, y = ranked_data(n=200, n_ranks=5, noise=0.8, seed=6)
    good = NuRanking(nu=0.8, kernel=RBF(1.0)).fit(X, y)
    monkeypatch.setattr(solver_module, "_structure", printed_structure)
    bad = NuRanking(nu=0.8, kernel=RBF(1.0)).fit(X, y)
    f = bad.decision_function(X)
    medians = [np.median(f[y == k]) for k in bad.classes_]
    assert not np.all(np.diff(medians) > 0)
    assert mean_zero_one_error(y, bad.predict(X)) > 2 * mean_zero_one_error(y, good.predict(X))


def test_user_labels_returned_by_predict_and_score():
    pd = pytest.importorskip("pandas")
    X, y = ranked_data(n=90, n_ranks=3, gap=0.5, seed=15)
    order = ["low", "mid", "high"]
    labels = np.array(order)[y - 1]
    model = NuRanking(nu=0.2, kernel=Linear(), classes=order).fit(X, labels)
    np.testing.assert_array_equal(model.classes_, order)
    assert set(model.predict(X)) <= set(order)
    assert model.score(X, labels) >= -0.05
    ints = np.array([3, 10, 42])[y - 1]  # non-contiguous integers
    m_int = NuRanking(nu=0.2, kernel=Linear()).fit(X, ints)
    assert m_int.predict(X).dtype.kind == "i"
    assert set(m_int.predict(X)) <= {3, 10, 42}
    cat = pd.Series(pd.Categorical(labels, categories=order, ordered=True))
    m_cat = NuRanking(nu=0.2, kernel=Linear()).fit(X, cat)
    # score with an ordered categorical target (issue 18, bug 4): classes_ are in category order
    assert m_cat.score(X, cat) == pytest.approx(model.score(X, labels))
    np.testing.assert_array_equal(m_cat.predict(X), model.predict(X))
    with pytest.raises(ValueError, match=r"not in classes.*'top'"):
        NuRanking(classes=order).fit(X, np.where(y == 3, "top", labels))


# ------------------------------------------------ defaults: nu="auto" and the threshold rules
def test_mae_thresholds_match_exhaustive_search():
    from itertools import combinations_with_replacement

    from kernel_patterns.rank._nu_ranking_solver import _mae_thresholds

    rng = np.random.default_rng(20)
    for _ in range(5):
        n, R = 12, 3
        f = np.round(rng.normal(size=n), 1)  # ties on purpose
        y = rng.integers(0, R, size=n)
        b = _mae_thresholds(f, y, R)
        got = np.abs(np.searchsorted(b, f, side="right") - y).sum()
        cuts = np.concatenate([[-np.inf], np.unique(f) + 1e-9])
        best = min(np.abs(np.searchsorted(np.array(c), f, side="right") - y).sum()
                   for c in combinations_with_replacement(cuts, R - 1))
        assert got == best
        assert np.all(np.diff(b) >= 0)


def test_nu_auto_selects_from_the_grid_and_refits():
    from kernel_patterns.rank._nu_ranking_select import NU_RATIOS, WIDTH_FACTORS

    X, y = ranked_data(n=120, n_ranks=4, noise=0.6, seed=21)
    model = NuRanking().fit(X, y)  # nu="auto", RBF(gamma="scale")
    res = model.cv_results_
    assert res["mae"].shape == (len(NU_RATIOS) * len(WIDTH_FACTORS) * 2,)
    best = int(np.argmin(res["mae"]))
    nu_max = max_feasible_nu(y - 1, 4)
    assert model.nu_ == pytest.approx(res["nu_ratio"][best] * nu_max)
    assert model.threshold_rule_ == res["thresholds"][best]
    gamma0 = 1.0 / (X.shape[1] * X.var())
    assert model.kernel_.gamma == pytest.approx(gamma0 * res["width_factor"][best])
    assert np.all(np.diff(model.thresholds_) >= 0)
    assert mean_absolute_error(y, model.predict(X)) < 0.5
    # a fixed kernel width: only ν and the threshold rule are searched
    fixed = NuRanking(kernel=RBF(0.5)).fit(X, y)
    assert set(fixed.cv_results_["width_factor"]) == {1.0}
    assert fixed.kernel_.gamma == 0.5
    # a given ν: no search, KKT thresholds
    given = NuRanking(nu=0.5, kernel=RBF(0.5)).fit(X, y)
    assert given.cv_results_ is None and given.threshold_rule_ == "kkt"
    assert given.nu_ == 0.5


def test_nu_auto_with_precomputed_kernel_matches_the_kernel_object():
    X, y = ranked_data(n=90, n_ranks=3, noise=0.5, seed=22)
    a = NuRanking(kernel=RBF(0.5)).fit(X, y)
    b = NuRanking(kernel="precomputed").fit(RBF(0.5)(X), y)
    assert a.nu_ == pytest.approx(b.nu_)
    np.testing.assert_array_equal(a.predict(X), b.predict(RBF(0.5)(X)))


def test_thresholds_rule_mae_minimises_training_rank_error():
    X, y = ranked_data(n=120, n_ranks=4, noise=0.8, seed=23)
    kkt = NuRanking(nu=0.5, kernel=RBF(0.5), thresholds="kkt").fit(X, y)
    mae = NuRanking(nu=0.5, kernel=RBF(0.5), thresholds="mae").fit(X, y)
    np.testing.assert_allclose(kkt.decision_function(X), mae.decision_function(X))
    assert mae.threshold_rule_ == "mae"
    assert mean_absolute_error(y, mae.predict(X)) <= mean_absolute_error(y, kkt.predict(X))


def test_nu_auto_with_a_rank_of_one_point():
    X = np.arange(8.0)[:, None]
    y = np.array([0, 0, 0, 0, 0, 0, 0, 1])  # a fold without rank 1 in training is left out
    model = NuRanking(kernel=Linear()).fit(X, y)
    assert 0 < model.nu_ <= max_feasible_nu(y, 2)
    assert np.all(np.isfinite(model.cv_results_["mae"]))


def test_nu_auto_with_every_rank_a_single_point_warns_that_nothing_was_scored():
    X = np.random.default_rng(0).normal(size=(6, 3))
    with pytest.warns(UserWarning, match=r"nu='auto' could not cross-validate: every rank has "
                                         r"a single point.*Pass a float nu, or merge ranks"):
        model = NuRanking().fit(X, np.arange(6))
    assert np.isnan(model.cv_results_["mae"]).all()  # no held-out score, not a 0/0
    assert model.nu_ == pytest.approx(0.4 * max_feasible_nu(np.arange(6), 6))  # first entry
    assert model.threshold_rule_ == "kkt"
    with warnings.catch_warnings():  # a given ν needs no cross-validation
        warnings.simplefilter("error")
        NuRanking(nu=0.5).fit(X, np.arange(6))
