"""KernelMDS as scikit-learn's KernelPCA (issue 18, item 10): pre-images, eigen_solver,
remove_zero_eig, n_components=None, get_feature_names_out."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import KernelPCA
from sklearn.exceptions import NotFittedError

from kernel_patterns import KernelMDS
from kernel_patterns.kernels import RBF, GeodesicKernel


def _data(n: int, d: int = 4, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d)) * np.linspace(3.0, 0.5, d)


@pytest.mark.parametrize(("k", "alpha"), [(2, 1.0), (5, 0.1)])
def test_inverse_transform_equals_kernel_pca(k, alpha):
    X, Xn = _data(120), _data(15, seed=1)
    ours = KernelMDS(k, kernel=RBF(gamma=0.1), fit_inverse_transform=True, alpha=alpha).fit(X)
    ref = KernelPCA(k, kernel="rbf", gamma=0.1, fit_inverse_transform=True, alpha=alpha).fit(X)
    # the RBF pre-image map is invariant to the eigenvectors' signs
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(Xn)),
                               ref.inverse_transform(ref.transform(Xn)), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(np.abs(ours.X_transformed_fit_),
                               np.abs(ref.X_transformed_fit_), atol=1e-8)
    assert ours.dual_coef_.shape == (120, 4)


def test_preimages_of_the_training_points_come_close_with_many_axes():
    X = _data(80)
    mds = KernelMDS(None, kernel=RBF(gamma=0.05), fit_inverse_transform=True, alpha=1e-4)
    back = mds.fit(X).inverse_transform(mds.embedding_)
    assert np.max(np.abs(back - X)) < 0.05 * np.max(np.abs(X))


def test_n_components_none_keeps_every_positive_axis_as_kernel_pca():
    X = _data(60)
    ours = KernelMDS(None, kernel=RBF(gamma=0.2)).fit(X)
    ref = KernelPCA(None, kernel="rbf", gamma=0.2).fit(X)
    assert ours.embedding_.shape[1] == ref.eigenvalues_.size
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(np.abs(ours.embedding_), np.abs(ref.transform(X)), atol=1e-7)
    lin = KernelMDS(None, kernel="linear").fit(X)  # rank 4: four axes
    assert lin.embedding_.shape == (60, 4)


def test_remove_zero_eig_drops_the_zero_axes_without_a_warning():
    X = _data(50, d=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Z = KernelMDS(5, kernel="linear", remove_zero_eig=True).fit_transform(X)
    assert Z.shape == (50, 3)
    with pytest.warns(UserWarning, match="2 of the 5 requested eigenvalues"):
        kept = KernelMDS(5, kernel="linear").fit_transform(X)
    np.testing.assert_allclose(kept[:, 3:], 0.0)
    np.testing.assert_allclose(np.abs(kept[:, :3]), np.abs(Z))


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_eigen_solvers_agree(solver):
    X = _data(700)  # beyond the dense size of "auto"
    ref = KernelMDS(3, kernel=RBF(gamma=0.1), random_state=0).fit(X)
    est = KernelMDS(3, kernel=RBF(gamma=0.1), eigen_solver=solver, random_state=0).fit(X)
    np.testing.assert_allclose(est.eigenvalues_, ref.eigenvalues_, rtol=1e-6)
    np.testing.assert_allclose(est.embedding_, ref.embedding_, atol=1e-6 * np.abs(
        ref.embedding_).max())


def test_feature_names_and_pandas_output():
    X = _data(40)
    mds = KernelMDS(2, kernel="rbf").fit(X)
    assert mds.get_feature_names_out().tolist() == ["kernelmds0", "kernelmds1"]
    out = mds.set_output(transform="pandas").transform(X[:3])
    assert isinstance(out, pd.DataFrame) and out.columns.tolist() == ["kernelmds0", "kernelmds1"]
    df = pd.DataFrame(X, columns=list("abcd"))
    Z = KernelMDS(None, kernel="linear").set_output(transform="pandas").fit_transform(df)
    assert Z.columns.tolist() == [f"kernelmds{i}" for i in range(4)]


def test_inverse_transform_errors():
    X = _data(30)
    assert not hasattr(KernelMDS(kernel="rbf").fit(X), "inverse_transform")
    with pytest.raises(NotFittedError):
        KernelMDS(fit_inverse_transform=True).inverse_transform(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Cannot fit_inverse_transform with a precomputed"):
        KernelMDS(kernel="precomputed", fit_inverse_transform=True).fit(X @ X.T)
    with pytest.raises(ValueError, match="GeodesicKernel depends on the training set"):
        KernelMDS(kernel=GeodesicKernel(n_neighbors=5), fit_inverse_transform=True).fit(X)
    mds = KernelMDS(2, kernel="rbf", fit_inverse_transform=True).fit(X)
    with pytest.raises(ValueError, match="X must have 2 columns"):
        mds.inverse_transform(np.zeros((2, 3)))
