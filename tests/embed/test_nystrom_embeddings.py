"""KernelMDS and LaplacianEmbedding with approximation="nystrom".

References: the exact estimators (the full-rank Nyström operator is the exact kernel), ARPACK
on the same low-rank operator (the r × r shortcut must be exact for it), and Algorithm 8.29's
projection of new points computed by brute force from the approximate kernel.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from kernel_patterns import KernelMDS, LaplacianEmbedding
from kernel_patterns.datasets import make_rings
from kernel_patterns.embed._kernel_mds import _kernel_mds, _low_rank_kernel_mds
from kernel_patterns.kernels import RBF, NystromKernelOperator


@pytest.fixture(scope="module")
def rings():
    return make_rings(n_samples=(100, 200), random_state=0)


def _signs(A, B):
    return np.sign(np.sum(A * B, axis=0))


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_kernel_mds_full_rank_equals_exact(rings, kernel):
    X, _ = rings
    Y = np.random.default_rng(1).normal(size=(7, 2))
    exact = KernelMDS(3, kernel=kernel, random_state=0).fit(X)
    ny = KernelMDS(3, kernel=kernel, approximation="nystrom", n_landmarks=X.shape[0],
                   random_state=0).fit(X)
    k = 2 if kernel == "linear" else 3  # 2-D linear kernel: the third axis is 0
    np.testing.assert_allclose(ny.eigenvalues_[:k], exact.eigenvalues_[:k], rtol=1e-8)
    s = _signs(ny.embedding_, exact.embedding_)[:k]
    np.testing.assert_allclose(ny.embedding_[:, :k], exact.embedding_[:, :k] * s, atol=1e-8)
    np.testing.assert_allclose(ny.transform(Y)[:, :k], exact.transform(Y)[:, :k] * s,
                               atol=1e-7)
    np.testing.assert_allclose(ny.explained_variance_ratio_[:k],
                               exact.explained_variance_ratio_[:k], rtol=1e-8)


def test_kernel_mds_shortcut_equals_arpack_on_the_same_operator():
    X, _ = make_rings(n_samples=(300, 600), random_state=0)  # > 600: ARPACK reference
    op = NystromKernelOperator(RBF(1.0), X, n_components=60, random_state=0)
    w, V, W, mean = _low_rank_kernel_mds(op.features, 4)
    w_ref, V_ref, _, _ = _kernel_mds(op, 4, check_psd=False, random_state=0)
    np.testing.assert_allclose(w, w_ref, rtol=1e-9)
    np.testing.assert_allclose(V, V_ref * _signs(V, V_ref), atol=1e-7)
    np.testing.assert_allclose((op.features - mean) @ W, V * np.sqrt(w), atol=1e-9)


def test_kernel_mds_transform_is_algorithm_8_29_on_the_approximate_kernel(rings):
    X, _ = rings
    Y = np.random.default_rng(2).uniform(-2, 2, size=(9, 2))
    ny = KernelMDS(2, kernel_params={"gamma": 1.0}, approximation="nystrom",
                   n_landmarks=40, landmarks="kmeans++", random_state=0).fit(X)
    # brute force: the approximate kernel K̂(Y, X) = φ(Y) Fᵀ, centred with the training means
    op = NystromKernelOperator(RBF(1.0), X, n_components=40, landmarks="kmeans++",
                               random_state=0)
    K = op.features @ op.features.T
    Kn = op.transform(Y) @ op.features.T
    Kc = Kn - Kn.mean(axis=1, keepdims=True) - K.mean(axis=0) + K.mean()
    np.testing.assert_allclose(ny.transform(Y), Kc @ ny.alphas_, atol=1e-9)
    np.testing.assert_allclose(ny.transform(X), ny.embedding_, atol=1e-9)


def test_kernel_mds_few_landmarks_close_to_exact():
    X, _ = make_rings(n_samples=(700, 1400), random_state=0)
    exact = KernelMDS(3, kernel_params={"gamma": 1.0}, random_state=0).fit(X)
    ny = KernelMDS(3, kernel_params={"gamma": 1.0}, approximation="nystrom",
                   n_landmarks=200, random_state=0).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, exact.eigenvalues_, rtol=1e-4)
    err = np.abs(ny.embedding_ - exact.embedding_ * _signs(ny.embedding_, exact.embedding_))
    assert err.max() < 1e-3 * np.abs(exact.embedding_).max()


def test_kernel_mds_error_falls_as_landmarks_grow():
    X, _ = make_rings(n_samples=(300, 600), random_state=0)
    exact = KernelMDS(3, kernel_params={"gamma": 1.0}, random_state=0).fit(X)
    errs = []
    for m in (20, 60, 200):
        ny = KernelMDS(3, kernel_params={"gamma": 1.0}, approximation="nystrom",
                       n_landmarks=m, random_state=0).fit(X)
        errs.append(np.abs(ny.eigenvalues_ - exact.eigenvalues_).max())
    assert errs[0] > errs[1] > errs[2]


def test_kernel_mds_more_axes_than_the_rank(rings):
    X, _ = rings
    mds = KernelMDS(5, kernel="linear", approximation="nystrom", n_landmarks=10,
                    random_state=0)
    with pytest.warns(UserWarning, match="not positive"):
        Z = mds.fit_transform(X)
    np.testing.assert_array_equal(Z[:, 2:], 0.0)
    np.testing.assert_array_equal(mds.eigenvalues_[2:], 0.0)
    assert mds.transform(X[:4]).shape == (4, 5)


def test_kernel_mds_input_not_modified_and_float32(rings):
    X, _ = rings
    X0 = X.copy()
    a = KernelMDS(2, approximation="nystrom", n_landmarks=50, dtype="float32",
                  random_state=0).fit(X)
    b = KernelMDS(2, approximation="nystrom", n_landmarks=50, dtype="float64",
                  random_state=0).fit(X)
    np.testing.assert_array_equal(X, X0)
    # The landmark block's smallest eigenvalues (~1e-6) are below float32 round-off, so the
    # float32 operator drops those directions (a lower-rank Nyström) where float64 keeps
    # them: the embeddings differ by a few 1e-2 but both follow the exact one closely.
    exact = KernelMDS(2).fit(X).embedding_
    for emb in (a.embedding_, b.embedding_):
        for i in range(2):
            assert abs(np.corrcoef(emb[:, i], exact[:, i])[0, 1]) > 0.999
    np.testing.assert_allclose(np.abs(a.embedding_), np.abs(b.embedding_), atol=0.05)


@pytest.mark.parametrize("cls", [KernelMDS, LaplacianEmbedding])
@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"approximation": "svd"}, "approximation"),
        ({"approximation": "nystrom", "n_landmarks": 0}, "n_landmarks"),
        ({"approximation": "nystrom", "landmarks": "grid"}, "landmarks"),
    ],
)
def test_bad_parameters(rings, cls, params, match):
    X, _ = rings
    with pytest.raises(InvalidParameterError, match=match):
        cls(**params).fit(X)


@pytest.mark.parametrize("cls", [KernelMDS, LaplacianEmbedding])
def test_nystrom_landmark_count_warning_and_precomputed(rings, cls):
    X, _ = rings
    with pytest.warns(UserWarning, match="n_landmarks=400 landmarks is more than"):
        cls(kernel="rbf", approximation="nystrom", n_landmarks=400, random_state=0).fit(X)
    with pytest.raises(ValueError, match="needs a kernel function"):
        cls(kernel="precomputed", approximation="nystrom").fit(RBF(1.0)(X))
    if cls is LaplacianEmbedding:  # its default graph is sparse already: the error says so
        with pytest.raises(ValueError, match=r"sparse affinity already.*kernel='rbf'"):
            cls(approximation="nystrom").fit(X)


def test_laplacian_full_rank_equals_exact(rings):
    X, _ = rings
    rbf = {"kernel": "rbf", "kernel_params": {"gamma": 10.0}}
    exact = LaplacianEmbedding(2, **rbf, random_state=0).fit(X)
    ny = LaplacianEmbedding(2, **rbf, approximation="nystrom",
                            n_landmarks=X.shape[0], random_state=0).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, exact.eigenvalues_, rtol=1e-7, atol=1e-12)
    s = _signs(ny.embedding_, exact.embedding_)
    np.testing.assert_allclose(ny.embedding_, exact.embedding_ * s, atol=1e-7)


def test_laplacian_few_landmarks_close_to_exact():
    X, _ = make_rings(n_samples=(300, 600), random_state=0)
    rbf = {"kernel": "rbf", "kernel_params": {"gamma": 10.0}}
    exact = LaplacianEmbedding(2, **rbf, random_state=0).fit(X)
    ny = LaplacianEmbedding(2, **rbf, approximation="nystrom",
                            n_landmarks=200, random_state=0).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, exact.eigenvalues_, rtol=0.05)
    np.testing.assert_allclose(ny.embedding_.sum(axis=0), 0.0, atol=1e-8)
