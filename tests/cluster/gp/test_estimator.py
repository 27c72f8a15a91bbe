"""GPClustering (Kim & Lee 2007), the estimator: the paper's acceptance runs, out-of-sample
prediction and input checks (the solver's steps are tested module by module: test_variance,
test_flow, test_graph, test_solver, ...)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.cluster.hierarchy import is_valid_linkage
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster import GPClustering as GPClustering2
from kernel_patterns.kernels import GPCovariance, Linear

from .gp_data import PAPER, perfect


# ---------------------------------------------------------------- the paper's data sets
def test_rings_are_clustered_perfectly(rings_fit) -> None:
    gp, _, y, *_ = rings_fit
    assert gp.n_clusters_ == 2
    perfect(y, gp.labels_)
    assert GPClustering is GPClustering2


@pytest.mark.parametrize("l", [200.0, 400.0])
def test_two_moons_are_clustered_perfectly(l: float) -> None:
    X, y = datasets.make_two_moons((208, 192), random_state=1)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(GPCovariance(**PAPER, l=l)).fit(X)
    assert gp.n_clusters_ == 2
    perfect(y, gp.labels_)


def test_kernel_none_chooses_a_working_kernel(rings_fit) -> None:
    _, X, y, *_ = rings_fit
    gp = GPClustering().fit(X)
    assert isinstance(gp.kernel_, GPCovariance)
    assert 150 < float(np.min(gp.kernel_.l)) < 450  # a length scale near the paper's 0.05
    perfect(y, gp.labels_)


@pytest.mark.parametrize(("d", "l"), [(5, 31.0), (10, 5.0)])
def test_gaussian_sets_with_five_clusters(d: int, l: float) -> None:
    X, y = datasets.make_gaussians(d, n_per_cluster=40, random_state=1)
    X = datasets.scale_unit_interval(X)
    for kernel in (GPCovariance(**PAPER, l=l), None):
        gp = GPClustering(kernel, n_clusters=5).fit(X)
        assert gp.n_clusters_ == 5
        perfect(y, gp.labels_)


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
        perfect(y, gp.labels_)
    # kernel=None is isotropic and scale-equivariant: the raw data give the same clusters
    raw = GPClustering(n_clusters=5).fit(X)
    perfect(y, raw.labels_)
    assert float(raw.kernel_.l) == pytest.approx(float(gp.kernel_.l) / np.ptp(X, axis=0).max() ** 2)


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


def test_new_points_beyond_float64_are_a_clear_error() -> None:
    """predict, variance and variance_gradient refuse values whose squares overflow, as fit
    does (and values the feature transform carries that far), naming X."""
    X, _ = make_blobs(n_samples=60, centers=2, random_state=0)
    plain = GPClustering(n_clusters=2, random_state=0).fit(X)
    gaussianised = GPClustering(n_clusters=2, random_state=0,
                                feature_transform="yeo-johnson").fit(X)
    for model in (plain, gaussianised):
        for far in (1e200, 1e300):
            for query in (model.predict, model.variance, model.variance_gradient):
                with pytest.raises(ValueError, match=r"X holds values up to .* beyond 1e\+150"):
                    query(np.array([[far, 0.0]]))
        assert model.predict(np.array([[1e100, 0.0]])).shape == (1,)  # far, within reach
    with pytest.raises(ValueError, match=r"feature transform \(feature_transform_\) carries"):
        gaussianised.predict(np.array([[1e149, 0.0]]))


def test_one_equilibrium_gives_one_cluster_and_empty_hierarchy() -> None:
    X = np.random.default_rng(0).uniform(size=(30, 2))
    gp = GPClustering(GPCovariance(**PAPER, l=0.5)).fit(X)
    assert gp.n_clusters_ == 1 and len(gp.equilibria_) == 1
    assert gp.hierarchy_.shape == (0, 4)
    assert (gp.labels_at(n_clusters=1) == 0).all()
    assert (gp.predict(X[:3]) == 0).all()
    high = GPClustering(GPCovariance(**PAPER, l=100.0), level=5.0).fit(X)
    assert high.level_ == 5.0 and high.n_clusters_ == 1


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
