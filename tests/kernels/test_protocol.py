"""The estimator side of the kernel protocol: ``data_dependent``, ``for_training_data`` and
``low_rank_operator`` are what estimators and ``make_operator`` read (no ``hasattr``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kernel_patterns import KernelKMeans, KernelMDS, NuRanking, SpectralClustering
from kernel_patterns.kernels import (
    RBF,
    GeodesicKernel,
    Kernel,
    LowRankKernelOperator,
    make_operator,
)


class _Centred(Kernel):
    """A data-dependent linear kernel: the dot product after removing the training mean."""

    data_dependent = True

    def fit(self, X: Any, y: Any = None) -> _Centred:
        self.mean_ = np.asarray(X).mean(axis=0)
        return self

    def pairwise(self, X: Any, Y: Any, same: bool = False) -> Any:
        return (X - self.mean_) @ (Y - self.mean_).T

    def pairwise_diag(self, X: Any) -> Any:
        return np.einsum("ij,ij->i", X - self.mean_, X - self.mean_)


class _Features(Kernel):
    """A kernel that is low-rank by construction: K = F Fᵀ with F the first two features."""

    def pairwise(self, X: Any, Y: Any, same: bool = False) -> Any:
        return X[:, :2] @ Y[:, :2].T

    def pairwise_diag(self, X: Any) -> Any:
        return np.einsum("ij,ij->i", X[:, :2], X[:, :2])

    def low_rank_operator(self, X: Any, dtype: Any) -> LowRankKernelOperator:
        return LowRankKernelOperator(np.asarray(X, dtype=dtype)[:, :2], kernel=self)


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(5, 0.3, (20, 3)), rng.normal(8, 0.3, (20, 3))])
    return X, np.repeat([1, 2], 20)


def test_defaults_of_the_protocol() -> None:
    X, _ = _data()
    assert not RBF.data_dependent and GeodesicKernel.data_dependent
    fixed = RBF(0.5)
    assert fixed.for_training_data(X) is fixed  # nothing to set: the kernel itself
    assert RBF().for_training_data(X).gamma == pytest.approx(1 / (3 * X.var()))
    assert RBF(0.5).low_rank_operator(X, np.float64) is None
    assert GeodesicKernel().low_rank_operator(X, np.float64) is None  # exact: no low rank
    assert GeodesicKernel(approximation="landmark", n_landmarks=10).low_rank_operator(
        X, np.float64) is not None


@pytest.mark.parametrize("make", [
    lambda k: KernelKMeans(2, kernel=k, random_state=0),
    lambda k: SpectralClustering(2, kernel=k, matrix="K", random_state=0),
    lambda k: KernelMDS(kernel=k),
    lambda k: NuRanking(nu=0.2, kernel=k),
], ids=["KernelKMeans", "SpectralClustering", "KernelMDS", "NuRanking"])
def test_a_data_dependent_kernel_is_fitted_on_a_clone(make: Any) -> None:
    X, y = _data()
    kernel = _Centred()
    est = make(kernel).fit(X, y)
    assert not hasattr(kernel, "mean_")  # the user's kernel is left as it was
    assert isinstance(est.kernel_, _Centred)
    np.testing.assert_allclose(est.kernel_.mean_, X.mean(axis=0))


def test_make_operator_returns_the_kernels_own_low_rank_operator() -> None:
    X, _ = _data()
    op = make_operator(_Features(), X)
    assert isinstance(op, LowRankKernelOperator)
    np.testing.assert_allclose(op.to_dense(), X[:, :2] @ X[:, :2].T)


def test_nystrom_refuses_a_data_dependent_kernel() -> None:
    X, _ = _data()
    with pytest.raises(ValueError, match="needs a fixed kernel function; _Centred"):
        KernelKMeans(2, kernel=_Centred(), approximation="nystrom").fit(X)
