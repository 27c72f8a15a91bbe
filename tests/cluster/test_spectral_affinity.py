"""The k-nearest-neighbour affinity (the default of SpectralClustering) and the eigensolvers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from sklearn.cluster import SpectralClustering as SkSpectralClustering
from sklearn.datasets import load_digits, make_blobs
from sklearn.metrics import adjusted_rand_score, pairwise_distances
from sklearn.neighbors import kneighbors_graph
from sklearn.preprocessing import StandardScaler

from kernel_patterns import SpectralClustering
from kernel_patterns.datasets import make_rings


@pytest.fixture(scope="module")
def blobs():
    return make_blobs(300, n_features=5, centers=3, cluster_std=1.5, random_state=0)


def test_knn_affinity_is_scikit_learns(blobs):
    X, _ = blobs
    ours = SpectralClustering(3, random_state=0).fit(X)
    sk = SkSpectralClustering(3, affinity="nearest_neighbors", random_state=0).fit(X)
    A = sparse.csr_array(ours.affinity_matrix_)
    B = sparse.csr_array(sk.affinity_matrix_)
    assert abs(A - B).max() == 0
    assert ours.kernel_ == "nearest_neighbors" and ours.n_neighbors_ == 10
    assert adjusted_rand_score(sk.labels_, ours.labels_) == 1.0


def test_default_separates_rings_and_predicts_training_points(blobs):
    X, y = make_rings(random_state=0)
    sc = SpectralClustering(2, random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) == 1.0
    assert np.mean(sc.predict(X) == sc.labels_) > 0.97


def test_default_survives_high_dimensional_outliers():
    # a single global RBF width isolates outliers of standardised digits (ARI 0.00 before)
    X, y = load_digits(return_X_y=True)
    X = StandardScaler().fit_transform(X[:800])
    sc = SpectralClustering(10, random_state=0).fit(X)
    assert adjusted_rand_score(y[:800], sc.labels_) > 0.5
    assert np.bincount(sc.labels_).min() > 20


def test_precomputed_distances_give_the_same_clusters(blobs):
    X, _ = blobs
    D = pairwise_distances(X)
    a = SpectralClustering(3, random_state=0).fit(X)
    b = SpectralClustering(3, kernel="precomputed_nearest_neighbors", random_state=0).fit(D)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(b.predict(D[:20]), a.predict(X[:20]))
    G = kneighbors_graph(X, 15, mode="distance")  # a sparse distance graph, no diagonal
    c = SpectralClustering(3, kernel="precomputed_nearest_neighbors", random_state=0).fit(G)
    assert adjusted_rand_score(a.labels_, c.labels_) > 0.9
    with pytest.raises(ValueError, match="n_neighbors=10: 10 neighbors per samples"):
        SpectralClustering(3, kernel="precomputed_nearest_neighbors").fit(
            kneighbors_graph(X, 5, mode="distance"))


def test_n_neighbors_is_capped_and_a_fragmented_graph_warns():
    X = np.r_[np.zeros((4, 2)), np.ones((4, 2)) * 10, np.ones((4, 2)) * 20]
    X = X + np.random.default_rng(0).normal(scale=0.01, size=X.shape)
    sc = SpectralClustering(3, n_neighbors=50, random_state=0).fit(X)
    assert sc.n_neighbors_ == 12
    with pytest.warns(UserWarning, match="Raise n_neighbors"):
        SpectralClustering(2, n_neighbors=3, random_state=0).fit(X)


@pytest.mark.parametrize(
    ("params", "X", "match"),
    [
        ({"kernel_params": {"gamma": 1.0}}, np.eye(5), "pass kernel='rbf'"),
        ({"approximation": "nystrom"}, np.eye(5), "approximation='exact'"),
        ({"kernel": "precomputed_nearest_neighbors"}, np.ones((3, 4)), "square matrix"),
        ({"kernel": "precomputed_nearest_neighbors"}, -np.ones((4, 4)), "non-negative"),
        ({}, np.array([[0.0, np.nan], [1.0, 2.0], [3.0, 4.0]]), "NaN"),
    ],
)
def test_knn_bad_input(params, X, match):
    with pytest.raises(ValueError, match=match):
        SpectralClustering(2, **params).fit(X)


@pytest.mark.parametrize("eigen_solver", ["arpack", "lobpcg", "dense"])
def test_eigen_solvers_agree(eigen_solver):
    X, y = make_rings(n_samples=(350, 350), random_state=0)  # > 600 points: not dense by default
    auto = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
                              random_state=0).fit(X)
    other = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
                               eigen_solver=eigen_solver, random_state=0).fit(X)
    np.testing.assert_allclose(other.eigenvalues_, auto.eigenvalues_, rtol=1e-6, atol=1e-8)
    assert adjusted_rand_score(y, other.labels_) == 1.0


def test_precomputed_distances_carry_the_pairwise_tag():
    assert SpectralClustering(kernel="precomputed_nearest_neighbors").__sklearn_tags__(
    ).input_tags.pairwise
    assert not SpectralClustering().__sklearn_tags__().input_tags.pairwise


def test_discretize_is_yu_and_shis_as_scikit_learn_computes_it(blobs):
    from sklearn.cluster._spectral import discretize  # the reference implementation

    X, y = blobs
    sc = SpectralClustering(3, assign="discretize", random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) > 0.9
    ref = discretize(sc.embedding_, random_state=0)
    assert adjusted_rand_score(ref, sc.labels_) == 1.0
    np.testing.assert_array_equal(sc.predict(X), sc.labels_)
    rings = make_rings(random_state=0)
    assert adjusted_rand_score(rings[1], SpectralClustering(
        2, assign="discretize", random_state=0).fit_predict(rings[0])) == 1.0


def test_amg_depends_on_random_state_only_and_leaves_the_global_generator_alone():
    # pyamg estimates a spectral radius from NumPy's global generator while it builds the
    # preconditioner: the fit must not follow that generator, nor advance it
    X, _ = load_digits(return_X_y=True)
    X = StandardScaler().fit_transform(X[:900])
    fits = []
    for seed in (1, 2):
        np.random.seed(seed)  # noqa: NPY002 (the legacy global generator is the subject)
        before = np.random.get_state()  # noqa: NPY002
        fits.append(SpectralClustering(10, eigen_solver="amg", random_state=0).fit(X))
        after = np.random.get_state()  # noqa: NPY002
        assert after[2] == before[2]
        np.testing.assert_array_equal(after[1], before[1])
    np.testing.assert_array_equal(fits[1].eigenvalues_, fits[0].eigenvalues_)
    np.testing.assert_array_equal(fits[1].labels_, fits[0].labels_)


def test_amg_agrees_with_arpack_on_the_knn_graph():
    X, _ = load_digits(return_X_y=True)
    X = StandardScaler().fit_transform(X[:900])
    a = SpectralClustering(10, eigen_solver="arpack", random_state=0).fit(X)
    b = SpectralClustering(10, eigen_solver="amg", random_state=0).fit(X)
    np.testing.assert_allclose(b.eigenvalues_, a.eigenvalues_, atol=1e-4)
    assert adjusted_rand_score(a.labels_, b.labels_) > 0.95
    with pytest.raises(ValueError, match=r"eigen_solver='amg'.*sparse affinity"):
        SpectralClustering(2, kernel="rbf", eigen_solver="amg").fit(X[:50])
