"""GPClustering at scale: the inducing-point variance (DTC/FITC) and approximation="inducing"
against the exact method (the short-flow assignment is tested in test_assign.py)."""

from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp._assign import assign_to_equilibria
from kernel_patterns.cluster.gp._inducing import (
    InducingVarianceModel,
    choose_inducing_points,
    finish_inducing_model,
    fit_inducing_model,
    inducing_basis,
    inducing_statistics,
)
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import RBF, GPCovariance, Polynomial

from .gp_data import PAPER, finite_difference_gradient


def _rings(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    X, y = datasets.make_rings((n // 3, n - n // 3), random_state=seed)
    return datasets.scale_unit_interval(X), y


def _brute_variance(kernel, X, U, Q, form: str, noise: float) -> np.ndarray:
    """DTC/FITC predictive variance from the textbook formula with explicit inverses."""
    Kuu = kernel(U, U)  # two arguments: no noise on the diagonal
    Kuf = kernel(U, X)
    Kqu = kernel(Q, U)
    kappa = np.array([kernel(q[None, :])[0, 0] for q in Q])  # with the noise, as eq. 3.1
    Kuu_inv = np.linalg.inv(Kuu)
    if form == "dtc":
        lam = np.full(X.shape[0], noise)
    else:
        prior = np.array([kernel(x[None, :], x[None, :])[0, 0] for x in X])
        lam = prior - np.einsum("ij,ik,kj->j", Kuf, Kuu_inv, Kuf) + noise
    Sigma = np.linalg.inv(Kuu + (Kuf / lam) @ Kuf.T)
    Qq = np.einsum("ij,jk,ik->i", Kqu, Kuu_inv, Kqu)
    return kappa - Qq + np.einsum("ij,jk,ik->i", Kqu, Sigma, Kqu)


# ---------------------------------------------------------------- the variance model
@pytest.mark.parametrize("form", ["dtc", "fitc"])
def test_inducing_variance_matches_the_textbook_formula(form) -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(40, 2))
    U = rng.uniform(size=(12, 2))
    Q = rng.uniform(-0.2, 1.2, size=(15, 2))
    k = GPCovariance(v0=1.0, v1=2.0, v2=0.3, l=[8.0, 5.0])
    model = fit_inducing_model(k, X, U, form=form)
    brute = _brute_variance(k, X, U, Q, form, 0.3)
    assert np.allclose(model.variance(Q), np.maximum(brute, 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("form", ["dtc", "fitc"])
@pytest.mark.parametrize(
    "kernel",
    [GPCovariance(v0=1.0, v1=10.0, v2=0.5, l=[30.0, 10.0, 50.0]), RBF(gamma=3.0),
     Polynomial(degree=2, gamma=1.0, coef0=1.0)],
)
def test_closed_form_gradient_equals_finite_differences(kernel, form) -> None:
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(60, 3))
    U = X[rng.choice(60, 15, replace=False)]
    Q = rng.uniform(size=(7, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # RBF / polynomial have no noise: floor with a warning
        model = fit_inducing_model(kernel, X, U, form=form)
    f, g = model.value_and_gradient(Q)
    assert np.allclose(f, model.variance(Q))
    fd = finite_difference_gradient(model.variance, Q)
    assert np.allclose(g, fd, rtol=1e-4, atol=1e-6)
    assert np.allclose(model.gradient(Q), g)


@pytest.mark.parametrize("form", ["dtc", "fitc"])
@pytest.mark.parametrize("v2", [1.0, 0.05])
def test_inducing_points_equal_to_the_data_give_the_exact_variance(form, v2) -> None:
    X, _ = _rings(150)
    k = GPCovariance(v0=1.0, v1=10.0, v2=v2, l=400.0)
    exact = fit_variance_model(k, X)
    model = fit_inducing_model(k, X, X.copy(), form=form)
    Q = np.vstack([X[:40], np.random.default_rng(2).uniform(size=(40, 2))])
    assert np.allclose(model.variance(Q), exact.variance(Q), rtol=0, atol=1e-6)
    ge, gi = exact.gradient(Q), model.gradient(Q)
    assert np.allclose(gi, ge, rtol=1e-4, atol=1e-4 * np.abs(ge).max())


def test_error_against_exact_falls_as_m_grows() -> None:
    X, _ = _rings(450)
    k = GPCovariance(**PAPER, l=400.0)
    exact = fit_variance_model(k, X)
    Q = np.vstack([X, np.random.default_rng(3).uniform(size=(200, 2))])
    ref = exact.variance(Q)
    errors = []
    for m in (20, 60, 180, 450):
        U = choose_inducing_points(X, m, "kmeans", np.random.RandomState(0))
        errors.append(np.abs(fit_inducing_model(k, X, U).variance(Q) - ref).max())
    assert all(a > b for a, b in itertools.pairwise(errors))
    assert errors[-1] < 1e-6  # m = N: U = X, the exact variance


def test_variance_returns_to_the_prior_far_from_the_data() -> None:
    # DTC/FITC (not SoR, whose variance would vanish here): the support estimate holds.
    X, _ = _rings(300)
    k = GPCovariance(**PAPER, l=400.0)
    model = fit_inducing_model(k, X, choose_inducing_points(X, 50, "kmeans",
                                                            np.random.RandomState(0)))
    far = np.array([[5.0, 5.0], [-3.0, 0.5]])
    # far away only the bias v1 remains in k(x): the exact variance there is the prior minus
    # what the bias explains; the inducing one is the same, above the level r*
    exact_far = fit_variance_model(k, X).variance(far)
    assert np.allclose(model.variance(far), exact_far, rtol=1e-2)
    assert model.variance(far).min() > model.variance(X).max() + 0.2


def test_fit_split_by_partitions_equals_the_one_pass_fit() -> None:
    # what a distributed driver does: basis on the driver, statistics per partition, summed
    X, _ = _rings(500)
    k = GPCovariance(**PAPER, l=400.0)
    U = choose_inducing_points(X, 60, "kmeans", np.random.RandomState(0))
    basis = inducing_basis(k, U, "fitc")
    P = sum(inducing_statistics(basis, X[i : i + 123]) for i in range(0, 500, 123))
    split = finish_inducing_model(basis, P)
    one = fit_inducing_model(k, X, U)
    Q = np.random.default_rng(4).uniform(size=(50, 2))
    assert np.allclose(split.variance(Q), one.variance(Q), rtol=0, atol=1e-10)


def test_a_weight_of_one_half_on_every_point_twice_is_every_point_once() -> None:
    # the default kernel's weight s / n: n points that count s / n each are s points in
    # expectation; here exactly, with every point given twice at weight 1/2
    X, _ = _rings(300)
    k = GPCovariance(**PAPER, l=400.0)
    U = choose_inducing_points(X, 50, "kmeans", np.random.RandomState(0))
    once = fit_inducing_model(k, X, U)
    twice = fit_inducing_model(k, np.vstack([X, X]), U, weight=0.5)
    Q = np.random.default_rng(5).uniform(size=(60, 2))
    np.testing.assert_allclose(twice.variance(Q), once.variance(Q), rtol=0, atol=1e-10)
    assert not np.allclose(fit_inducing_model(k, np.vstack([X, X]), U).variance(Q),
                           once.variance(Q), rtol=0, atol=1e-6)
    with pytest.raises(ValueError, match="weight must be > 0"):
        fit_inducing_model(k, X, U, weight=0.0)


def test_model_is_picklable_and_noise_floor_warns() -> None:
    X, _ = _rings(90)
    with pytest.warns(UserWarning, match="no noise"):
        model = fit_inducing_model(RBF(gamma=200.0), X, X[:30])
    clone = pickle.loads(pickle.dumps(model))
    assert isinstance(clone, InducingVarianceModel)
    assert np.array_equal(clone.variance(X), model.variance(X))


def test_bad_form_and_duplicate_inducing_points() -> None:
    X, _ = _rings(60)
    k = GPCovariance(**PAPER, l=400.0)
    with pytest.raises(ValueError, match="form must be"):
        fit_inducing_model(k, X, X[:5], form="sor")  # type: ignore[arg-type]
    U = np.vstack([X[:10], X[:10]])  # duplicates: jitter makes K_uu factorise
    model = fit_inducing_model(k, X, U)
    assert model.jitter > 0 and np.all(np.isfinite(model.variance(X)))


@pytest.mark.parametrize("landmarks", ["kmeans", "kmeans++", "uniform"])
def test_choose_inducing_points(landmarks) -> None:
    X, _ = _rings(300)
    X0 = X.copy()
    U1 = choose_inducing_points(X, 40, landmarks, np.random.RandomState(5))
    U2 = choose_inducing_points(X, 40, landmarks, np.random.RandomState(5))
    assert U1.shape == (40, 2) and np.array_equal(U1, U2)
    if landmarks != "kmeans":  # data points
        assert all(np.any(np.all(u == X, axis=1)) for u in U1)
    assert np.array_equal(choose_inducing_points(X, 500, landmarks, np.random.RandomState(0)), X)
    assert np.array_equal(X, X0)
    with pytest.raises(ValueError, match="landmarks must be"):
        choose_inducing_points(X, 40, "leverage", np.random.RandomState(0))  # type: ignore[arg-type]


# ---------------------------------------------------------------- the estimator
def test_inducing_with_all_points_equals_exact() -> None:
    X, _ = _rings(240)
    k = GPCovariance(**PAPER, l=400.0)
    ex = GPClustering(k).fit(X)
    ind = GPClustering(k, approximation="inducing", n_landmarks=500, subsample=500,
                       random_state=0).fit(X)
    assert np.array_equal(ind.inducing_points_, X)
    assert ind.equilibria_.shape == ex.equilibria_.shape
    assert np.allclose(ind.equilibria_, ex.equilibria_, atol=1e-3 * 0.05)
    assert np.array_equal(ind.labels_, ex.labels_)
    assert np.isclose(ind.max_variance_, ex.max_variance_, rtol=1e-8)
    assert ex.inducing_points_ is None


def _sets(n: int):
    X, y = _rings(n)
    yield "rings", X, y, {"kernel": GPCovariance(**PAPER, l=400.0)}
    X, y = datasets.make_two_moons((n // 2, n - n // 2), random_state=0)
    yield "moons", datasets.scale_unit_interval(X), y, {"kernel": GPCovariance(**PAPER, l=400.0)}
    X, y = datasets.make_gaussians(5, n_per_cluster=n // 5, random_state=1)
    yield ("gaussians 5-D", datasets.scale_unit_interval(X), y,
           {"kernel": GPCovariance(**PAPER, l=31.0), "n_clusters": 5})


@pytest.mark.parametrize("name, X, y, kw", list(_sets(600)), ids=lambda v: v if
                         isinstance(v, str) else "")
def test_inducing_labels_match_exact(name, X, y, kw) -> None:
    """Acceptance (a) at 600 points (the 2,000-point run is in benchmarks/bench_scale_gp.py)."""
    X0 = X.copy()
    ex = GPClustering(**kw).fit(X)
    ind = GPClustering(**kw, approximation="inducing", n_landmarks=200, subsample=300,
                       random_state=0).fit(X)
    assert ind.n_clusters_ == ex.n_clusters_
    assert adjusted_rand_score(ex.labels_, ind.labels_) >= 0.99
    assert adjusted_rand_score(y, ind.labels_) >= 0.99
    assert np.array_equal(X, X0)
    # predict on a fresh sample of the same shapes: the short flow again
    Xn = X[::4] + np.random.default_rng(7).normal(scale=0.002, size=X[::4].shape)
    assert adjusted_rand_score(ex.predict(Xn), ind.predict(Xn)) >= 0.99


def test_random_state_reproducible_and_labels_at() -> None:
    X, y = _rings(600)
    kw = {"kernel": GPCovariance(**PAPER, l=400.0), "approximation": "inducing",
          "n_landmarks": 100, "subsample": 150}
    a = GPClustering(**kw, random_state=3).fit(X)
    b = GPClustering(**kw, random_state=3).fit(X)
    assert np.array_equal(a.inducing_points_, b.inducing_points_)
    assert np.array_equal(a.labels_, b.labels_)
    assert np.array_equal(a.labels_at(level=a.level_), a.labels_)
    # small batches: the subsample flows in chunks (SEPs passed on), points assigned in batches
    c = GPClustering(**kw, random_state=3, batch_size=64).fit(X)
    assert adjusted_rand_score(a.labels_, c.labels_) == 1.0
    assert a.labels_at(n_clusters=1).max() == 0
    assert a.basins_.shape == (600,) and a.basins_.max() < a.equilibria_.shape[0]
    assert adjusted_rand_score(y, a.labels_) == 1.0
    assert a.variance(X).shape == (600,) and a.variance_gradient(X[:3]).shape == (3, 2)
    # the pure per-block function a distributed driver calls, with a pickled model
    model = pickle.loads(pickle.dumps(a.landscape_.model))
    parts = [assign_to_equilibria(model, X[i : i + 200], a.equilibria_,
                                  **a.assign_params()).basins for i in range(0, 600, 200)]
    assert np.array_equal(a.equilibrium_labels_[np.concatenate(parts)], a.predict(X))
    assert adjusted_rand_score(a.predict(X), a.labels_) == 1.0
    far = a.predict(np.array([[3.0, 3.0], [0.5, 0.5]]))  # far away, and the rings' centre
    assert far.shape == (2,) and set(far) <= set(a.labels_)


def test_inducing_with_default_kernel_and_n_clusters() -> None:
    X, y = datasets.make_two_moons((300, 300), random_state=2)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(n_clusters=2, approximation="inducing", n_landmarks=150,
                      subsample=300, landmarks="kmeans++", random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) >= 0.99


def test_default_kernel_and_level_follow_the_subsample_on_many_points() -> None:
    # Regression: over all 20,000 points r* was set by the rarest outliers and, with the
    # default (short) length scale, the support joined both moons (1 cluster, ARI 0).
    X, y = datasets.make_two_moons((10_000, 10_000), random_state=0)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(approximation="inducing", random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) >= 0.99
    assert gp.max_variance_ == pytest.approx(
        float(gp.landscape_.model.variance(X[gp.landscape_.plan.subsample]).max())
    )
    # every point counts subsample / n: the landscape of the subsample, whose l0 it is
    plan = gp.landscape_.plan
    assert plan.weight == pytest.approx(plan.subsample.size / X.shape[0])
    given = GPClustering(GPCovariance(**PAPER, l=400.0), approximation="inducing",
                         n_landmarks=50, subsample=500, random_state=0).fit(X[:2000])
    assert given.landscape_.plan.weight == 1.0  # a given kernel: the fit of all the points


@pytest.mark.parametrize(
    "params, match",
    [({"approximation": "nystrom"}, "approximation"), ({"n_landmarks": 0}, "n_landmarks"),
     ({"subsample": 1}, "subsample"), ({"landmarks": "leverage"}, "landmarks"),
     ({"assign_steps": -1}, "assign_steps"), ({"batch_size": 0}, "batch_size"),
     ({"random_state": "seed"}, "random_state")],
)
def test_bad_parameters(params, match) -> None:
    X, _ = _rings(30)
    with pytest.raises(ValueError, match=match):
        GPClustering(**{"approximation": "inducing", **params}).fit(X)
