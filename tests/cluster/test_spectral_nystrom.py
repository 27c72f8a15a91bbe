"""SpectralClustering with approximation="nystrom" and the low-rank eigen shortcut.

References: the exact method (at full rank the Nyström operator is the exact kernel), ARPACK
run on the very same low-rank operator (the shortcut must be exact for it), and the ring labels.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score
from sklearn.utils._param_validation import InvalidParameterError

from kernel_patterns import SpectralClustering
from kernel_patterns._eigen import top_eigenpairs
from kernel_patterns._graph import low_rank_degrees, normalized_matmat
from kernel_patterns.cluster import spectral_eigenpairs
from kernel_patterns.datasets import make_rings, make_two_moons
from kernel_patterns.kernels import RBF, NystromKernelOperator, make_operator

MATRICES = ["K", "random_walk", "normalized", "laplacian"]


@pytest.fixture(scope="module")
def rings_small():
    return make_rings(n_samples=(100, 200), random_state=0)


def _same_up_to_sign(A, B, atol):
    signs = np.sign(np.sum(A * B, axis=0))
    np.testing.assert_allclose(A, B * signs, atol=atol)


@pytest.mark.parametrize("matrix", MATRICES)
def test_full_rank_nystrom_equals_exact(rings_small, matrix):
    X, y = rings_small
    n = X.shape[0]
    exact = SpectralClustering(2, kernel=RBF(10.0), matrix=matrix, random_state=0).fit(X)
    ny = SpectralClustering(2, kernel=RBF(10.0), matrix=matrix, approximation="nystrom",
                            n_components=n, random_state=0).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, exact.eigenvalues_, rtol=1e-8, atol=1e-10)
    _same_up_to_sign(ny.embedding_, exact.embedding_, atol=1e-8)
    assert adjusted_rand_score(exact.labels_, ny.labels_) == 1.0
    if matrix != "K":  # K's own relaxation does not separate rings (nor does the exact one)
        assert adjusted_rand_score(y, ny.labels_) == 1.0


@pytest.mark.parametrize("matrix", ["K", "normalized", "random_walk"])
def test_low_rank_shortcut_equals_arpack_on_the_same_operator(matrix):
    # 900 points: above the dense cut-off of top_eigenpairs, so the reference is ARPACK.
    X, _ = make_two_moons(n_samples=(450, 450), random_state=0)
    op = NystromKernelOperator(RBF(4.0), X, n_components=40, random_state=0)
    lam, V = spectral_eigenpairs(op, 4, matrix, random_state=0)
    if matrix == "K":
        w_ref, V_ref = top_eigenpairs(op.matmat, op.n_samples, 4, random_state=0)
    else:
        d = op.row_sums().astype(np.float64)
        w_ref, V_ref = top_eigenpairs(normalized_matmat(op, d), op.n_samples, 4,
                                      random_state=0)
        if matrix == "random_walk":
            V_ref = V_ref / np.sqrt(d)[:, None]
    np.testing.assert_allclose(lam, w_ref, rtol=1e-9)
    _same_up_to_sign(V, V_ref, atol=1e-7)


@pytest.mark.parametrize("landmarks", ["uniform", "kmeans++", "leverage"])
def test_rings_with_few_landmarks(landmarks):
    X, y = make_rings(n_samples=(1000, 2000), random_state=0)
    sc = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_components=150,
                            landmarks=landmarks, random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) == 1.0
    assert sc.embedding_.shape == (3000, 2)
    assert sc.eigenvalues_[0] == pytest.approx(1.0)  # exact for the approximate K too


def test_float32_and_reproducible(rings_small):
    X, y = rings_small
    params = {"kernel": RBF(10.0), "approximation": "nystrom", "n_components": 80,
              "random_state": 3}
    a = SpectralClustering(2, dtype="float32", **params).fit(X)
    b = SpectralClustering(2, dtype="float32", **params).fit(X)
    c = SpectralClustering(2, dtype="float64", **params).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    np.testing.assert_allclose(a.eigenvalues_, c.eigenvalues_, atol=1e-4)
    assert adjusted_rand_score(y, a.labels_) == 1.0


@pytest.mark.parametrize("assign", ["recluster", "eigenvector", "qr", "threshold"])
def test_every_assignment_works_on_the_shortcut(rings_small, assign):
    X, y = rings_small
    sc = SpectralClustering(2, kernel=RBF(10.0), assign=assign, approximation="nystrom",
                            n_components=100, random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) == 1.0


def test_input_is_not_modified(rings_small):
    X, _ = rings_small
    X0 = X.copy()
    SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_components=50,
                       random_state=0).fit(X)
    np.testing.assert_array_equal(X, X0)


def test_more_landmarks_than_samples_warns_and_uses_all(rings_small):
    X, _ = rings_small
    with pytest.warns(UserWarning, match="n_components=500 landmarks is more than n_samples"):
        ny = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom",
                                n_components=500, random_state=0).fit(X)
    exact = SpectralClustering(2, kernel=RBF(10.0), random_state=0).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, exact.eigenvalues_, rtol=1e-8)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"approximation": "svd"}, "approximation"),
        ({"approximation": "nystrom", "n_components": 0}, "n_components"),
        ({"approximation": "nystrom", "n_components": 2.5}, "n_components"),
        ({"approximation": "nystrom", "landmarks": "random"}, "landmarks"),
        ({"dtype": "float16"}, "dtype"),
    ],
)
def test_bad_parameters(rings_small, params, match):
    X, _ = rings_small
    with pytest.raises(InvalidParameterError, match=match):
        SpectralClustering(2, **params).fit(X)


def test_precomputed_cannot_be_approximated(rings_small):
    X, _ = rings_small
    K = RBF(10.0)(X)
    with pytest.raises(ValueError, match="approximation='nystrom' needs a kernel function"):
        SpectralClustering(2, kernel="precomputed", approximation="nystrom").fit(K)


def test_more_clusters_than_samples_still_rejected():
    X = np.random.default_rng(0).normal(size=(5, 2))
    with pytest.raises(ValueError, match="n_clusters=6 is larger"):
        SpectralClustering(6, kernel="rbf", approximation="nystrom").fit(X)


def test_low_rank_degrees_are_repaired_with_a_warning_naming_the_parameter():
    # K ≈ F Fᵀ = [[1, -0.9], [-0.9, 0.82]]: degrees 0.1 and -0.08, below the self-affinities.
    F = np.array([[1.0, 0.0], [-0.9, 0.1], [0.0, 0.0]])
    d = (F @ F.T).sum(axis=1)
    with pytest.warns(UserWarning, match="increase n_components") as rec:
        fixed = low_rank_degrees(F, d, "spectral clustering", "n_components")
    assert "1 of them have no feature at all" in str(rec[0].message)
    np.testing.assert_allclose(fixed, [1.0, 0.82, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # consistent degrees pass through silently
        G = np.abs(F[:2]) + 0.1
        d_ok = (G @ G.T).sum(axis=1)
        np.testing.assert_array_equal(low_rank_degrees(G, d_ok, "x", "n_components"), d_ok)


def test_point_far_from_every_landmark_is_reported():
    X, y = make_rings(n_samples=(150, 300), random_state=0)
    X = np.vstack([X, [[50.0, 50.0]]])  # exp(-10 · 5000) = 0: no feature at all
    sc = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_components=60,
                            random_state=0)
    with pytest.warns(UserWarning, match="increase n_components"):
        sc.fit(X)
    assert adjusted_rand_score(y, sc.labels_[:-1]) == 1.0


def test_full_rank_operator_through_make_operator_is_the_exact_kernel(rings_small):
    X, _ = rings_small
    op = make_operator(RBF(10.0), X, approximation="nystrom", n_components=X.shape[0],
                       random_state=0)
    w, V = spectral_eigenpairs(op, 3, "normalized")
    w_ex, V_ex = spectral_eigenpairs(make_operator(RBF(10.0), X), 3, "normalized")
    np.testing.assert_allclose(w, w_ex, rtol=1e-9)
    _same_up_to_sign(V, V_ex, atol=1e-8)
