"""scikit-learn's Laplacian, chi² and sigmoid kernels as library kernels."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics.pairwise import chi2_kernel, laplacian_kernel, sigmoid_kernel

from kernel_patterns import KernelKMeans, KernelMDS, SpectralClustering
from kernel_patterns.kernels import Chi2, Laplacian, Sigmoid, make_kernel, make_operator


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_values_are_scikit_learns(iris):
    X, _ = iris
    np.testing.assert_allclose(Laplacian(0.3)(X), laplacian_kernel(X, gamma=0.3))
    np.testing.assert_allclose(Chi2(0.5)(X, X[:7]), chi2_kernel(X, X[:7], gamma=0.5))
    np.testing.assert_allclose(Sigmoid(0.01, 0.5)(X), sigmoid_kernel(X, gamma=0.01, coef0=0.5))
    for k in (Laplacian(0.3), Chi2(0.5), Sigmoid(0.01, 0.5)):
        np.testing.assert_allclose(k.diag(X), np.diag(k(X)), rtol=1e-12)


@pytest.mark.parametrize(("name", "cls"), [("laplacian", Laplacian), ("chi2", Chi2),
                                           ("sigmoid", Sigmoid)])
def test_names_resolve(name, cls):
    assert isinstance(make_kernel(name), cls)


@pytest.mark.parametrize("cls", [Laplacian, Sigmoid])
def test_scale_width_does_not_depend_on_units(iris, cls):
    X, _ = iris
    np.testing.assert_allclose(cls()(X), cls()(1000.0 * X), rtol=1e-10, atol=1e-12)
    op = make_operator(cls(), X)
    assert isinstance(op.kernel.gamma, float)
    with pytest.raises(ValueError, match="with_data_scale"):
        cls()(X, X)


def test_estimators_take_the_new_kernels(iris):
    X, y = iris
    km = KernelKMeans(3, kernel="laplacian", random_state=0).fit(X)
    assert adjusted_rand_score(y, km.labels_) > 0.5
    assert isinstance(km.kernel_.gamma, float)
    sc = SpectralClustering(3, kernel="chi2", random_state=0).fit(X)
    assert adjusted_rand_score(y, sc.labels_) > 0.5
    with pytest.warns(UserWarning, match="not positive semi-definite"):  # tanh is not PSD
        E = KernelMDS(2, kernel="sigmoid").fit_transform(X)
    assert E.shape == (150, 2) and np.all(np.isfinite(E))


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="non-negative features"):
        Chi2()(np.array([[1.0, -1.0]]))
    with pytest.raises(ValueError, match="gamma must be"):
        Laplacian(gamma="auto")(np.eye(2))
    with pytest.raises(ValueError, match="gamma must be > 0"):
        Sigmoid(gamma=-1.0)(np.eye(2))
