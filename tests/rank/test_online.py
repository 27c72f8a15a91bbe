"""OnlineRanking: the kernel ranking perceptron (Algorithm 8.14 with erratum 8)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kernel_patterns import OnlineRanking
from kernel_patterns.kernels import RBF, Linear
from kernel_patterns.rank._online import _online_ranking_pass


def ranked_data(n=120, n_ranks=4, gap=0.3, noise=0.0, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(4 * n, 2))
    z = X[:, 0] + 0.5 * X[:, 1] + noise * rng.normal(size=4 * n)
    cuts = np.linspace(-2.5, 2.5, n_ranks + 1)[1:-1]
    keep = np.min(np.abs(z[:, None] - cuts[None, :]), axis=1) > gap / 2
    X, z = X[keep][:n], z[keep][:n]
    return X, np.digitize(z, cuts)


def primal_perceptron(X, y, n_ranks, n_pass):
    """Naive primal ranking perceptron with a linear kernel (w explicit), the reference."""
    w = np.zeros(X.shape[1])
    b = np.zeros(n_ranks - 1)
    updates = 0
    for _ in range(n_pass):
        for x, yi in zip(X, y, strict=True):
            f = w @ x
            pred = next((k for k in range(n_ranks - 1) if f < b[k]), n_ranks - 1)
            if pred < yi:
                w += (yi - pred) * x
                for k in range(pred, yi):
                    b[k] -= 1
                updates += 1
            elif pred > yi:
                w += (yi - pred) * x
                for k in range(yi, pred):
                    b[k] += 1
                updates += 1
    return w, b, updates


def test_matches_primal_perceptron():
    X, y = ranked_data(n=80, noise=0.3, seed=1)
    for n_pass in (1, 3):
        w, b, updates = primal_perceptron(X, y, 4, n_pass)
        model = OnlineRanking(kernel=Linear(), max_iter=n_pass, shuffle=False,
                              average=False).fit(X, y)
        np.testing.assert_array_equal(model.thresholds_, b)
        assert model.n_updates_ == updates
        np.testing.assert_allclose(model.decision_function(X), X @ w, atol=1e-10)


def test_thresholds_ordered_after_every_update():
    X, y = ranked_data(n=150, n_ranks=5, noise=0.6, seed=2)
    model = OnlineRanking(kernel=RBF(1.0), average=False)
    seen_update = 0
    for i in range(len(y)):
        model.partial_fit(X[i : i + 1], y[i : i + 1], classes=np.arange(5))
        b = model.thresholds_
        assert b.dtype.kind == "i"
        assert np.all(np.diff(b) >= 0), f"thresholds out of order after example {i}: {b}"
        seen_update = model.n_updates_
    assert seen_update > 10  # the check ran over many real updates


def test_solver_keeps_order_under_random_streams():
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, R = 40, int(rng.integers(2, 7))
        X = rng.normal(size=(n, 3))
        y = rng.integers(0, R, size=n).astype(np.intp)
        K = RBF(0.5)(X)
        f, alpha, b = np.zeros(n), np.zeros(n), np.zeros(R - 1, dtype=np.int64)
        for i in range(n):  # one example at a time: check after every step
            _online_ranking_pass(K, f, y, alpha, b, order=np.array([i]))
            assert np.all(np.diff(b) >= 0)
        np.testing.assert_allclose(f, K @ alpha, atol=1e-9)


def test_zero_training_mistakes_on_separable_data():
    X, y = ranked_data(n=120, n_ranks=4, gap=0.4, seed=4)
    for kernel in (Linear(), RBF(0.5)):
        model = OnlineRanking(kernel=kernel, max_iter=500, average=False, random_state=0).fit(X, y)
        assert model.converged_
        np.testing.assert_array_equal(model.predict(X), y)
        assert model.n_updates_ >= 1


def test_partial_fit_batches_equal_single_examples_and_one_pass():
    X, y = ranked_data(n=90, noise=0.4, seed=5)
    one = OnlineRanking(kernel=RBF(0.7))
    for i in range(len(y)):
        one.partial_fit(X[i : i + 1], y[i : i + 1], classes=[0, 1, 2, 3])
    batched = OnlineRanking(kernel=RBF(0.7))
    for a in range(0, len(y), 25):
        batched.partial_fit(X[a : a + 25], y[a : a + 25], classes=[0, 1, 2, 3])
    single_pass = OnlineRanking(kernel=RBF(0.7), max_iter=1, shuffle=False).fit(X, y)
    Xn = np.random.default_rng(6).uniform(-2, 2, size=(20, 2))
    for m in (batched, single_pass):
        np.testing.assert_array_equal(m.thresholds_, one.thresholds_)
        assert m.n_updates_ == one.n_updates_
        np.testing.assert_allclose(m.decision_function(Xn), one.decision_function(Xn),
                                   atol=1e-10)
    assert one.n_seen_ == len(y)


def test_bound_theorem_8_15():
    X, y = ranked_data(n=200, n_ranks=3, gap=0.5, seed=7)
    model = OnlineRanking(kernel=Linear(), max_iter=200, random_state=0).fit(X, y)
    assert model.converged_
    k, ell, delta = model.n_updates_, 200, 0.05
    assert 1 <= k <= ell / 2
    expect = (k * math.log(ell) + math.log(ell / (2 * delta))) / (ell - k)
    assert model.bound(delta) == pytest.approx(min(expect, 1.0))
    assert model.bound(0.01) >= model.bound(0.1)
    with pytest.raises(ValueError, match="delta"):
        model.bound(0.0)


def test_bound_warns_when_not_converged():
    X, y = ranked_data(n=100, noise=1.0, seed=8)
    model = OnlineRanking(kernel=Linear(), max_iter=2, random_state=0).fit(X, y)
    assert not model.converged_
    with pytest.warns(UserWarning, match="Theorem 8.15"):
        model.bound(0.05)


def test_shuffle_is_reproducible():
    X, y = ranked_data(n=80, noise=0.5, seed=9)
    a = OnlineRanking(shuffle=True, random_state=0, max_iter=5).fit(X, y)
    b = OnlineRanking(shuffle=True, random_state=0, max_iter=5).fit(X, y)
    np.testing.assert_array_equal(a.thresholds_, b.thresholds_)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)


def test_precomputed_kernel_fit_and_labels():
    X, y = ranked_data(n=60, n_ranks=3, gap=0.5, seed=10)
    labels = np.array([3.5, 7.0, 9.0])[y]
    a = OnlineRanking(kernel=RBF(0.5), random_state=0, average=False).fit(X, labels)
    b = OnlineRanking(kernel="precomputed", random_state=0, average=False).fit(
        RBF(0.5)(X), labels)
    np.testing.assert_array_equal(a.predict(X), b.predict(RBF(0.5)(X)))
    np.testing.assert_array_equal(a.classes_, [3.5, 7.0, 9.0])
    assert a.score(X, labels) == 0.0
    with pytest.raises(ValueError, match="precomputed"):
        OnlineRanking(kernel="precomputed").partial_fit(RBF(0.5)(X), labels)


def test_input_not_modified_and_bad_input():
    X, y = ranked_data(n=50, seed=11)
    X0, y0 = X.copy(), y.copy()
    OnlineRanking().fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    with pytest.raises(ValueError, match="single rank"):
        OnlineRanking().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="classes="):
        OnlineRanking().partial_fit(X[:1], y[:1])
    model = OnlineRanking().partial_fit(X[:10], y[:10], classes=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="not seen"):
        model.partial_fit(X[10:12], np.array([0, 7]))
    with pytest.raises(ValueError, match="features"):
        model.partial_fit(X[10:12, :1], y[10:12])
    Xn = X.copy()
    Xn[1, 1] = np.inf
    with pytest.raises(ValueError, match="inf"):
        OnlineRanking().fit(Xn, y)
    with pytest.raises(ValueError, match="max_iter"):
        OnlineRanking(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="no rank order"):
        OnlineRanking().fit(X, np.array(["a", "b"] * 25))


# ------------------------------ labels, classes= and partial_fit (issues 12, 17, 18)
def test_partial_fit_first_batch_lacks_ranks_with_classes():
    X, y = ranked_data(n=120, noise=0.3, seed=12)
    first = y < 2  # the first batch holds ranks 0 and 1 only
    model = OnlineRanking(kernel=RBF(0.7)).partial_fit(X[first], y[first], classes=[0, 1, 2, 3])
    np.testing.assert_array_equal(model.classes_, [0, 1, 2, 3])
    assert model.thresholds_.shape == (3,)
    model.partial_fit(X[~first], y[~first])  # ranks 2 and 3 arrive later: accepted
    assert set(np.unique(model.predict(X))) <= {0, 1, 2, 3}
    assert model.n_seen_ == len(y)


def test_partial_fit_first_batch_lacks_ranks_without_classes():
    X, y = ranked_data(n=120, noise=0.3, seed=12)
    first = y < 2
    model = OnlineRanking(kernel=RBF(0.7)).partial_fit(X[first], y[first])
    np.testing.assert_array_equal(model.classes_, [0, 1])
    with pytest.raises(ValueError, match=r"not seen in fit.*3.*pass classes= .*first call"):
        model.partial_fit(X[~first], y[~first])


def test_string_labels_with_classes_order():
    X, y = ranked_data(n=120, n_ranks=3, gap=0.5, seed=13)
    order = ["low", "mid", "high"]  # not alphabetical
    labels = np.array(order)[y]
    model = OnlineRanking(kernel=Linear(), classes=order, random_state=0).fit(X, labels)
    np.testing.assert_array_equal(model.classes_, order)
    assert set(model.predict(X)) <= set(order)
    assert model.score(X, labels) == 0.0  # separable: no training mistakes
    stream = OnlineRanking(kernel=Linear())
    stream.partial_fit(X[:60], labels[:60], classes=order)
    stream.partial_fit(X[60:], labels[60:])
    assert stream.predict(X).dtype.kind == "U"
    with pytest.raises(ValueError, match=r"not seen in fit.*'top'"):
        stream.partial_fit(X[:2], np.array(["low", "top"]))
    with pytest.raises(ValueError, match="no rank order"):
        OnlineRanking().fit(X, labels)
    with pytest.raises(ValueError, match="repeat"):
        OnlineRanking(classes=["a", "a"]).fit(X, labels)


def test_ordered_categorical_score_and_partial_fit():
    pd = pytest.importorskip("pandas")
    X, y = ranked_data(n=120, n_ranks=3, gap=0.5, seed=14)
    cats = ["low", "mid", "high"]  # category order differs from sorted order
    target = pd.Series(pd.Categorical(np.array(cats)[y], categories=cats, ordered=True))
    # the averaged ranker's training error depends on the order of the passes: fix it
    model = OnlineRanking(kernel=Linear(), random_state=0).fit(X, target)
    np.testing.assert_array_equal(model.classes_, cats)
    assert model.score(X, target) == 0.0
    stream = OnlineRanking(kernel=Linear())
    stream.partial_fit(X[:60], target[:60])
    stream.partial_fit(X[60:], target[60:])  # raised "not seen in fit" before (issue 18, bug 4)
    assert stream.score(X, target) <= 0.0
    np.testing.assert_array_equal(stream.classes_, cats)


# ------------------------------------------------------------ the averaged ranker (issue 17)
def test_average_is_mean_of_the_rankers_after_each_example():
    """Brute force: replay the book's ranker one example at a time and average its states."""
    X, y = ranked_data(n=60, noise=0.6, seed=15)
    n_pass = 3
    K = RBF(0.7)(X)
    state = np.random.RandomState(0)  # the estimator draws its orders from this RandomState
    f, alpha, b = np.zeros(len(y)), np.zeros(len(y)), np.zeros(3, dtype=np.int64)
    sum_alpha, sum_b, steps = np.zeros(len(y)), np.zeros(3), 0
    for _ in range(n_pass):
        for i in state.permutation(len(y)):
            _online_ranking_pass(K, f, y, alpha, b, order=np.array([i]))
            sum_alpha += alpha
            sum_b += b
            steps += 1
    model = OnlineRanking(kernel=RBF(0.7), max_iter=n_pass,
                          random_state=np.random.RandomState(0)).fit(X, y)
    assert not model.converged_  # noisy ranks: every replayed pass ran
    np.testing.assert_allclose(model.thresholds_, sum_b / steps, atol=1e-12)
    Xn = np.random.default_rng(16).uniform(-2, 2, size=(15, 2))
    np.testing.assert_allclose(model.decision_function(Xn),
                               RBF(0.7)(Xn, X) @ (sum_alpha / steps), atol=1e-10)
    assert np.all(np.diff(model.thresholds_) >= 0)
    last = OnlineRanking(kernel=RBF(0.7), max_iter=n_pass, average=False,
                         random_state=np.random.RandomState(0)).fit(X, y)
    np.testing.assert_array_equal(last.thresholds_, b)


def test_average_partial_fit_continues_the_sums():
    X, y = ranked_data(n=90, noise=0.5, seed=17)
    whole = OnlineRanking(kernel=RBF(0.7), max_iter=1, shuffle=False).fit(X, y)
    parts = OnlineRanking(kernel=RBF(0.7))
    for a in range(0, 90, 30):
        parts.partial_fit(X[a : a + 30], y[a : a + 30], classes=[0, 1, 2, 3])
    np.testing.assert_allclose(parts.thresholds_, whole.thresholds_, atol=1e-12)
    np.testing.assert_allclose(parts.decision_function(X), whole.decision_function(X),
                               atol=1e-10)


def test_data_driven_rbf_width_is_a_tenth_of_scale():
    rng = np.random.default_rng(0)
    X = rng.normal(scale=2.0, size=(60, 3))
    y = np.digitize(X[:, 0], [-1.0, 1.0])
    gamma_scale = 1.0 / (3 * X.var())
    r = OnlineRanking(random_state=0).fit(X, y)
    assert isinstance(r.kernel_, RBF)
    assert r.kernel_.gamma == pytest.approx(0.1 * gamma_scale)
    p = OnlineRanking(random_state=0).partial_fit(X, y)
    assert p.kernel_.gamma == pytest.approx(0.1 * gamma_scale)
    # a width the user gives is used as given
    given = OnlineRanking(kernel="rbf", kernel_params={"gamma": 0.7}, random_state=0).fit(X, y)
    assert given.kernel_.gamma == 0.7
