"""LaplacianEmbedding (Algorithm 8.33, Theorem 8.32): reference tests on explicit Laplacians."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.manifold import spectral_embedding
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import kneighbors_graph

from kernel_patterns import LaplacianEmbedding, SpectralClustering
from kernel_patterns.datasets import make_rings, make_two_moons
from kernel_patterns.embed import LaplacianEmbedding as LaplacianFromEmbed
from kernel_patterns.embed import auto_n_neighbors
from kernel_patterns.kernels import RBF, SparseKernelOperator


def test_exported_from_both_places():
    assert LaplacianFromEmbed is LaplacianEmbedding


@pytest.mark.parametrize("n", [200, 700])  # dense eigh path and ARPACK path
def test_theorem_8_32(n):
    X, _ = make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)
    k = RBF(2.0)
    le = LaplacianEmbedding(3, kernel=k, random_state=0).fit(X)
    T = le.embedding_
    # constraints (8.14): orthonormal columns, each orthogonal to the all-ones vector
    np.testing.assert_allclose(T.T @ T, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(T.sum(axis=0), 0.0, atol=1e-10)
    # E(τ) = Σ K_ij ‖τ_i − τ_j‖² = 2 (λ_2 + … + λ_{k+1})
    K = k(X)
    sq = np.sum(T**2, axis=1)
    dist2 = sq[:, None] + sq[None, :] - 2 * T @ T.T
    E = float(np.sum(K * dist2))
    np.testing.assert_allclose(E, le.objective_, rtol=1e-8)
    # reference: dense eigendecomposition of L = D − K
    L = np.diag(K.sum(1)) - K
    lam, V = np.linalg.eigh(L)
    np.testing.assert_allclose(le.eigenvalues_, lam[1:4], rtol=1e-8)
    np.testing.assert_allclose(2 * lam[1:4].sum(), le.objective_, rtol=1e-8)
    # same subspace as the explicit eigenvectors 2..4
    np.testing.assert_allclose(np.abs(V[:, 1:4].T @ T), np.eye(3), atol=1e-6)


def test_disconnected_graph_warns_with_component_count():
    X, _ = make_blobs(n_samples=[30, 30, 30], centers=[[0, 0], [50, 0], [0, 50]],
                      cluster_std=0.5, random_state=0)
    with pytest.warns(UserWarning, match="3 connected components"):
        le = LaplacianEmbedding(3, kernel="rbf", kernel_params={"gamma": 1.0},
                                random_state=0).fit(X)
    assert le.n_connected_components_ == 3
    np.testing.assert_allclose(le.eigenvalues_[:2], 0.0, atol=1e-8)
    np.testing.assert_allclose(le.embedding_.sum(axis=0), 0.0, atol=1e-10)
    A = sparse.block_diag([np.ones((4, 4))] * 4, format="csr")
    with pytest.warns(UserWarning, match="4 connected components"):
        le = LaplacianEmbedding(2, kernel="precomputed", random_state=0).fit(A)
    assert le.n_connected_components_ == 4


def test_sparse_affinity_is_never_densified(monkeypatch):
    X = np.random.default_rng(0).normal(size=(700, 2))  # one connected kNN graph
    A = kneighbors_graph(X, 12, include_self=False)
    A = sparse.csr_matrix(0.5 * (A + A.T))
    ref = LaplacianEmbedding(2, kernel="precomputed", random_state=0).fit(A.toarray())

    def boom(*args, **kwargs):
        raise AssertionError("the sparse affinity was densified")

    for name in ("to_dense", "rows", "_take_rows"):
        monkeypatch.setattr(SparseKernelOperator, name, boom)
    le = LaplacianEmbedding(2, kernel="precomputed", random_state=0).fit(A)
    np.testing.assert_allclose(le.eigenvalues_, ref.eigenvalues_, rtol=1e-8)
    assert le.n_connected_components_ == 1


def test_input_unchanged():
    X, _ = make_rings(n_samples=(100, 100), random_state=0)  # one graph component
    X0 = X.copy()
    for kernel in ("nearest_neighbors", "rbf"):
        LaplacianEmbedding(2, kernel=kernel, random_state=0).fit_transform(X)
        np.testing.assert_array_equal(X, X0)


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(10, 3))
    with pytest.raises(ValueError, match="must be smaller than the number of samples"):
        LaplacianEmbedding(10).fit(X)
    # the way out named is this estimator's own (it has no matrix parameter)
    with pytest.raises(ValueError, match=r"must be non-negative.*or KernelMDS, which embeds "
                                         r"a kernel of any sign\.$") as err:
        LaplacianEmbedding(2, kernel="linear").fit(X)
    assert "matrix=" not in str(err.value)
    for kernel in ("nearest_neighbors", "rbf"):
        with pytest.raises(ValueError, match="infinity"):
            LaplacianEmbedding(2, kernel=kernel).fit(np.where(np.eye(10, 3) > 0, np.inf, X))
        with pytest.raises(ValueError, match="NaN"):
            LaplacianEmbedding(2, kernel=kernel).fit(np.where(np.eye(10, 3) > 0, np.nan, X))
    with pytest.raises(ValueError, match="must be smaller than the number of samples"):
        LaplacianEmbedding(10, kernel="rbf").fit(X)
    # the default graph takes no kernel parameters: the message names the way out
    with pytest.raises(ValueError, match="kernel_params is not used with kernel="):
        LaplacianEmbedding(kernel_params={"gamma": 1.0}).fit(X)
    with pytest.raises(ValueError, match="'n_neighbors' parameter"):
        LaplacianEmbedding(n_neighbors=0).fit(X)
    with pytest.raises(ValueError, match="minimum of 2 is required"):
        LaplacianEmbedding(1).fit(X[:1])
    with pytest.raises(ValueError, match="'n_components' parameter"):
        LaplacianEmbedding(0).fit(X)


def test_disconnected_sparse_graph_matches_explicit_laplacian():
    # three kNN components (> 600 points: ARPACK on the deflated operator)
    rng = np.random.default_rng(0)
    parts = [rng.normal(size=(m, 2)) + off for m, off in [(300, 0), (250, 100), (150, 200)]]
    X = np.vstack(parts)
    A = kneighbors_graph(X, 8, include_self=False)
    A = sparse.csr_matrix(0.5 * (A + A.T))
    with pytest.warns(UserWarning, match="3 connected components"):
        le = LaplacianEmbedding(4, kernel="precomputed", random_state=0).fit(A)
    T = le.embedding_
    np.testing.assert_allclose(T.T @ T, np.eye(4), atol=1e-10)
    np.testing.assert_allclose(T.sum(axis=0), 0.0, atol=1e-10)
    D = A.toarray()
    lam = np.linalg.eigvalsh(np.diag(D.sum(1)) - D)
    np.testing.assert_allclose(le.eigenvalues_, lam[1:5], atol=1e-9)
    np.testing.assert_allclose(le.objective_, 2 * lam[1:5].sum(), atol=1e-8)


# --- issue 18 item 7 (scikit-learn's SpectralEmbedding tests, tests/peers/) ----------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float32_in_gives_float32_out(dtype):
    X, _ = make_blobs(80, centers=3, random_state=0)
    le = LaplacianEmbedding(2, kernel="rbf", random_state=0).fit(X.astype(dtype))
    assert le.embedding_.dtype == dtype
    ref = LaplacianEmbedding(2, kernel="rbf", random_state=0).fit(X).embedding_
    np.testing.assert_allclose(le.embedding_, ref, atol=1e-5)


@pytest.mark.parametrize("solver", ["arpack", "lobpcg", "dense"])
def test_eigen_solvers_agree(solver):
    X, _ = make_blobs(300, centers=3, cluster_std=2.0, random_state=0)
    for kernel in ("rbf", "nearest_neighbors"):
        ref = LaplacianEmbedding(2, kernel=kernel, eigen_solver="dense").fit(X).embedding_
        le = LaplacianEmbedding(2, kernel=kernel, eigen_solver=solver, eigen_tol="auto",
                                random_state=0).fit(X)
        np.testing.assert_allclose(le.embedding_, ref, atol=1e-6)


def test_bad_eigen_solver_is_named():
    with pytest.raises(ValueError, match="eigen_solver"):
        LaplacianEmbedding(eigen_solver="amg").fit(np.random.default_rng(0).normal(size=(9, 2)))


def test_nearest_neighbors_kernel_is_spectral_clusterings_graph():
    X, _ = make_blobs(120, centers=3, cluster_std=2.0, random_state=0)
    le = LaplacianEmbedding(2, kernel="nearest_neighbors", n_neighbors=8).fit(X)
    C = kneighbors_graph(X, 8, include_self=True)
    A = 0.5 * (C + C.T)
    assert le.n_neighbors_ == 8
    np.testing.assert_allclose(le.affinity_matrix_.toarray(), A.toarray())
    pre = LaplacianEmbedding(2, kernel="precomputed").fit(sparse.csr_array(A))
    np.testing.assert_allclose(le.embedding_, pre.embedding_, atol=1e-10)
    # scikit-learn's SpectralEmbedding neighbour count, n_samples // 10, with None
    assert LaplacianEmbedding(n_neighbors=None).fit(X).n_neighbors_ == 12
    assert LaplacianEmbedding(kernel="rbf").fit(X).affinity_matrix_ is None


def test_precomputed_nearest_neighbors_is_pairwise_and_takes_no_nystrom():
    le = LaplacianEmbedding(kernel="precomputed_nearest_neighbors")
    assert le.__sklearn_tags__().input_tags.pairwise
    X, _ = make_blobs(40, random_state=0)
    with pytest.raises(ValueError, match="approximation='exact'"):
        LaplacianEmbedding(kernel="nearest_neighbors", approximation="nystrom").fit(X)
    with pytest.raises(ValueError, match="n_components=40 must be smaller"):
        LaplacianEmbedding(40, kernel="nearest_neighbors").fit(X)


# --- the default affinity: SpectralClustering's k-NN graph, auto_n_neighbors (issue 34) -----
@pytest.mark.parametrize(("n", "k"), [(1, 10), (200, 10), (220, 10), (300, 12), (1000, 22),
                                      (2048, 32), (5000, 32), (10**6, 32)])
def test_auto_n_neighbors_grows_with_the_sample_within_its_range(n, k):
    assert auto_n_neighbors(n) == k == min(max(round((n / 2) ** 0.5), 10), 32)


def test_default_graph_has_auto_n_neighbors_per_point():
    X, _ = make_blobs(1000, centers=3, cluster_std=2.0, random_state=0)
    le = LaplacianEmbedding(random_state=0).fit(X)
    assert le.n_neighbors_ == auto_n_neighbors(1000) == 22
    same = LaplacianEmbedding(n_neighbors=22, random_state=0).fit(X)
    np.testing.assert_array_equal(le.affinity_matrix_.toarray(), same.affinity_matrix_.toarray())
    np.testing.assert_allclose(le.embedding_, same.embedding_, atol=1e-10)
    C = kneighbors_graph(X, 22, include_self=True)
    np.testing.assert_allclose(le.affinity_matrix_.toarray(), (0.5 * (C + C.T)).toarray())
    assert LaplacianEmbedding(n_neighbors="auto").fit(X).n_neighbors_ == 22


def test_n_neighbors_names_the_allowed_values():
    X, _ = make_blobs(50, random_state=0)
    with pytest.raises(ValueError, match=r"'n_neighbors' parameter.*'auto'"):
        LaplacianEmbedding(n_neighbors="many").fit(X)


def test_default_is_spectral_clusterings_knn_graph():
    X, _ = make_blobs(150, centers=3, cluster_std=2.0, random_state=0)
    le = LaplacianEmbedding(random_state=0).fit(X)
    sc = SpectralClustering(3, random_state=0).fit(X)
    assert le.kernel_ == "nearest_neighbors" == sc.kernel_
    assert le.n_neighbors_ == sc.n_neighbors_ == 10
    np.testing.assert_array_equal(le.affinity_matrix_.toarray(), sc.affinity_matrix_.toarray())
    C = kneighbors_graph(X, 10, include_self=True)
    np.testing.assert_allclose(le.affinity_matrix_.toarray(), (0.5 * (C + C.T)).toarray())
    # the same graph given by hand gives the same embedding
    pre = LaplacianEmbedding(kernel="precomputed", random_state=0).fit(le.affinity_matrix_)
    np.testing.assert_allclose(le.embedding_, pre.embedding_, atol=1e-10)


def _principal_cosines(U, V):
    Qu, _ = np.linalg.qr(U)
    Qv, _ = np.linalg.qr(V)
    return np.linalg.svd(Qu.T @ Qv, compute_uv=False)


@pytest.mark.parametrize(("family", "n"), [("moons", 400), ("blobs", 300), ("rings", 200)])
def test_default_matches_sklearn_spectral_embedding_on_the_same_graph(family, n):
    # reference: scikit-learn's spectral_embedding of the same graph with the same Laplacian
    # (unnormalised, constant vector dropped) spans the same subspace, and KMeans on either
    # embedding gives the same labels
    if family == "moons":
        X, _ = make_two_moons(n_samples=(n // 2, n - n // 2), noise=0.12, random_state=0)
        k = 2
    elif family == "rings":
        X, _ = make_rings(n_samples=(n // 2, n - n // 2), random_state=0)
        k = 2
    else:
        X, _ = make_blobs(n, centers=[[0, 0], [3, 0], [1.5, 2.6]], random_state=0)
        k = 3
    le = LaplacianEmbedding(random_state=0).fit(X)
    assert le.n_connected_components_ == 1  # a single eigenproblem, no tie of zero eigenvalues
    A = sparse.csr_matrix(le.affinity_matrix_.toarray())  # 32-bit indices for scikit-learn
    ref = spectral_embedding(A, n_components=2, norm_laplacian=False, drop_first=True,
                             eigen_solver="arpack", random_state=0)
    np.testing.assert_allclose(_principal_cosines(le.embedding_, ref), 1.0, atol=1e-8)
    ours = KMeans(k, n_init=10, random_state=0).fit_predict(le.embedding_)
    theirs = KMeans(k, n_init=10, random_state=0).fit_predict(ref)
    assert adjusted_rand_score(theirs, ours) == pytest.approx(1.0)
    # the eigenvalues are the explicit Laplacian's
    D = A.toarray()
    lam = np.linalg.eigvalsh(np.diag(D.sum(1)) - D)
    np.testing.assert_allclose(le.eigenvalues_, lam[1:3], atol=1e-9)


def test_default_separates_moons_and_kernel_stays_available():
    # two moons with the width-free default: KMeans on the picture finds them (the dense
    # RBF of gamma="scale", the former default, mixed them: ARI 0.11 at 1,000 points)
    X, y = make_two_moons(n_samples=(300, 300), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the moons are two graph components
        E = LaplacianEmbedding(random_state=0).fit_transform(X)
    labels = KMeans(2, n_init=10, random_state=0).fit_predict(E)
    assert adjusted_rand_score(y, labels) == 1.0
    le = LaplacianEmbedding(kernel=RBF(2.0), random_state=0).fit(X)
    assert isinstance(le.kernel_, RBF) and le.kernel_.gamma == 2.0
    assert le.affinity_matrix_ is None and le.n_neighbors_ is None


def test_disconnected_default_graph_names_n_neighbors():
    X, _ = make_blobs(n_samples=[40, 40], centers=[[0, 0], [50, 0]], random_state=0)
    with pytest.warns(UserWarning, match=r"2 connected components.*Raise n_neighbors"):
        le = LaplacianEmbedding(random_state=0).fit(X)
    assert le.n_connected_components_ == 2
