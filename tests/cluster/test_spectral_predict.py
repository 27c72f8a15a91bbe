"""SpectralClustering.predict: the out-of-sample extension of the eigenvectors.

References: the explicit formulas on explicit matrices (numpy), the fitted labels (predicting
the training points gives them back), and the ring labels of fresh points.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from sklearn.exceptions import NotFittedError
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import kneighbors_graph

from kernel_patterns import SpectralClustering
from kernel_patterns.cluster._spectral_extension import new_rows
from kernel_patterns.datasets import make_rings, make_two_moons
from kernel_patterns.kernels import RBF, NystromKernelOperator

MATRICES = ["K", "random_walk", "normalized", "laplacian"]
ASSIGNS = ["recluster", "eigenvector", "qr", "threshold"]


@pytest.fixture(scope="module")
def rings():
    return make_rings(n_samples=(150, 300), random_state=0)


@pytest.fixture(scope="module")
def fresh():
    return make_rings(n_samples=(60, 120), random_state=7)


@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
@pytest.mark.parametrize("matrix", MATRICES)
@pytest.mark.parametrize("assign", ASSIGNS)
def test_predicting_the_training_points_gives_labels(rings, fresh, approximation, matrix,
                                                      assign):
    X, _ = rings
    sc = SpectralClustering(2, kernel=RBF(10.0), matrix=matrix, assign=assign,
                            approximation=approximation, n_components=120,
                            random_state=0).fit(X)
    np.testing.assert_array_equal(sc.predict(X), sc.labels_)
    if matrix != "K":  # K's relaxation does not separate rings
        Xn, yn = fresh
        assert adjusted_rand_score(yn, sc.predict(Xn)) == 1.0


def _explicit_rows(Kn, K, V, lam, matrix):
    d = K.sum(axis=1)
    dn = Kn.sum(axis=1)
    if matrix == "K":
        return Kn @ V / lam
    if matrix == "normalized":
        return (Kn / np.sqrt(dn)[:, None]) @ (V / np.sqrt(d)[:, None]) / lam
    if matrix == "random_walk":
        return (Kn / dn[:, None]) @ V / lam
    return (Kn @ V) / (dn[:, None] - lam)


@pytest.mark.parametrize("matrix", MATRICES)
def test_extension_matches_the_explicit_formula(matrix):
    X, _ = make_two_moons(n_samples=(100, 100), random_state=0)
    Y = np.random.default_rng(0).uniform(-1, 2, size=(15, 2))
    sc = SpectralClustering(3, kernel=RBF(4.0), matrix=matrix, random_state=0).fit(X)
    K, Kn = RBF(4.0)(X), RBF(4.0)(Y, X)
    KB, _ = sc._extension(Y)
    got = new_rows(KB, sc._extension_eigenvalues, matrix)
    want = _explicit_rows(Kn, K, sc.embedding_, sc.eigenvalues_, matrix)
    np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-12)
    # at the training points the extension is the eigenvector itself
    KB_train, _ = sc._extension(X)
    np.testing.assert_allclose(new_rows(KB_train, sc._extension_eigenvalues, matrix),
                               sc.embedding_, atol=1e-8)


def test_nystrom_extension_uses_the_approximate_kernel():
    X, _ = make_rings(n_samples=(200, 400), random_state=0)
    Y = np.random.default_rng(1).uniform(-2, 2, size=(20, 2))
    sc = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_components=80,
                            random_state=0).fit(X)
    op = NystromKernelOperator(RBF(10.0), X, n_components=80, random_state=0)
    F = op.features
    K, Kn = F @ F.T, op.transform(Y) @ F.T
    KB, self_aff = sc._extension(Y)
    np.testing.assert_allclose(KB[:, 0], Kn.sum(axis=1), rtol=1e-8, atol=1e-10)
    keep = Kn.sum(axis=1) > self_aff  # points whose degree needs no repair
    got = new_rows(KB, sc._extension_eigenvalues, "normalized", self_aff)[keep]
    want = _explicit_rows(Kn, K, sc.embedding_, sc.eigenvalues_, "normalized")[keep]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-10)


def test_precomputed_dense_and_sparse(rings, fresh):
    X, _ = rings
    Xn, _ = fresh
    K, Kn = RBF(10.0)(X), RBF(10.0)(Xn, X)
    by_kernel = SpectralClustering(2, kernel=RBF(10.0), random_state=0).fit(X)
    pre = SpectralClustering(2, kernel="precomputed", random_state=0).fit(K)
    np.testing.assert_array_equal(pre.predict(Kn), by_kernel.predict(Xn))
    with pytest.raises(ValueError, match="features"):
        pre.predict(Kn[:, :-1])
    A = kneighbors_graph(X, 10, include_self=False)
    A = sparse.csr_matrix(0.5 * (A + A.T))
    sp = SpectralClustering(2, kernel="precomputed", random_state=0).fit(A)
    np.testing.assert_array_equal(sp.predict(A), sp.labels_)


def test_predict_errors(rings):
    X, _ = rings
    with pytest.raises(NotFittedError):
        SpectralClustering(2).predict(X)
    sc = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_components=50,
                            random_state=0).fit(X)
    with pytest.raises(ValueError, match="features"):
        sc.predict(np.ones((3, 3)))
    bad = X[:3].copy()
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        sc.predict(bad)
    X0 = X[:5].copy()
    sc.predict(X0)
    np.testing.assert_array_equal(X0, X[:5])
