"""GPClustering (Kim & Lee 2007): reference tests of the solvers and the paper's acceptance runs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.cluster.hierarchy import is_valid_linkage, linkage
from scipy.spatial.distance import squareform
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets, metrics
from kernel_patterns.cluster import GPClustering as GPClustering2
from kernel_patterns.cluster.gp import default_kernel
from kernel_patterns.cluster.gp._cuts import components_at
from kernel_patterns.cluster.gp._graph import candidate_pairs, segment_levels, single_linkage
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import RBF, GPCovariance, Linear, Polynomial

PAPER = {"v0": 1.0, "v1": 10.0, "v2": 1.0}


def _rings(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rings scaled to [0, 1], and a fresh sample with the same affine map."""
    X, y = datasets.make_rings(random_state=seed)
    Xn, yn = datasets.make_rings(random_state=seed + 100)
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    return (X - lo) / span, y, (Xn - lo) / span, yn


@pytest.fixture(scope="module")
def rings_fit() -> tuple[GPClustering, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X, y, Xn, yn = _rings()
    gp = GPClustering(GPCovariance(**PAPER, l=400)).fit(X)
    return gp, X, y, Xn, yn


def _perfect(y: np.ndarray, labels: np.ndarray) -> None:
    assert metrics.reference_error(y, labels) == 0.0
    assert metrics.cluster_error(y, labels) == 0.0
    assert metrics.f_score(y, labels) == 1.0


# ---------------------------------------------------------------- variance model (eq. 3.1)
@pytest.mark.parametrize(
    "kernel",
    [GPCovariance(v0=1.0, v1=10.0, v2=0.5, l=[30.0, 10.0, 50.0]), RBF(gamma=2.0),
     Polynomial(degree=2, gamma=1.0, coef0=1.0)],
)
def test_variance_and_gradient_match_brute_force(kernel) -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(8, 3))
    Q = rng.uniform(size=(5, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the polynomial matrix may need jitter
        model = fit_variance_model(kernel, X)
    C = kernel(X) + model.jitter * np.eye(8)
    k = kernel(Q, X)
    kappa = np.array([kernel(q[None, :])[0, 0] for q in Q])
    brute = kappa - np.einsum("ij,ji->i", k, np.linalg.inv(C) @ k.T)
    assert np.allclose(model.variance(Q), np.maximum(brute, 0.0), rtol=1e-6, atol=1e-9)
    # closed-form gradient (errata 2) against central finite differences
    f, g = model.value_and_gradient(Q)
    h = 1e-6
    fd = np.empty_like(Q)
    for m in range(3):
        E = np.zeros_like(Q)
        E[:, m] = h
        fd[:, m] = (model.variance(Q + E) - model.variance(Q - E)) / (2 * h)
    assert np.allclose(g, fd, rtol=1e-4, atol=1e-6)
    assert np.allclose(f, model.variance(Q))


def test_variance_is_small_on_dense_data_and_clipped(rings_fit) -> None:
    gp, X, *_ = rings_fit
    far = np.array([[5.0, 5.0]])
    assert gp.variance(far)[0] > gp.level_
    assert (gp.variance(X) >= 0).all()
    assert gp.variance(X).max() == pytest.approx(gp.max_variance_)
    assert gp.variance_gradient(X).shape == X.shape


def test_jitter_warning_on_duplicates_without_noise() -> None:
    X = np.repeat(np.random.default_rng(0).uniform(size=(10, 2)), 2, axis=0)
    with pytest.warns(UserWarning, match="jitter"):
        gp = GPClustering(GPCovariance(v0=1.0, v1=0.0, v2=0.0, l=50.0)).fit(X)
    assert gp.labels_.shape == (20,)


# ---------------------------------------------------------------- flow, SEPs, graph
def test_equilibria_are_local_minima_below_level(rings_fit) -> None:
    gp, _X, *_ = rings_fit
    S = gp.equilibria_
    v = gp.variance(S)
    assert (v <= gp.level_).all()
    ell = 1 / np.sqrt(400)
    rng = np.random.default_rng(1)
    for _ in range(4):  # no nearby point is much lower: a minimum up to the tolerance
        P = S + 0.05 * ell * rng.normal(size=S.shape)
        assert (gp.variance(P) >= v - 1e-5 * gp.level_).all()
    # every training point reached one of them
    assert gp.basins_.min() == 0 and gp.basins_.max() == len(S) - 1


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


# ---------------------------------------------------------------- the paper's data sets
def test_rings_are_clustered_perfectly(rings_fit) -> None:
    gp, _, y, *_ = rings_fit
    assert gp.n_clusters_ == 2
    _perfect(y, gp.labels_)
    assert GPClustering is GPClustering2


@pytest.mark.parametrize("l", [200.0, 400.0])
def test_two_moons_are_clustered_perfectly(l: float) -> None:
    X, y = datasets.make_two_moons((208, 192), random_state=1)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(GPCovariance(**PAPER, l=l)).fit(X)
    assert gp.n_clusters_ == 2
    _perfect(y, gp.labels_)


def test_kernel_none_chooses_a_working_kernel(rings_fit) -> None:
    _, X, y, *_ = rings_fit
    gp = GPClustering().fit(X)
    assert isinstance(gp.kernel_, GPCovariance)
    assert 150 < float(np.min(gp.kernel_.l)) < 450  # a length scale near the paper's 0.05
    _perfect(y, gp.labels_)


@pytest.mark.parametrize(("d", "l"), [(5, 31.0), (10, 5.0)])
def test_gaussian_sets_with_five_clusters(d: int, l: float) -> None:
    X, y = datasets.make_gaussians(d, n_per_cluster=40, random_state=1)
    X = datasets.scale_unit_interval(X)
    for kernel in (GPCovariance(**PAPER, l=l), None):
        gp = GPClustering(kernel, n_clusters=5).fit(X)
        assert gp.n_clusters_ == 5
        _perfect(y, gp.labels_)


def _common_scale(X: np.ndarray) -> np.ndarray:
    """Shift to the origin and divide by the largest feature range: one factor, shape kept."""
    return (X - X.min(axis=0)) / np.ptp(X, axis=0).max()


@pytest.mark.parametrize("n_per_cluster", [40, 100])
def test_twenty_dim_gaussians_with_five_clusters(n_per_cluster: int) -> None:
    X, y = datasets.make_gaussians(20, n_per_cluster=n_per_cluster, random_state=1)
    Xc = _common_scale(X)
    for kernel in (GPCovariance(**PAPER, l=2.0), None):
        gp = GPClustering(kernel, n_clusters=5).fit(Xc)
        assert gp.n_clusters_ == 5
        _perfect(y, gp.labels_)
    # kernel=None is isotropic and scale-equivariant: the raw data give the same clusters
    raw = GPClustering(n_clusters=5).fit(X)
    _perfect(y, raw.labels_)
    assert float(raw.kernel_.l) == pytest.approx(float(gp.kernel_.l) / np.ptp(X, axis=0).max() ** 2)


def test_kernel_none_shrinks_the_length_scale_until_n_clusters_basins() -> None:
    # 20-D, 40 per cluster, every feature scaled to [0, 1]: the data-driven length scale gives
    # only 2 basins; the search shrinks it (ℓ₀/√2) to 5 basins instead of failing.
    X, y = datasets.make_gaussians(20, n_per_cluster=40, random_state=1)
    X = datasets.scale_unit_interval(X)
    ell0 = float(default_kernel(X).l) ** -0.5
    one = GPClustering(default_kernel(X)).fit(X)
    assert len(one.equilibria_) < 5
    gp = GPClustering(n_clusters=5).fit(X)
    assert gp.n_clusters_ == 5 and len(gp.equilibria_) >= 5
    assert float(gp.kernel_.l) ** -0.5 == pytest.approx(ell0 / np.sqrt(2))
    # the per-feature scaling inflates the 15 noise features: good, not perfect (docstring)
    assert adjusted_rand_score(y, gp.labels_) > 0.7
    # no length scale can give more basins than points: a clear error, before any fit
    with pytest.raises(ValueError, match="more than the 200 samples"):
        GPClustering(n_clusters=201).fit(X)
    # 20 per cluster: ℓ₀/2 gives too many basins, one bisection step back (ℓ₀/2^0.75) gives 5
    X20, _ = datasets.make_gaussians(20, n_per_cluster=20, random_state=3)
    X20 = datasets.scale_unit_interval(X20)
    ell0 = float(default_kernel(X20).l) ** -0.5
    assert len(GPClustering(default_kernel(X20, 0.5)).fit(X20).equilibria_) > 5
    gp = GPClustering(n_clusters=5).fit(X20)
    assert float(gp.kernel_.l) ** -0.5 == pytest.approx(ell0 * 2 ** -0.75)
    assert len(gp.equilibria_) == 5
    three = np.repeat([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]], 10, axis=0)  # at most 3 SEPs
    with pytest.warns(UserWarning, match=r"found 3 cluster\(s\).*fewer than n_clusters=4"):
        gp = GPClustering(n_clusters=4).fit(three)
    assert gp.n_clusters_ == 3
    assert GPClustering(n_clusters=3).fit(three).n_clusters_ == 3


def test_n_clusters_counts_clusters_not_outlier_basins() -> None:
    # issue 18, bug 5: the plain top cut of the saddle hierarchy split off a chain end or an
    # outlier (399 + 1 points, ARI 0.00) where k-means given k = 2 is right
    X, y = make_blobs(400, centers=[[0, 0], [3, 0]], cluster_std=1.0, random_state=0)
    gp = GPClustering(n_clusters=2, random_state=0).fit(X)
    assert gp.n_clusters_ == 2
    assert np.bincount(gp.labels_[gp.labels_ >= 0]).min() > 150
    assert adjusted_rand_score(y, gp.labels_) > 0.5
    rng = np.random.default_rng(0)
    R, yr = datasets.make_rings(random_state=0)
    R = R + rng.normal(scale=0.08, size=R.shape)
    assert adjusted_rand_score(yr, GPClustering(n_clusters=2).fit(R).labels_) == 1.0
    # a fixed kernel whose landscape has too few basins warns and returns what it has
    two = np.r_[np.repeat([[0.0, 0.0], [10.0, 0.0]], 10, axis=0), [[0.0, 20.0], [20.0, 20.0]]]
    with pytest.warns(UserWarning, match="found 2 cluster.*fewer than n_clusters=3"):
        few = GPClustering(GPCovariance(**PAPER, l=1.0), n_clusters=3).fit(two)
    assert few.n_clusters_ == 2


def test_crabs_hierarchy_one_to_four_clusters() -> None:
    crabs = datasets.load_crabs()
    Z = PCA(n_components=3).fit_transform(np.log(np.asarray(crabs.data, dtype=float)))
    X = datasets.scale_unit_interval(Z[:, 1:3])
    gp = GPClustering(GPCovariance(**PAPER, l=20.0)).fit(X)
    assert len(gp.equilibria_) == 4  # four basins, as in the paper's Figure 6
    H = gp.hierarchy_
    assert is_valid_linkage(H)
    assert (np.diff(H[:, 2]) >= 0).all()
    previous = None
    for k in range(1, 5):
        lab = gp.labels_at(n_clusters=k)
        assert np.unique(lab).size == k
        if previous is not None:  # nested: each new cluster lies inside an old one
            for c in np.unique(lab):
                assert np.unique(previous[lab == c]).size == 1
        previous = lab
    assert adjusted_rand_score(crabs.target, previous) >= 0.8
    gp4 = GPClustering(GPCovariance(**PAPER, l=20.0), n_clusters=4).fit(X)
    assert np.array_equal(gp4.labels_, previous)
    # levels: more clusters below, fewer above (errata 3)
    heights = np.sort(H[:, 2])
    assert np.unique(gp.labels_at(level=heights[0] * (1 - 1e-9))).size == 4
    assert np.unique(gp.labels_at(level=heights[-1])).size == 1


# ---------------------------------------------------------------- out of sample
def test_predict_fresh_sample_and_training_points(rings_fit) -> None:
    gp, X, _, Xn, yn = rings_fit
    assert np.mean(gp.predict(X) == gp.labels_) >= 0.99
    assert adjusted_rand_score(yn, gp.predict(Xn)) >= 0.95
    # far away points still get a label of a known cluster
    far = gp.predict(np.array([[3.0, 3.0], [-2.0, 0.5]]))
    assert set(far) <= set(gp.labels_)
    # each point's label does not depend on the rest of the batch
    assert np.array_equal(gp.predict(Xn[:7]), gp.predict(Xn)[:7])


def test_fit_predict_and_input_unchanged() -> None:
    X, _ = datasets.make_two_moons((52, 48), random_state=0)
    X = datasets.scale_unit_interval(X)
    X0 = X.copy()
    gp = GPClustering(GPCovariance(**PAPER, l=200))
    lab = gp.fit_predict(X)
    assert np.array_equal(X, X0)
    assert np.array_equal(lab, gp.labels_)
    assert lab.dtype.kind == "i" and lab.min() >= -1
    kept = np.unique(lab[lab >= 0])
    assert np.array_equal(kept, np.arange(gp.n_clusters_))  # 0..k-1, no gaps; -1 = noise


# ---------------------------------------------------------------- bad input
def test_bad_input_errors() -> None:
    gp = GPClustering(GPCovariance(**PAPER, l=100))
    good = np.random.default_rng(0).uniform(size=(30, 2))
    for bad, match in [
        (np.array([[0.0, np.nan], [1.0, 2.0]]), "NaN"),
        (np.array([[0.0, np.inf], [1.0, 2.0]]), "inf"),
        (np.empty((0, 2)), "0 sample"),
        (np.array([1.0, 2.0, 3.0]), "2D array"),
        (np.array([[1.0, 2.0]]), "1 sample"),
    ]:
        with pytest.raises(ValueError, match=match):
            gp.fit(bad)
    with pytest.raises(ValueError, match="level"):
        GPClustering(level=0.0).fit(good)
    with pytest.raises(ValueError, match="level"):
        GPClustering(level=-1.0).fit(good)
    with pytest.raises(ValueError, match="n_clusters"):
        GPClustering(n_clusters=0).fit(good)
    with pytest.raises(ValueError, match="not both"):
        GPClustering(level=1.0, n_clusters=2).fit(good)
    with pytest.raises(ValueError, match="more than the"):
        GPClustering(GPCovariance(**PAPER, l=1.0), n_clusters=25).fit(good)
    with pytest.raises(ValueError, match="precomputed"):
        GPClustering("precomputed").fit(good)
    with pytest.raises(ValueError, match="differentiable"):
        GPClustering(lambda a, b: a @ b.T).fit(good)

    class NotPD(GPCovariance):
        def _profile(self, sq):  # type: ignore[no-untyped-def]
            return 0.5 - 2.0 * super()._profile(sq)  # indefinite: mean-zero-ish entries

    with pytest.raises(ValueError, match="not positive definite"):
        GPClustering(NotPD(**PAPER, l=100)).fit(good)
    fitted = GPClustering(GPCovariance(**PAPER, l=100)).fit(good)
    with pytest.raises(ValueError, match="exactly one"):
        fitted.labels_at()
    with pytest.raises(ValueError, match="level"):
        fitted.labels_at(level=0.0)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(np.ones((2, 3)))
    assert Linear  # the linear kernel has no minima; not a GP clustering kernel


def test_one_equilibrium_gives_one_cluster_and_empty_hierarchy() -> None:
    X = np.random.default_rng(0).uniform(size=(30, 2))
    gp = GPClustering(GPCovariance(**PAPER, l=0.5)).fit(X)
    assert gp.n_clusters_ == 1 and len(gp.equilibria_) == 1
    assert gp.hierarchy_.shape == (0, 4)
    assert (gp.labels_at(n_clusters=1) == 0).all()
    assert (gp.predict(X[:3]) == 0).all()
    high = GPClustering(GPCovariance(**PAPER, l=100.0), level=5.0).fit(X)
    assert high.level_ == 5.0 and high.n_clusters_ == 1


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
    X, y, *_ = _rings()
    gp = GPClustering(GPCovariance(**PAPER, l=400)).fit(X)
    assert is_valid_linkage(gp.hierarchy_)
    _perfect(y, gp.labels_)


def test_sparse_input_is_refused_with_the_cost_of_densifying() -> None:
    from scipy import sparse

    X, _ = make_blobs(n_samples=60, n_features=4, centers=2, random_state=0)
    S = sparse.csr_matrix(X)
    with pytest.raises(TypeError, match=r"GPClustering needs dense coordinates .* sparse "
                                        r"60 x 4 matrix, 0.00192 MB as a dense array"):
        GPClustering().fit(S)
    model = GPClustering(random_state=0).fit(X)
    with pytest.raises(TypeError, match="TruncatedSVD"):
        model.predict(S)
    assert GPClustering().__sklearn_tags__().input_tags.sparse is False
