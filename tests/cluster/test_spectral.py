"""SpectralClustering: reference tests against explicit matrices and scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.cluster import SpectralClustering as SkSpectralClustering
from sklearn.cluster._spectral import cluster_qr
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import kneighbors_graph

from kernel_patterns import SpectralClustering
from kernel_patterns.cluster import SpectralClustering as SpectralFromCluster
from kernel_patterns.datasets import make_rings, make_two_moons
from kernel_patterns.kernels import RBF, SparseKernelOperator

MATRICES = ["K", "random_walk", "normalized", "laplacian"]
ASSIGNS = ["recluster", "eigenvector", "qr"]


@pytest.fixture(scope="module")
def blobs3():
    return make_blobs(
        n_samples=[40, 60, 80], centers=[[0, 0], [10, 0], [0, 10]], cluster_std=0.6,
        random_state=0,
    )


@pytest.fixture(scope="module")
def rings():
    return make_rings(n_samples=(300, 600), random_state=0)


def test_exported_from_both_places():
    assert SpectralFromCluster is SpectralClustering


@pytest.mark.parametrize("n", [300, 900])  # dense eigh path and ARPACK path
def test_normalized_recluster_matches_sklearn_on_rings(n):
    X, y = make_rings(n_samples=(n // 3, n - n // 3), random_state=1)
    K = RBF(gamma=10.0)(X)
    ours = SpectralClustering(2, kernel="precomputed", random_state=0).fit(K)
    sk = SkSpectralClustering(2, affinity="precomputed", random_state=0).fit(K)
    assert adjusted_rand_score(ours.labels_, sk.labels_) >= 0.95
    assert adjusted_rand_score(y, ours.labels_) == 1.0
    assert adjusted_rand_score(y, sk.labels_) == 1.0


@pytest.mark.parametrize("matrix", MATRICES)
@pytest.mark.parametrize("assign", ASSIGNS)
def test_every_combination_finds_k_well_separated_blobs(blobs3, matrix, assign):
    X, y = blobs3
    sc = SpectralClustering(3, kernel=RBF(0.5), matrix=matrix, assign=assign,
                            random_state=0).fit(X)
    assert np.unique(sc.labels_).size == 3
    assert adjusted_rand_score(y, sc.labels_) == 1.0
    assert sc.embedding_.shape == (180, 3)
    assert sc.eigenvalues_.shape == (3,)


# Wide enough that each blob's top eigenvalue of K beats the other blob's second one (with a
# narrow kernel the second eigenvector of K splits the bigger blob: K's relaxation, not a bug).
GAMMA = 0.1


@pytest.mark.parametrize("matrix", MATRICES)
def test_threshold_separates_two_blobs_exactly(matrix):
    X, y = make_blobs(n_samples=[50, 70], centers=[[0, 0], [6, 0]], cluster_std=0.7,
                      random_state=3)
    sc = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": GAMMA}, matrix=matrix,
                            assign="threshold", random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) == 1.0


def _explicit(K: np.ndarray, matrix: str) -> np.ndarray:
    d = K.sum(axis=1)
    if matrix == "K":
        return K
    if matrix == "normalized":
        return K / np.sqrt(np.outer(d, d))
    if matrix == "laplacian":
        return np.diag(d) - K
    return K / d[:, None]  # random walk


@pytest.mark.parametrize("matrix", MATRICES)
@pytest.mark.parametrize("n", [200, 700])
def test_eigenpairs_match_explicit_matrices(matrix, n):
    X, _ = make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)
    K = RBF(gamma=4.0)(X)
    sc = SpectralClustering(3, kernel=RBF(4.0), matrix=matrix, random_state=0).fit(X)
    M = _explicit(K, matrix)
    if matrix == "random_walk":  # similar to the normalised matrix: same (real) spectrum
        ev = np.linalg.eigvalsh(_explicit(K, "normalized"))
    else:
        ev = np.linalg.eigvalsh(M)
    expected = ev[:3] if matrix == "laplacian" else ev[::-1][:3]
    np.testing.assert_allclose(sc.eigenvalues_, expected, rtol=1e-7, atol=1e-9)
    V, lam = sc.embedding_, sc.eigenvalues_
    np.testing.assert_allclose(M @ V, V * lam, atol=1e-7)
    # deterministic signs: the entry of largest magnitude of every vector is positive
    assert np.all(V[np.abs(V).argmax(axis=0), np.arange(3)] > 0)


def test_qr_agrees_with_sklearn_cluster_qr(blobs3):
    X, y = blobs3
    sc = SpectralClustering(3, kernel=RBF(0.5), assign="qr", random_state=0).fit(X)
    assert adjusted_rand_score(cluster_qr(sc.embedding_), sc.labels_) == 1.0
    assert adjusted_rand_score(y, sc.labels_) == 1.0


def test_sparse_affinity_is_never_densified(monkeypatch):
    X, y = make_two_moons(n_samples=(400, 400), noise=0.05, random_state=0)
    A = kneighbors_graph(X, 10, include_self=False)
    A = sparse.csr_matrix(0.5 * (A + A.T))

    def boom(*args, **kwargs):
        raise AssertionError("the sparse affinity was densified")

    for name in ("to_dense", "rows", "_take_rows"):
        monkeypatch.setattr(SparseKernelOperator, name, boom)
    for matrix in MATRICES[1:]:
        sc = SpectralClustering(2, kernel="precomputed", matrix=matrix, random_state=0).fit(A)
        assert adjusted_rand_score(y, sc.labels_) == 1.0, matrix


def test_chunked_operator_and_float32_agree_with_dense():
    X, y = make_rings(n_samples=(220, 430), random_state=0)  # > 600 points: ARPACK path
    dense = SpectralClustering(2, kernel=RBF(10.0), random_state=0).fit(X)
    chunked = SpectralClustering(2, kernel=RBF(10.0), operator="chunked",
                                 random_state=0).fit(X)
    f32 = SpectralClustering(2, kernel=RBF(10.0), dtype="float32",
                             random_state=0).fit(X)
    np.testing.assert_allclose(chunked.embedding_, dense.embedding_, atol=1e-8)
    np.testing.assert_allclose(f32.eigenvalues_, dense.eigenvalues_, atol=1e-4)
    assert adjusted_rand_score(y, f32.labels_) == 1.0


def test_reproducible_and_input_unchanged(rings):
    X, _ = rings
    X0 = X.copy()
    a = SpectralClustering(2, kernel=RBF(10.0), random_state=7).fit(X)
    b = SpectralClustering(2, kernel=RBF(10.0), random_state=7).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    np.testing.assert_array_equal(X, X0)
    K = RBF(10.0)(X)
    K0 = K.copy()
    SpectralClustering(2, kernel="precomputed", random_state=0).fit(K)
    np.testing.assert_array_equal(K, K0)


def test_disconnected_graph_with_more_components_than_clusters_warns():
    blocks = [np.ones((5, 5)) for _ in range(3)]
    A = sparse.block_diag(blocks, format="csr")
    with pytest.warns(UserWarning, match="3 connected components"):
        SpectralClustering(2, kernel="precomputed", random_state=0).fit(A)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sc = SpectralClustering(3, kernel="precomputed", random_state=0).fit(A)
    assert adjusted_rand_score(np.repeat([0, 1, 2], 5), sc.labels_) == 1.0


@pytest.mark.parametrize(
    ("X", "match"),
    [
        (np.array([[0.0, np.nan], [1.0, 2.0], [3.0, 4.0]]), "NaN"),
        (np.array([[0.0, np.inf], [1.0, 2.0], [3.0, 4.0]]), "infinity"),
        (np.empty((0, 2)), "0 sample"),
        (np.array([[1.0, 2.0]]), "1 sample"),
        (np.arange(5.0), "2D array"),
    ],
)
def test_bad_input(X, match):
    with pytest.raises(ValueError, match=match):
        SpectralClustering(2).fit(X)


def test_bad_parameters():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="larger than the number of samples"):
        SpectralClustering(11).fit(X)
    with pytest.raises(ValueError, match="'matrix' parameter"):
        SpectralClustering(2, matrix="laplace").fit(X)
    with pytest.raises(ValueError, match="'assign' parameter"):
        SpectralClustering(2, assign="kmeans").fit(X)
    with pytest.raises(ValueError, match="needs n_clusters=2"):
        SpectralClustering(3, assign="threshold").fit(X)
    with pytest.raises(ValueError, match="unknown kernel"):
        SpectralClustering(2, kernel="rbff").fit(X)


@pytest.mark.parametrize("matrix", ["normalized", "random_walk", "laplacian"])
def test_negative_affinity_is_rejected_where_degrees_are_needed(matrix):
    X = np.random.default_rng(0).normal(size=(30, 3))
    with pytest.raises(ValueError, match=r"must be non-negative.*or matrix='K'\."):
        SpectralClustering(2, kernel="linear", matrix=matrix).fit(X)
    # K itself needs no degrees: a linear kernel is fine there
    assert SpectralClustering(2, kernel="linear", matrix="K", random_state=0).fit(X).labels_.size


def test_zero_degree_is_rejected_for_normalised_matrices():
    A = sparse.block_diag([np.ones((4, 4)), np.zeros((1, 1))], format="csr")
    with pytest.raises(ValueError, match="zero degree"):
        SpectralClustering(2, kernel="precomputed", matrix="normalized").fit(A)


def test_bad_precomputed_matrices():
    with pytest.raises(ValueError, match="square"):
        SpectralClustering(2, kernel="precomputed").fit(np.ones((3, 4)))
    A = sparse.csr_matrix(np.array([[1.0, 0.5, 0], [0, 1, 0], [0, 0, 1]]))
    with pytest.raises(ValueError, match="not symmetric"):
        SpectralClustering(2, kernel="precomputed").fit(A)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_symmetric_blas_product_matches_operator(dtype):
    from kernel_patterns.kernels import make_operator

    X = np.random.default_rng(0).normal(size=(300, 3))
    op = make_operator(RBF(0.3), X, dtype=dtype)
    product = op.matmat  # one vector: BLAS symv on the dense operator
    v = np.random.default_rng(1).normal(size=300).astype(dtype)
    V = np.random.default_rng(2).normal(size=(300, 4)).astype(dtype)
    rtol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(product(v), op.K @ v, rtol=rtol, atol=rtol * 300)
    np.testing.assert_allclose(product(v[:, None])[:, 0], op.K @ v, rtol=rtol, atol=rtol * 300)
    np.testing.assert_allclose(product(V), op.K @ V, rtol=rtol, atol=rtol * 300)


def test_threshold_split_is_the_best_two_means_split():
    from kernel_patterns.cluster._spectral_assign import _threshold_split

    x = np.random.default_rng(0).normal(size=60)
    labels, thr = _threshold_split(x)

    def ss(mask):
        return sum(float(np.sum((x[m] - x[m].mean()) ** 2)) for m in (mask, ~mask) if m.any())

    best = min(ss(x > t) for t in np.sort(x)[:-1])  # every split, brute force
    assert ss(labels.astype(bool)) == pytest.approx(best)
    np.testing.assert_array_equal(labels, (x > thr).astype(int))


def test_localise_degenerate_recovers_indicator_basis():
    from kernel_patterns._eigen import localise_degenerate

    sizes = [10, 20, 30]
    E = np.zeros((60, 3))
    start = 0
    for j, s in enumerate(sizes):
        E[start : start + s, j] = 1 / np.sqrt(s)
        start += s
    Q, _ = np.linalg.qr(np.random.default_rng(0).normal(size=(3, 3)))
    V = localise_degenerate(E @ Q, np.ones(3))  # an arbitrary basis of the eigenspace
    assert np.unique(np.argmax(V, axis=1)).size == 3
    # every rotated vector is one of the indicator vectors (a permutation of them)
    np.testing.assert_allclose(np.abs(V.T @ E).max(axis=1), 1.0, atol=1e-10)
    np.testing.assert_allclose(V.T @ V, np.eye(3), atol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("matrix", ["normalized", "laplacian"])
def test_disconnected_dense_affinity_warns_at_both_precisions(dtype, matrix):
    X, _ = make_blobs(n_samples=[20, 20, 20], centers=[[0, 0], [40, 0], [0, 40]],
                      cluster_std=0.5, random_state=0)
    # a fixed width under which the blobs are 40 / 0.5 apart: disconnected (the default width
    # comes from the data's spread, which joins them)
    with pytest.warns(UserWarning, match="at least 3 connected components"):
        SpectralClustering(2, kernel=RBF(1.0), matrix=matrix, dtype=dtype,
                           random_state=0).fit(X)


@pytest.mark.parametrize("matrix", ["normalized", "random_walk", "laplacian"])
def test_sparse_graph_with_k_components_is_exact(matrix):
    # exactly degenerate eigenvalue (one per component): set from the components, not searched
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(350, 2)), rng.normal(size=(400, 2)) + 50])
    y = np.repeat([0, 1], [350, 400])
    A = kneighbors_graph(X, 8, include_self=False)
    A = sparse.csr_matrix(0.5 * (A + A.T))
    sc = SpectralClustering(2, kernel="precomputed", matrix=matrix, random_state=0).fit(A)
    assert adjusted_rand_score(y, sc.labels_) == 1.0
    trivial = 0.0 if matrix == "laplacian" else 1.0
    np.testing.assert_allclose(sc.eigenvalues_, trivial, atol=1e-12)


@pytest.mark.parametrize(("kernel", "fix"), [
    ("nearest_neighbors", r"raise n_neighbors \(now 10\) above .* copies of a row \(30\)"),
    ("rbf", "drop the duplicate rows or lower n_clusters"),
])
def test_identical_rows_split_across_clusters_are_named(kernel, fix):
    X = np.ones((30, 3))  # 30 copies of one row: nothing tells them apart
    with pytest.warns(UserWarning, match=r"split 1 group\(s\) of identical rows.*" + fix):
        SpectralClustering(3, kernel=kernel, random_state=0).fit(X)
    # copies kept together, or no copies at all: no warning
    X = np.repeat(np.random.default_rng(0).normal(size=(3, 2)) * 10, 4, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lab = SpectralClustering(3, kernel="rbf", random_state=0).fit_predict(X)
        SpectralClustering(3, random_state=0).fit(np.random.default_rng(0).normal(size=(60, 2)))
    assert all(np.unique(lab[4 * g : 4 * g + 4]).size == 1 for g in range(3))



def test_clusters_left_without_a_point_are_numbered_last_and_named():
    from sklearn.exceptions import ConvergenceWarning

    X, _ = make_blobs(100, centers=2, random_state=0)
    # the book's eigenvector rule: argmax of rows of 6 eigenvectors of 2 blobs, one unused
    with pytest.warns(ConvergenceWarning, match=r"only 5 of the n_clusters=6 clusters hold a "
                      r"point after assign='eigenvector'.*assign='recluster'"):
        sc = SpectralClustering(6, kernel="rbf", assign="eigenvector", random_state=0).fit(X)
    np.testing.assert_array_equal(np.unique(sc.labels_), np.arange(5))  # no gaps
    np.testing.assert_array_equal(sc.predict(X), sc.labels_)  # new points numbered alike
