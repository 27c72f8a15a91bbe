"""KernelMDS (Algorithm 8.29): reference tests against PCA and the explicit centred kernel."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.exceptions import NotFittedError

from kernel_patterns import KernelMDS
from kernel_patterns.embed import KernelMDS as KernelMDSFromEmbed
from kernel_patterns.kernels import RBF


def _data(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, 5)) * [5.0, 3.0, 2.0, 1.0, 0.5]


def _assert_equal_up_to_sign(A: np.ndarray, B: np.ndarray, atol: float) -> None:
    signs = np.sign(np.sum(A * B, axis=0))
    np.testing.assert_allclose(A, B * signs, atol=atol)


def test_exported_from_both_places():
    assert KernelMDSFromEmbed is KernelMDS


@pytest.mark.parametrize("n", [150, 800])  # dense eigh path and ARPACK path
def test_linear_kernel_equals_pca_scores(n):
    X = _data(n)
    mds = KernelMDS(3, kernel="linear", random_state=0)
    Z = mds.fit_transform(X)
    pca = PCA(3).fit(X)
    _assert_equal_up_to_sign(Z, pca.transform(X), atol=1e-8)
    np.testing.assert_allclose(mds.explained_variance_ratio_, pca.explained_variance_ratio_,
                               rtol=1e-8)
    np.testing.assert_allclose(mds.transform(X), Z, atol=1e-8)
    X_new = _data(20, seed=1)
    _assert_equal_up_to_sign(mds.transform(X_new), pca.transform(X_new), atol=1e-8)


def test_rbf_matches_explicit_centred_kernel():
    X, Xn = _data(120), _data(15, seed=2)
    k = RBF(0.05)
    mds = KernelMDS(2, kernel=k, random_state=0).fit(X)
    K = k(X)
    n = len(X)
    H = np.eye(n) - 1.0 / n
    Kc = H @ K @ H
    lam, V = np.linalg.eigh(Kc)
    lam, V = lam[::-1][:2], V[:, ::-1][:, :2]
    np.testing.assert_allclose(mds.eigenvalues_, lam, rtol=1e-10)
    np.testing.assert_allclose(mds.explained_variance_ratio_, lam / np.trace(Kc), rtol=1e-10)
    alphas = V / np.sqrt(lam)
    _assert_equal_up_to_sign(mds.alphas_, alphas, atol=1e-8)
    np.testing.assert_allclose(mds.transform(X), mds.embedding_, atol=1e-10)
    # new points: the raw kernel rows centred with the training means, times alpha
    Kn = k(Xn, X)
    Knc = Kn - Kn.mean(1, keepdims=True) - K.mean(0) + K.mean()
    _assert_equal_up_to_sign(mds.transform(Xn), Knc @ alphas, atol=1e-8)


def test_precomputed_chunked_and_kernel_object_agree():
    X, Xn = _data(200), _data(10, seed=3)
    k = RBF(0.05)
    ref = KernelMDS(2, kernel=k, random_state=0).fit(X)
    pre = KernelMDS(2, kernel="precomputed", random_state=0).fit(k(X))
    chk = KernelMDS(2, kernel=k, operator="chunked", random_state=0).fit(X)
    np.testing.assert_allclose(pre.embedding_, ref.embedding_, atol=1e-10)
    np.testing.assert_allclose(chk.embedding_, ref.embedding_, atol=1e-10)
    np.testing.assert_allclose(pre.transform(k(Xn, X)), ref.transform(Xn), atol=1e-10)


def test_non_psd_kernel_warns_and_clips():
    rng = np.random.default_rng(0)
    B = rng.normal(size=(40, 40))
    S = B + B.T  # symmetric, indefinite
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        mds = KernelMDS(2, kernel="precomputed", random_state=0).fit(S)
    assert np.all(np.isfinite(mds.embedding_))
    assert np.all(mds.eigenvalues_ >= 0)


def test_psd_kernel_does_not_warn():
    X = _data(60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelMDS(2, kernel="precomputed", random_state=0).fit(RBF(0.1)(X))


def test_input_unchanged_and_reproducible():
    X = _data(80)
    X0 = X.copy()
    a = KernelMDS(2, random_state=0).fit_transform(X)
    b = KernelMDS(2, random_state=0).fit_transform(X)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(X, X0)


def test_bad_input():
    X = _data(10)
    with pytest.raises(ValueError, match="must be smaller than the number of samples"):
        KernelMDS(10).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        KernelMDS(2).fit(np.where(np.eye(10, 5) > 0, np.nan, X))
    with pytest.raises(ValueError, match="1 sample"):
        KernelMDS(1).fit(X[:1])
    far = np.r_[X, [np.r_[1e200, np.zeros(X.shape[1] - 1)]]]  # numpy's "must not contain
    with pytest.raises(ValueError, match=r"X holds values up to 1e\+200"):  # infs" before
        KernelMDS(2).fit(far)
    fitted = KernelMDS(2).fit(X)
    with pytest.raises(ValueError, match=r"X holds values up to 1e\+200"):  # new points too
        fitted.transform(far)
    with pytest.raises(ValueError, match="'n_components' parameter"):
        KernelMDS(0).fit(X)
    with pytest.raises(NotFittedError):
        KernelMDS(2).transform(X)
    mds = KernelMDS(2).fit(X)
    with pytest.raises(ValueError, match="features"):
        mds.transform(X[:, :3])
    pre = KernelMDS(2, kernel="precomputed").fit(RBF()(X))
    with pytest.raises(ValueError, match="expecting 10 features"):
        pre.transform(np.ones((3, 4)))


def test_non_psd_warning_on_the_large_problem_path():
    # 700 points: the smallest eigenvalue comes from a short Lanczos run, not a dense eigh
    X = _data(700)
    K = RBF(0.05)(X)
    v = np.random.default_rng(3).normal(size=700)
    v -= v.mean()
    v /= np.linalg.norm(v)
    S = K - 0.2 * np.linalg.eigvalsh(K)[-1] * np.outer(v, v)  # one clearly negative direction
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        KernelMDS(2, kernel="precomputed", random_state=0).fit(S)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelMDS(2, kernel="precomputed", random_state=0).fit(K)


def test_ritz_extremes_bound_the_spectrum():
    from kernel_patterns._eigen import ritz_extremes

    rng = np.random.default_rng(0)
    B = rng.normal(size=(800, 800))
    A = (B + B.T) / 2
    w = np.linalg.eigvalsh(A)
    lo, hi = ritz_extremes(lambda V: A @ V, 800, random_state=0)
    assert w[0] - 1e-9 <= lo <= 0.9 * w[0]  # an upper bound on λ_min, close to it
    assert 0.9 * w[-1] <= hi <= w[-1] + 1e-9


@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_editing_x_after_fit_does_not_change_transform(approximation):
    # issue 18, bug 1: the fitted state keeps a copy of the training points
    X = _data(100)
    X_new = X[::9].copy() + 0.1
    mds = KernelMDS(kernel="rbf", approximation=approximation, n_landmarks=30,
                    random_state=0).fit(X)
    before = mds.transform(X_new)
    X[:] = np.random.default_rng(1).normal(size=X.shape) * 50.0
    np.testing.assert_allclose(mds.transform(X_new), before)


@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_float32_in_gives_float32_out(approximation):
    """Issue 18 item 7: as KernelPCA, float32 data give a float32 embedding and transform."""
    X = np.random.default_rng(0).normal(size=(60, 4))
    kw = {"approximation": approximation, "n_landmarks": 30, "random_state": 0}
    m32 = KernelMDS(2, **kw).fit(X.astype(np.float32))
    m64 = KernelMDS(2, **kw).fit(X)
    assert m32.embedding_.dtype == np.float32
    assert m32.transform(X[:5].astype(np.float32)).dtype == np.float32
    assert m64.embedding_.dtype == m64.transform(X[:5]).dtype == np.float64
    np.testing.assert_allclose(np.abs(m32.embedding_), np.abs(m64.embedding_), atol=1e-4)
    assert KernelMDS().__sklearn_tags__().transformer_tags.preserves_dtype == ["float64",
                                                                                "float32"]
