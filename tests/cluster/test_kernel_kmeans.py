"""KernelKMeans: reference tests against scikit-learn KMeans and brute-force eq. 6.3."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from kernel_patterns import KernelKMeans, SoftKernelKMeans
from kernel_patterns.cluster._kernel_kmeans_solver import _hard_distances, _lloyd_kernel_kmeans_runs
from kernel_patterns.cluster._kmeans_base import _best_run
from kernel_patterns.datasets import make_rings
from kernel_patterns.kernels import RBF, Linear, Precomputed, make_operator
from kernel_patterns.metrics import clustering_accuracy, spectral_lower_bound


def _lloyd_kernel_kmeans(op, labels, n_clusters, sample_weight=None, max_iter=300, tol=0.0,
                         diag=None):
    """One run of the lock-step solver (the single-run form the tests call)."""
    lab, inertia, n_iter = _lloyd_kernel_kmeans_runs(
        op, np.asarray(labels)[None, :], n_clusters, sample_weight, max_iter, tol, diag
    )
    return lab[0], float(inertia[0]), int(n_iter[0])


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    X, y = make_blobs(n_samples=300, centers=4, cluster_std=1.5, random_state=0)
    return X, y


def _naive_distances(
    K: np.ndarray, labels: np.ndarray, w: np.ndarray, k: int, n_rows: int | None = None
) -> np.ndarray:
    """Eq. 6.3 term by term, with loops (weighted means), for the first ``n_rows`` points."""
    n = K.shape[0] if n_rows is None else n_rows
    d = np.empty((n, k))
    for c in range(k):
        m = np.flatnonzero(labels == c)
        s = w[m].sum()
        within = sum(w[a] * w[b] * K[a, b] for a in m for b in m) / s**2
        for i in range(n):
            d[i, c] = K[i, i] - 2.0 / s * sum(w[a] * K[i, a] for a in m) + within
    return d


def test_distances_equal_brute_force_eq_6_3() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(25, 2))
    K = RBF(0.7)(X)
    labels = rng.integers(0, 3, 25)
    w = rng.uniform(0.5, 2.0, 25)
    op = make_operator(Precomputed(), K)
    dist, sizes, _ = _hard_distances(op, labels, w, np.diag(K), 3)
    np.testing.assert_allclose(dist, _naive_distances(K, labels, w, 3), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sizes, np.bincount(labels, weights=w))


def test_within_cluster_term_changes_assignments() -> None:
    # One tight and one wide cluster: dropping the within-cluster term (tslearn) assigns the
    # point at 1.1 to the tight cluster; the exact distance sends it to the wide one.
    X = np.array([[0.0], [0.02], [1.0], [2.0], [3.0], [1.1]])
    K = RBF(1.0)(X)
    labels = np.array([0, 0, 1, 1, 1, 0])
    op = make_operator(Precomputed(), K)
    dist, _, _ = _hard_distances(op, labels, np.ones(6), np.diag(K), 2)
    naive = _naive_distances(K, labels, np.ones(6), 2)
    np.testing.assert_allclose(dist, naive, atol=1e-12)
    dropped = -2.0 * np.c_[K[:, labels == 0].mean(1), K[:, labels == 1].mean(1)]
    assert np.argmin(dist[5]) != np.argmin(dropped[5])


def test_linear_kernel_equals_sklearn_kmeans_from_same_labels(blobs) -> None:
    X, _ = blobs
    rng = np.random.default_rng(1)
    for _ in range(3):
        init = rng.integers(0, 4, X.shape[0])
        centers = np.array([X[init == c].mean(0) for c in range(4)])
        ref = KMeans(4, init=centers, n_init=1, tol=0.0, algorithm="lloyd").fit(X)
        km = KernelKMeans(4, kernel="linear", init=init, max_iter=300).fit(X)
        np.testing.assert_array_equal(km.labels_, ref.labels_)
        assert km.inertia_ == pytest.approx(ref.inertia_, rel=1e-9)


def test_linear_kernel_reaches_sklearn_inertia(blobs) -> None:
    X, _ = blobs
    ref = KMeans(4, n_init=10, random_state=0).fit(X)
    km = KernelKMeans(4, kernel=Linear(), n_init=10, random_state=0).fit(X)
    assert km.inertia_ <= ref.inertia_ * 1.001


def test_precomputed_equals_computed_and_predict_train(blobs) -> None:
    X, _ = blobs
    K = RBF(0.05)(X)
    a = KernelKMeans(4, kernel=RBF(0.05), random_state=3).fit(X)
    b = KernelKMeans(4, kernel="precomputed", random_state=3).fit(K)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.inertia_ == pytest.approx(b.inertia_, rel=1e-12)
    np.testing.assert_array_equal(a.predict(X), a.labels_)
    np.testing.assert_array_equal(b.predict(K), b.labels_)
    # inertia_ is eq. 8.12 / Prop. 8.24, computed by brute force, and above Prop. 8.28's bound
    w = np.ones(X.shape[0])
    naive = _naive_distances(K, a.labels_, w, 4, n_rows=60)
    brute = sum(naive[i, a.labels_[i]] for i in range(60))
    d, _, _ = _hard_distances(make_operator(Precomputed(), K), a.labels_, w, np.diag(K), 4)
    assert d[np.arange(60), a.labels_[:60]].sum() == pytest.approx(brute, rel=1e-10)
    assert a.inertia_ >= spectral_lower_bound(K, 4) - 1e-9


def test_chunked_and_float32_operators_agree(blobs) -> None:
    X, _ = blobs
    a = KernelKMeans(4, kernel=RBF(0.05), random_state=0, operator="dense").fit(X)
    b = KernelKMeans(4, kernel=RBF(0.05), random_state=0, operator="chunked").fit(X)
    c = KernelKMeans(4, kernel=RBF(0.05), random_state=0, dtype="float32").fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.inertia_ == pytest.approx(b.inertia_, rel=1e-10)
    assert clustering_accuracy(a.labels_, c.labels_) > 0.99


def test_integer_weights_equal_repeated_points(blobs) -> None:
    X, _ = blobs
    X = X[:80]
    rng = np.random.default_rng(0)
    w = rng.integers(1, 4, 80)
    init = rng.integers(0, 3, 80)
    a = KernelKMeans(3, kernel=RBF(0.1), init=init).fit(X, sample_weight=w)
    rep = np.repeat(np.arange(80), w)
    b = KernelKMeans(3, kernel=RBF(0.1), init=init[rep]).fit(X[rep])
    np.testing.assert_array_equal(a.labels_[rep], b.labels_)
    assert a.inertia_ == pytest.approx(b.inertia_, rel=1e-10)


@pytest.mark.parametrize("c", [1e-300, 1e200, 3.0])
def test_weights_count_only_relative_to_each_other(c) -> None:
    # equal weights of any size are the fit of no weights (they over- or underflowed in the
    # distances: an IndexError on NaN inertias, or other labels and numpy's RuntimeWarnings);
    # the inertia is in the units of the weights given
    X = np.random.default_rng(0).normal(size=(40, 3))
    w = np.full(40, c)
    ref = KernelKMeans(3, random_state=0).fit(X)
    fit = KernelKMeans(3, random_state=0).fit(X, sample_weight=w)
    np.testing.assert_array_equal(fit.labels_, ref.labels_)
    assert fit.inertia_ == pytest.approx(c * ref.inertia_, rel=1e-12)
    assert (w == c).all()  # the caller's weights are left as they were


def test_values_whose_squares_overflow_are_named() -> None:
    X = np.random.default_rng(0).normal(size=(40, 3))
    with pytest.raises(ValueError, match=r"X holds values up to .*e\+200 .*Rescale X"):
        KernelKMeans(2).fit(X * 1e200)
    with pytest.raises(ValueError, match=r"X holds values up to 1e\+300"):  # before the
        KernelKMeans(2, feature_transform="yeo-johnson").fit(np.r_[X, [[1e300, 0, 0]]])
    assert KernelKMeans(2, random_state=0).fit(X * 1e140).labels_.shape == (40,)


def test_the_best_run_skips_nan_objectives_and_says_when_all_are() -> None:
    assert _best_run([np.nan, 2.0, 1.0, np.inf]) == 2
    with pytest.raises(ValueError, match="every restart's objective is NaN or infinite"):
        _best_run([np.nan, np.nan])


@pytest.mark.parametrize("init", ["random", "kmeans", "n-k+1", "k-means++"])
def test_initialisations(blobs, init: str) -> None:
    X, y = blobs
    km = KernelKMeans(4, kernel=RBF(0.05), init=init, n_init=3, random_state=0).fit(X)
    assert set(np.unique(km.labels_)) == {0, 1, 2, 3}
    assert clustering_accuracy(y, km.labels_) > 0.8
    assert km.n_iter_ >= 1


def test_n_init_keeps_lowest_inertia(blobs) -> None:
    X, _ = blobs
    # the first of the n_init runs starts from the same labels as the single run
    single = KernelKMeans(4, kernel=RBF(0.05), init="random", n_init=1, random_state=0).fit(X)
    best = KernelKMeans(4, kernel=RBF(0.05), init="random", n_init=6, random_state=0).fit(X)
    assert best.inertia_ <= single.inertia_ + 1e-9
    d, _, _ = _hard_distances(
        make_operator(RBF(0.05), X), best.labels_, np.ones(len(X)), np.ones(len(X)), 4
    )
    assert best.inertia_ == pytest.approx(d[np.arange(len(X)), best.labels_].sum(), rel=1e-10)


def test_all_but_k_init_counts_and_rings() -> None:
    from kernel_patterns.cluster._kmeans_init import _init_all_but_k

    lab = _init_all_but_k(50, 4, np.random.default_rng(0))
    assert np.bincount(lab).tolist() == [47, 1, 1, 1]
    X, y = make_rings(radii=(0.3, 2.0), random_state=0)
    km = KernelKMeans(2, kernel=RBF(1.0), init="n-k+1", n_init=5, random_state=0).fit(X)
    assert clustering_accuracy(y, km.labels_) == 1.0


def test_empty_cluster_is_reseeded() -> None:
    X, _ = make_blobs(n_samples=60, centers=3, random_state=0)
    init = np.zeros(60, dtype=int)
    init[0] = 1  # cluster 2 starts empty
    km = KernelKMeans(3, kernel=RBF(0.1), init=init).fit(X)
    assert np.bincount(km.labels_, minlength=3).min() > 0
    op = make_operator(RBF(0.1), X)
    lab, inertia, _ = _lloyd_kernel_kmeans(op, init, 3)
    assert np.bincount(lab, minlength=3).min() > 0
    assert np.isfinite(inertia)


@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("init", ["k-means++", "random", "n-k+1"])
def test_duplicates_are_never_split_to_fill_a_cluster(approximation, dtype, init) -> None:
    # 3 distinct points, 10 copies each, 5 clusters: re-seeding the 2 spare clusters with
    # copies would split identical points (the old rule: all 5 clusters held a point); the
    # random and N − K + 1 starts deal copies to several clusters, which are joined
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(size=(3, 2)), 10, axis=0)
    with pytest.warns(ConvergenceWarning, match=r"only 3 of the n_clusters=5 clusters hold a "
                      r"point.*Number of distinct clusters \(3\).*duplicate points"):
        km = KernelKMeans(5, approximation=approximation, n_landmarks=20, dtype=dtype,
                          init=init, random_state=0).fit(X)
    assert sorted(np.unique(km.labels_)) == [0, 1, 2]  # no gaps
    for group in range(3):  # every point with its copies
        assert np.unique(km.labels_[10 * group : 10 * group + 10]).size == 1
    np.testing.assert_array_equal(km.predict(X), km.labels_)
    new = rng.normal(size=(20, 2))
    assert km.predict(new).max() <= 2  # the empty clusters have no centroid
    D = km.transform(new)
    assert D.shape == (20, 5) and np.isinf(D[:, 3:]).all() and np.isfinite(D[:, :3]).all()


@pytest.mark.parametrize("init", ["k-means++", "random", "n-k+1"])
def test_identical_points_are_one_cluster_from_every_start(init) -> None:
    with pytest.warns(ConvergenceWarning, match=r"only 1 of the n_clusters=2 clusters hold a "
                      r"point.*Number of distinct clusters \(1\)"):
        km = KernelKMeans(2, init=init, random_state=0).fit(np.ones((20, 2)))
    np.testing.assert_array_equal(km.labels_, 0)


@pytest.mark.parametrize("init", ["random", "n-k+1"])
def test_copies_split_over_one_centroid_free_a_cluster_for_the_rest(init) -> None:
    # as many distinct points as clusters: a start that splits one point's copies over two
    # clusters (and puts two points in a third) ends with each point its own cluster
    X = np.repeat(np.random.default_rng(0).normal(size=(3, 2)) * 5, 10, axis=0)
    for seed in range(10):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            km = KernelKMeans(3, init=init, n_init=1, random_state=seed).fit(X)
        assert clustering_accuracy(np.repeat([0, 1, 2], 10), km.labels_) == 1.0


def test_input_not_modified(blobs) -> None:
    X, _ = blobs
    X0 = X.copy()
    K = RBF(0.05)(X)
    K0 = K.copy()
    KernelKMeans(4, kernel="rbf", kernel_params={"gamma": 0.05}, random_state=0).fit(X)
    KernelKMeans(4, kernel="precomputed", random_state=0).fit(K)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(K, K0)


def test_spectral_lower_bound_reference() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(700, 3))
    op = make_operator(RBF(0.3), X)
    K = op.to_dense()
    ev = np.linalg.eigvalsh(K)
    assert spectral_lower_bound(op, 5) == pytest.approx(ev[:-5].sum(), rel=1e-8)
    assert spectral_lower_bound(K[:100, :100], 3) == pytest.approx(
        np.linalg.eigvalsh(K[:100, :100])[:-3].sum(), rel=1e-10
    )
    km = KernelKMeans(5, kernel=RBF(0.3), n_init=2, random_state=0).fit(X)
    assert km.inertia_ >= spectral_lower_bound(op, 5)
    with pytest.raises(ValueError, match="n_clusters"):
        spectral_lower_bound(K[:5, :5], 6)
    with pytest.raises(ValueError, match="square"):
        spectral_lower_bound(K[:5, :4], 2)


@pytest.mark.parametrize(
    ("X", "match"),
    [
        (np.array([[0.0, np.nan], [1.0, 2.0], [3.0, 4.0]]), "NaN"),
        (np.array([[0.0, np.inf], [1.0, 2.0], [3.0, 4.0]]), "infinity"),
        (np.empty((0, 2)), "0 sample"),
        (np.array([[1.0, 2.0]]), "n_samples=1 should be >= n_clusters=2"),
        (np.ones(4), "2D array"),
    ],
)
def test_bad_input(X: np.ndarray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        KernelKMeans(2).fit(X)


def test_bad_params_and_kernels() -> None:
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="n_samples=10 should be >= n_clusters=11"):
        KernelKMeans(11).fit(X)
    with pytest.raises(InvalidParameterError, match="n_clusters"):
        KernelKMeans(0).fit(X)
    with pytest.raises(InvalidParameterError, match="init"):
        KernelKMeans(2, init="bogus").fit(X)
    with pytest.raises(ValueError, match="square"):
        KernelKMeans(2, kernel="precomputed").fit(X)
    with pytest.raises(ValueError, match="positive semidefinite"):
        KernelKMeans(2, kernel="precomputed").fit(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="input space"):
        KernelKMeans(2, kernel="precomputed", init="kmeans").fit(RBF()(X))
    with pytest.raises(ValueError, match="one initial label per sample"):
        KernelKMeans(2, init=np.zeros(3, dtype=int)).fit(X)
    with pytest.raises(ValueError, match=r"\[0, n_clusters\)"):
        KernelKMeans(2, init=np.full(10, 5)).fit(X)
    with pytest.raises(ValueError, match="unknown kernel"):
        KernelKMeans(2, kernel="nope").fit(X)
    km = KernelKMeans(2, kernel="precomputed", random_state=0).fit(RBF()(X))
    with pytest.raises(ValueError, match="expecting 10 features"):
        km.predict(np.ones((3, 4)))
    with pytest.warns(RuntimeWarning, match="Explicit initial labels passed: performing only "
                      "one init in KernelKMeans instead of n_init=3"):
        KernelKMeans(2, init=np.arange(10) % 2, n_init=3).fit(X)


def test_no_convergence_at_max_iter_is_a_convergence_warning() -> None:
    from sklearn.exceptions import ConvergenceWarning

    from kernel_patterns.datasets import make_two_moons

    X, _ = make_two_moons(random_state=0)
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter=1 .*raise max_iter"):
        KernelKMeans(2, init="random", n_init=1, max_iter=1, random_state=0).fit(X)


@pytest.mark.parametrize("stop", [{"max_iter": 1}, {"max_iter": 2}, {"tol": 0.2}])
@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_labels_are_the_assignment_to_the_final_centroids(stop, approximation):
    # issue 18, bug 3: a run stopped early returned labels_ one step behind its centroids
    # (17 of 200 points differed from predict(X_train) with max_iter=2)
    X, _ = make_blobs(n_samples=200, centers=5, cluster_std=3.0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        km = KernelKMeans(5, kernel="rbf", init="random", n_init=1, random_state=0,
                          approximation=approximation, n_landmarks=60, **stop).fit(X)
    np.testing.assert_array_equal(km.labels_, km.predict(X))
    if approximation == "nystrom":
        return  # its inertia_ is that of the approximate kernel, whose diagonal is not k(x, x)
    # inertia_ is eq. 8.12 of those labels against those centroids
    d = km._centroid_scores(X) + km.kernel_.diag(X)[:, None]
    np.testing.assert_allclose(km.inertia_, d[np.arange(200), km.labels_].sum(), rtol=1e-8)


@pytest.mark.parametrize("method", ["predict", "transform", "score"])
def test_failed_fit_leaves_the_model_unfitted(method):
    """Found by tslearn's tests (tests/peers/test_tslearn_clustering.py): after a fit refused
    for too many clusters, new points got an AttributeError instead of NotFittedError."""
    from sklearn.exceptions import NotFittedError

    X = np.random.default_rng(0).normal(size=(15, 4))
    km = KernelKMeans(101)
    with pytest.raises(ValueError, match="n_clusters=101"):
        km.fit(X)
    with pytest.raises(NotFittedError):
        getattr(km, method)(X)


def test_transform_is_exactly_zero_on_a_centroid_and_exact_off_it() -> None:
    X, _ = make_blobs(n_samples=90, centers=3, random_state=0)
    km = KernelKMeans(3, kernel=Linear(), random_state=0).fit(X)
    centres = np.array([X[km.labels_ == j].mean(axis=0) for j in range(3)])
    D = km.transform(centres)
    np.testing.assert_array_equal(np.diagonal(D), 0.0)  # was sqrt(round-off), ~1e-7
    off = centres + np.array([1e-4, 0.0])  # a real distance this small is kept
    np.testing.assert_allclose(np.diagonal(km.transform(off)), 1e-4, rtol=1e-3)
    np.testing.assert_allclose(D, np.linalg.norm(centres[:, None] - centres[None], axis=2))
    # precomputed: a point alone in its cluster is at distance 0 from it
    Xs = np.r_[X, [[50.0, 50.0]]]
    K = Linear()(Xs)
    pre = KernelKMeans(4, kernel="precomputed", random_state=0)
    Dp = pre.fit_transform(K)
    assert Dp[-1, pre.labels_[-1]] == 0.0 and np.sum(pre.labels_ == pre.labels_[-1]) == 1


@pytest.mark.parametrize("max_iter", [1, 2, 3, 300])
def test_max_iter_and_n_iter_count_as_kmeans_does(max_iter: int) -> None:
    # the assignment of init is iteration 1: max_iter=m stops where KMeans(max_iter=m) does
    X, _ = make_blobs(n_samples=200, centers=4, cluster_std=2.5, random_state=3)
    C = X[:4].copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = KernelKMeans(4, kernel=Linear(), init=lambda X, k, rs: C, n_init=1,
                            max_iter=max_iter).fit(X)
        sk = KMeans(4, init=C, n_init=1, max_iter=max_iter, tol=0.0).fit(X)
    np.testing.assert_array_equal(ours.labels_, sk.labels_)
    assert ours.n_iter_ == sk.n_iter_
    assert ours.inertia_ == pytest.approx(sk.inertia_, rel=1e-9)


def test_converging_at_exactly_max_iter_is_no_warning() -> None:
    X, _ = make_blobs(n_samples=200, centers=4, cluster_std=2.5, random_state=3)
    t = KernelKMeans(4, n_init=1, random_state=0).fit(X).n_iter_
    assert t >= 3
    # at t - 1 the labels are the fixed point already (the t-th iteration only confirms it):
    # the reassignment that follows the last iteration finds no point moving, no warning
    for m in (t, t - 1):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            assert KernelKMeans(4, n_init=1, max_iter=m, random_state=0).fit(X).n_iter_ == m
    with pytest.warns(ConvergenceWarning, match=f"did not converge in max_iter={t - 2}"):
        KernelKMeans(4, n_init=1, max_iter=t - 2, random_state=0).fit(X)


def test_init_as_an_array_of_centres_as_kmeans_takes_it() -> None:
    X, _ = make_blobs(n_samples=150, centers=3, cluster_std=2.0, random_state=1)
    C = X[[0, 50, 100]] + 0.5
    ours = KernelKMeans(3, kernel=Linear(), init=C).fit(X)
    sk = KMeans(3, init=C, n_init=1, tol=0.0).fit(X)
    np.testing.assert_array_equal(ours.labels_, sk.labels_)
    assert ours.n_iter_ == sk.n_iter_ and ours.inertia_ == pytest.approx(sk.inertia_)
    # centres are in the units of X: with heavy-tailed features Gaussianised
    # (feature_transform), they are transformed as X is
    Z = np.exp(X / 4.0)
    with warnings.catch_warnings():  # one iteration: the initial labels are compared
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = KernelKMeans(3, init=Z[[0, 50, 100]], max_iter=1).fit(Z)
        assert fitted.feature_transform_ is not None
        Ct = fitted.feature_transform_.transform(Z[[0, 50, 100]])
        same = KernelKMeans(3, init=lambda Xt, k, rs: Ct, n_init=1, max_iter=1).fit(Z)
    np.testing.assert_array_equal(fitted.labels_, same.labels_)
    soft = SoftKernelKMeans(3, init=C, random_state=0).fit(X)
    assert soft.labels_.shape == (150,)
    with pytest.raises(ValueError, match=r"init as centres must be a numeric array of shape "
                                         r"\(n_clusters, n_features\) = \(3, 2\); got shape "
                                         r"\(2, 2\)"):
        KernelKMeans(3, init=C[:2]).fit(X)
    bad = C.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"init contains NaN \(1 value\)"):
        KernelKMeans(3, init=bad).fit(X)
    with pytest.raises(ValueError, match=r"the centres init returned contains NaN"):
        KernelKMeans(3, init=lambda X, k, rs: bad).fit(X)
    with pytest.raises(ValueError, match=r"got shape \(3, 2\) and dtype <U1"):
        KernelKMeans(3, init=np.full((3, 2), "a")).fit(X)
    with pytest.raises(ValueError, match=r"init as centres .* kernel='precomputed'"):
        KernelKMeans(3, kernel="precomputed", init=C).fit(Linear()(X))
