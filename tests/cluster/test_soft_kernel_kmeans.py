"""SoftKernelKMeans: eq. 4 and 7 by brute force, large stiffness, the paper's accuracies."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from kernel_patterns import KernelKMeans, SoftKernelKMeans
from kernel_patterns.cluster._soft_kernel_kmeans import _soft_distances, _soft_kernel_kmeans_runs
from kernel_patterns.datasets import load_iris, load_wine, make_two_moons, whiten
from kernel_patterns.kernels import RBF, GeodesicKernel, Precomputed, make_kernel, make_operator
from kernel_patterns.metrics import clustering_accuracy


def _soft_kernel_kmeans(op, R0, beta, sample_weight=None, max_iter=300, tol=1e-6, diag=None):
    """One run of the lock-step solver (the single-run form the tests call)."""
    R, energy, J, n_iter = _soft_kernel_kmeans_runs(
        op, np.asarray(R0)[None], beta, sample_weight, max_iter, tol, diag
    )
    return R[0], float(energy[0]), float(J[0]), int(n_iter[0])


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    return make_blobs(n_samples=150, centers=3, cluster_std=1.0, random_state=0)


def test_eq4_and_eq7_by_brute_force() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    K = RBF(0.5)(X)
    R = rng.dirichlet(np.ones(3), size=20)
    w = rng.uniform(0.5, 2.0, 20)
    dist, _, _ = _soft_distances(make_operator(Precomputed(), K), R, w, np.diag(K))
    naive = np.empty((20, 3))
    for j in range(3):
        W = w * R[:, j]
        g = W.sum()
        for t in range(20):
            naive[t, j] = K[t, t] - 2 / g * (W @ K[t]) + (W @ K @ W) / g**2
    np.testing.assert_allclose(dist, naive, atol=1e-12)
    # one iteration of the solver is eq. 7 applied to these distances
    R1, _, _, _ = _soft_kernel_kmeans(make_operator(Precomputed(), K), R, 2.0, w, max_iter=1)
    e = np.exp(-2.0 * naive)
    # R1 is computed one step further (from its own centroids), so compare a single step:
    from kernel_patterns.cluster._soft_kernel_kmeans import _responsibilities

    np.testing.assert_allclose(_responsibilities(naive, 2.0), e / e.sum(1, keepdims=True))
    np.testing.assert_allclose(R1.sum(1), 1.0)


def test_responsibilities_rows_and_predict_proba(blobs) -> None:
    X, y = blobs
    m = SoftKernelKMeans(3, kernel=RBF(0.1), beta=20.0, random_state=0).fit(X)
    assert m.responsibilities_.shape == (150, 3)
    np.testing.assert_allclose(m.responsibilities_.sum(1), 1.0)
    assert clustering_accuracy(y, m.labels_) >= 0.9
    P = m.predict_proba(X)
    np.testing.assert_allclose(P.sum(1), 1.0)
    np.testing.assert_allclose(P, m.responsibilities_, atol=1e-4)
    np.testing.assert_array_equal(m.predict(X), m.labels_)
    assert m.objective_ <= m.inertia_ + 1e-12  # the entropy term is subtracted


def test_large_beta_no_overflow_and_equals_hard(blobs) -> None:
    X, _ = blobs
    init = np.random.default_rng(0).integers(0, 3, 150)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        soft = SoftKernelKMeans(3, kernel=RBF(0.1), beta=1e6, init=init).fit(X)
        P = soft.predict_proba(X + 0.01)
    assert np.isfinite(soft.responsibilities_).all() and np.isfinite(P).all()
    hard = KernelKMeans(3, kernel=RBF(0.1), init=init).fit(X)
    np.testing.assert_array_equal(soft.labels_, hard.labels_)
    assert soft.inertia_ == pytest.approx(hard.inertia_, rel=1e-6)


def test_geodesic_two_moons_and_predict_new_points() -> None:
    X, y = make_two_moons(random_state=0)
    m = SoftKernelKMeans(2, kernel=GeodesicKernel(n_neighbors=6), beta=0.6, random_state=0)
    with pytest.warns(UserWarning, match="connected components"):
        m.fit(X)
    assert clustering_accuracy(y, m.labels_) == 1.0
    Xn, yn = make_two_moons(n_samples=(30, 30), random_state=5)
    pred = m.predict(Xn)
    assert clustering_accuracy(yn, pred) >= 0.95
    np.testing.assert_array_equal(m.predict(X), m.labels_)
    assert isinstance(m.kernel_, GeodesicKernel) and hasattr(m.kernel_, "shift_")
    assert not hasattr(m.kernel, "shift_")  # the user's kernel object is not fitted


def test_geodesic_iris_and_wine_accuracy() -> None:
    X, y = load_iris(return_X_y=True)
    m = SoftKernelKMeans(3, kernel=GeodesicKernel(n_neighbors=26), beta=0.6, random_state=0)
    assert clustering_accuracy(y, m.fit_predict(X)) >= 0.90
    W, yw = load_wine(return_X_y=True)
    m = SoftKernelKMeans(3, kernel="geodesic", kernel_params={"n_neighbors": 28}, beta=0.03,
                         random_state=0)
    assert clustering_accuracy(yw, m.fit_predict(whiten(W))) >= 0.93


def test_precomputed_equals_computed(blobs) -> None:
    X, _ = blobs
    a = SoftKernelKMeans(3, kernel=RBF(0.1), beta=5.0, random_state=1).fit(X)
    b = SoftKernelKMeans(3, kernel="precomputed", beta=5.0, random_state=1).fit(RBF(0.1)(X))
    np.testing.assert_allclose(a.responsibilities_, b.responsibilities_, atol=1e-12)
    np.testing.assert_allclose(b.predict_proba(RBF(0.1)(X[:5], X)), a.predict_proba(X[:5]))


def test_bad_input(blobs) -> None:
    X, _ = blobs
    X0 = X.copy()
    SoftKernelKMeans(3, random_state=0).fit(X)
    np.testing.assert_array_equal(X, X0)
    for beta in (0.0, -1.0):
        with pytest.raises(InvalidParameterError, match="beta"):
            SoftKernelKMeans(3, beta=beta).fit(X)
    with pytest.raises(ValueError, match="n_samples=150 should be >= n_clusters=151"):
        SoftKernelKMeans(151).fit(X)
    with pytest.raises(ValueError, match="n_neighbors=150 must be smaller"):
        SoftKernelKMeans(3, kernel=GeodesicKernel(n_neighbors=150)).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        SoftKernelKMeans(2).fit(np.array([[np.nan, 1.0], [1.0, 2.0]]))


def test_absorbed_clusters_are_named_with_the_parameter_to_change() -> None:
    X, _ = make_blobs(n_samples=[40, 40], centers=[[0, 0], [10, 0]], cluster_std=0.3,
                      random_state=0)
    with pytest.warns(UserWarning, match=r"only 1 of the n_clusters=6 clusters is distinct.*"
                                         r"raise beta"):
        est = SoftKernelKMeans(6, beta=0.01, random_state=0).fit(X)
    assert np.unique(est.labels_).size < 6
    # above the critical beta but not enough for 6: the two blobs, each cluster counted
    # three times over (equal responsibilities), whichever of them a label names
    with pytest.warns(UserWarning, match=r"only 2 of the n_clusters=6 clusters are distinct; "
                                         r"the others coincide.*beta=3"):
        est = SoftKernelKMeans(6, beta=3.0, random_state=0).fit(X)
    # labels are 0 … used − 1 (no gaps) and still the argmax of responsibilities_
    with pytest.warns(UserWarning, match="only 2 of the n_clusters=6 clusters are distinct"):
        est = SoftKernelKMeans(6, beta=1.5, random_state=0).fit(X)
    used = np.unique(est.labels_)
    np.testing.assert_array_equal(used, np.arange(used.size))
    np.testing.assert_array_equal(est.labels_, est.responsibilities_.argmax(axis=1))
    np.testing.assert_allclose(est.predict_proba(X), est.responsibilities_, atol=1e-6)


def test_auto_beta_is_ten_over_the_data_spread_and_scale_free() -> None:
    from sklearn.datasets import load_digits
    from sklearn.preprocessing import StandardScaler

    from kernel_patterns.kernels import Linear

    X, _ = load_digits(return_X_y=True)
    X = StandardScaler().fit_transform(X[:600])
    m = SoftKernelKMeans(10, random_state=0).fit(X)
    K = m.kernel_(X)
    assert m.beta_ == pytest.approx(10.0 / (np.mean(np.diag(K)) - K.mean()))
    assert np.unique(m.labels_).size == 10  # beta=10 left clusters empty on digits
    # a linear kernel's distances grow with the units squared: "auto" follows them
    a = SoftKernelKMeans(3, kernel=Linear(), random_state=0).fit(X[:200])
    b = SoftKernelKMeans(3, kernel=Linear(), random_state=0).fit(1000.0 * X[:200])
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert b.beta_ == pytest.approx(a.beta_ * 1e-6)
    np.testing.assert_allclose(a.predict_proba(X[:5]), b.predict_proba(1000.0 * X[:5]),
                               atol=1e-8)


def _plain_fixed_point(K, R, beta, max_iter, tol):
    """The plain iteration R <- softmax(-beta d(R)) of eq. 4 and 7, dense and unaccelerated."""
    for it in range(1, max_iter + 1):
        coef = R / R.sum(axis=0)
        KC = K @ coef
        dist = np.maximum(np.diag(K)[:, None] - 2 * KC + np.einsum("ij,ij->j", coef, KC), 0)
        logits = -beta * dist
        new = np.exp(logits - logits.max(axis=1, keepdims=True))
        new /= new.sum(axis=1, keepdims=True)
        if np.abs(new - R).max() <= tol:
            return new, it
        R = new
    return R, max_iter


@pytest.mark.parametrize(("n_clusters", "seed"), [(3, 0), (8, 1), (12, 2)])
def test_squarem_reaches_the_plain_fixed_point_in_fewer_products(n_clusters, seed) -> None:
    X, _ = make_blobs(300, centers=n_clusters, cluster_std=2.5, random_state=seed)
    K = RBF(gamma=1.0 / (2 * X.var() * X.shape[1]))(X)
    R0 = np.eye(n_clusters)[np.random.default_rng(seed).integers(0, n_clusters, 300)]
    beta = 10.0
    plain, n_plain = _plain_fixed_point(K, R0, beta, 5000, 1e-9)
    R, _, J, n_iter = _soft_kernel_kmeans(make_operator(Precomputed(), K), R0, beta,
                                         max_iter=5000, tol=1e-9)
    np.testing.assert_allclose(R, plain, atol=1e-6)
    assert n_iter < n_plain
    # and the free energy is that of the plain fixed point
    dist, _, _ = _soft_distances(make_operator(Precomputed(), K), plain, np.ones(300), np.diag(K))
    from kernel_patterns.cluster._soft_kernel_kmeans import _free_energy

    np.testing.assert_allclose(J, _free_energy(plain, dist, np.ones(300), beta)[1], rtol=1e-9)


def test_critical_beta_equals_the_dense_eigenvalue() -> None:
    from kernel_patterns.cluster._soft_kernel_kmeans import _critical_beta
    from kernel_patterns.experiments.geodesic import critical_beta, rbf_K
    from kernel_patterns.kernels import Precomputed, make_operator

    X, _ = make_blobs(n_samples=90, centers=3, random_state=1)
    K = rbf_K(X, 2.0)
    assert _critical_beta(make_operator(Precomputed(), K)) == pytest.approx(critical_beta(K))


def test_weighted_critical_beta_counts_a_weight_as_copies() -> None:
    from kernel_patterns.cluster._soft_kernel_kmeans import _critical_beta
    from kernel_patterns.experiments.geodesic import critical_beta, rbf_K
    from kernel_patterns.kernels import Precomputed, make_operator

    X, _ = make_blobs(n_samples=60, centers=3, random_state=2)
    w = np.random.default_rng(0).integers(1, 4, 60)
    copies = np.repeat(X, w, axis=0)  # the dense reference: every point w times
    weighted = _critical_beta(make_operator(Precomputed(), rbf_K(X, 2.0)), w.astype(float))
    assert weighted == pytest.approx(critical_beta(rbf_K(copies, 2.0)))
    assert weighted != pytest.approx(critical_beta(rbf_K(X, 2.0)))  # the weights matter


def test_weighted_fit_is_uniform_below_its_critical_beta_only() -> None:
    from kernel_patterns.cluster._soft_kernel_kmeans import _critical_beta
    from kernel_patterns.kernels import Precomputed, make_operator

    X, _ = make_blobs(n_samples=[60, 20], centers=[[0, 0], [4, 0]], random_state=0)
    w = np.r_[np.full(60, 0.2), np.full(20, 3.0)]  # the small blob weighs most
    K = RBF(gamma=0.1)(X)
    bc = _critical_beta(make_operator(Precomputed(), K), w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low = SoftKernelKMeans(2, kernel="precomputed", beta=0.8 * bc, max_iter=3000,
                               tol=1e-10, random_state=0).fit(K, sample_weight=w)
    np.testing.assert_allclose(low.responsibilities_, 0.5, atol=1e-3)
    high = SoftKernelKMeans(2, kernel="precomputed", beta=1.5 * bc, max_iter=3000,
                            random_state=0).fit(K, sample_weight=w)
    assert np.ptp(high.responsibilities_[:, 0]) > 0.1
    with pytest.warns(ConvergenceWarning, match=f"raise beta above {bc:.3g}"):
        SoftKernelKMeans(2, kernel="precomputed", beta=0.1 * bc,
                         random_state=0).fit(K, sample_weight=w)


@pytest.mark.parametrize("c", [1e-300, 1e300])
def test_weights_count_only_relative_to_each_other(c) -> None:
    # equal weights of any size are the fit of no weights (beta="auto" divided by their sum
    # squared: a ZeroDivisionError at 1e-300, an OverflowError at 1e300); the inertia and
    # the objective are in the units of the weights given
    X = np.random.default_rng(0).normal(size=(40, 3))
    ref = SoftKernelKMeans(3, random_state=0).fit(X)
    fit = SoftKernelKMeans(3, random_state=0).fit(X, sample_weight=np.full(40, c))
    np.testing.assert_array_equal(fit.responsibilities_, ref.responsibilities_)
    assert fit.beta_ == ref.beta_
    assert fit.inertia_ == pytest.approx(c * ref.inertia_, rel=1e-12)
    assert fit.objective_ == pytest.approx(c * ref.objective_, rel=1e-12)


def test_points_that_coincide_in_feature_space_warn_without_a_critical_beta() -> None:
    from kernel_patterns.cluster._soft_kernel_kmeans import _critical_beta

    # a zero centred operator (no Lanczos: ARPACK fails on it) and one zero to round-off
    for X, kernel in ((np.zeros((20, 2)), "linear"), (np.zeros((20, 20)), "precomputed"),
                      (np.ones((20, 2)), "linear")):
        assert _critical_beta(make_operator(make_kernel(kernel), X)) == np.inf
        X0 = X.copy()
        with pytest.warns(ConvergenceWarning, match=r"only 1 of the n_clusters=2 clusters is "
                          r"distinct.*no beta separates the points"):
            est = SoftKernelKMeans(2, kernel=kernel, random_state=0).fit(X)
        np.testing.assert_allclose(est.responsibilities_, 0.5)
        np.testing.assert_array_equal(X, X0)


def test_uniform_responsibilities_are_named_with_beta() -> None:
    from sklearn.exceptions import ConvergenceWarning

    X, _ = make_blobs(n_samples=[40, 40, 40], centers=[[0, 0], [6, 0], [0, 6]],
                      cluster_std=0.5, random_state=0)
    auto = SoftKernelKMeans(3, random_state=0).fit(X)
    # below the critical beta the uniform assignment is the only fixed point
    with pytest.warns(ConvergenceWarning, match=r"responsibilities are uniform.*"
                      r"beta=0\.001 is too small.*beta='auto' gives " + f"{auto.beta_:.3g}"):
        low = SoftKernelKMeans(3, beta=1e-3, random_state=0).fit(X)
    np.testing.assert_allclose(low.responsibilities_, 1 / 3, atol=1e-3)
    with warnings.catch_warnings():  # the default beta: decisive, no warning
        warnings.simplefilter("error")
        SoftKernelKMeans(3, random_state=0).fit(X)
    assert auto.responsibilities_.max(axis=1).mean() > 0.9


@pytest.mark.parametrize("family", ["rings", "moons", "blobs"])
def test_abandoning_hopeless_restarts_keeps_the_same_result(family, monkeypatch) -> None:
    # restarts that cannot end below a finished one are stopped (issue 34: on two noisy
    # rings the last of 10 restarts crept for 70 passes over K to a fixed point another had
    # reached); the kept run, its labels and its free energy are those without pruning
    from kernel_patterns.cluster import _soft_kernel_kmeans as skm
    from kernel_patterns.datasets import make_rings

    if family == "rings":
        X, _ = make_rings(n_samples=(600, 600), noise=0.05, random_state=0)
    elif family == "moons":
        X, _ = make_two_moons(n_samples=(500, 500), random_state=1)
    else:
        X, _ = make_blobs(1000, centers=[[0, 0], [3, 0], [1.5, 2.6]], random_state=0)
    k = 3 if family == "blobs" else 2
    products: dict[bool, int] = {}
    fits = {}
    real = skm._soft_kernel_kmeans_runs
    for prune in (False, True):
        count = 0
        original = skm._kernel_times

        def counted(op, W, original=original):
            nonlocal count
            count += 1
            return original(op, W)

        def runs(*args, prune=prune, **kwargs):
            return real(*args, **kwargs, prune=prune)

        monkeypatch.setattr(skm, "_kernel_times", counted)
        monkeypatch.setattr(skm, "_soft_kernel_kmeans_runs", runs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fits[prune] = SoftKernelKMeans(k, random_state=0).fit(X)
        monkeypatch.setattr(skm, "_kernel_times", original)
        products[prune] = count
    a, b = fits[False], fits[True]
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_allclose(b.objective_, a.objective_, rtol=1e-9)
    # the same fixed point, possibly reached by another restart: equal to within the distance
    # that tol=1e-6 on a step leaves at a slow linear rate (~1e-6 / (1 − ρ))
    np.testing.assert_allclose(b.responsibilities_, a.responsibilities_, atol=1e-4)
    assert products[True] <= products[False]


def test_responsibilities_sum_to_one_when_the_logits_are_huge() -> None:
    """β d of 1e10 (a kernel nearly constant on X, so β='auto' is huge): every row of
    ``predict_proba`` sums to 1 to rounding (a log-sum-exp subtracted from such logits left
    2e-6 in every sum; found by tests/properties/test_kmeans_family.py)."""
    import warnings

    rng = np.random.default_rng(0)
    X = np.c_[np.full(18, 1e6), np.repeat([0.0, 10.0, 20.0], 6) + rng.normal(scale=0.5,
                                                                                 size=18)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = SoftKernelKMeans(3, n_init=3, random_state=0).fit(X)
    assert model.beta_ > 1e9
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0, rtol=1e-14)
