"""scikit-learn's other pairwise kernels as :class:`Kernel` objects: Laplacian, chi², sigmoid.

The values come from :mod:`sklearn.metrics.pairwise` (``laplacian_kernel``, ``chi2_kernel``,
``sigmoid_kernel``); these classes add what the library's kernels have: a data-driven width
``gamma="scale"`` where the kernel has a width, validation naming the argument, and the
extension protocol the operators call (``pairwise``, ``pairwise_diag``). None of them is
differentiable here (GP clustering needs :class:`RBF` or :class:`GPCovariance`).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.metrics.pairwise import chi2_kernel, laplacian_kernel, sigmoid_kernel

from .._validation import FloatArray, check_number
from ._base import Kernel, ScaledGamma, data_variance, row_sq_norms


class Laplacian(ScaledGamma):
    """Laplacian kernel ``k(x, y) = exp(−γ ‖x − y‖₁)``.

    Parameters
    ----------
    gamma : float or "scale", default="scale"
        Inverse length scale; ``"scale"`` is ``1 / (n_features · X.std())`` of the training
        data (the L1 distance grows linearly with the units, as the RBF's squared distance
        grows with the variance), so the kernel matrix does not depend on the units of X.

    Examples
    --------
    >>> from kernel_patterns.kernels import Laplacian
    >>> Laplacian(gamma=0.5)([[0.0, 0.0]], [[1.0, 1.0]]).round(4)
    array([[0.3679]])
    """

    accepts_sparse: ClassVar[bool] = True

    def __init__(self, gamma: float | str = "scale") -> None:
        self.gamma = gamma

    def _spread(self, X: FloatArray) -> float:
        return float(np.sqrt(max(data_variance(X), 0.0)))

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        return np.asarray(laplacian_kernel(X, Y, gamma=self._gamma()), dtype=X.dtype)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        self._gamma()
        return np.ones(X.shape[0], dtype=X.dtype)


class Chi2(Kernel):
    """Exponential chi² kernel ``k(x, y) = exp(−γ Σ_j (x_j − y_j)² / (x_j + y_j))`` for
    non-negative features (histograms, counts), as scikit-learn's ``chi2_kernel``.

    Parameters
    ----------
    gamma : float, default=1.0

    Examples
    --------
    >>> from kernel_patterns.kernels import Chi2
    >>> Chi2()([[1.0, 0.0]], [[0.0, 1.0]]).round(4)
    array([[0.1353]])
    """

    def __init__(self, gamma: float = 1.0) -> None:
        self.gamma = gamma

    @staticmethod
    def _check_non_negative(X: FloatArray, name: str) -> None:
        if X.size and float(np.min(X)) < 0:
            raise ValueError(
                f"the chi2 kernel needs non-negative features; {name} has a value of "
                f"{float(np.min(X)):.3g}."
            )

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        gamma = check_number(self.gamma, "gamma", low=0.0)
        self._check_non_negative(X, "X")
        self._check_non_negative(Y, "Y")
        return np.asarray(chi2_kernel(X, Y, gamma=gamma), dtype=X.dtype)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        check_number(self.gamma, "gamma", low=0.0)
        self._check_non_negative(X, "X")
        return np.ones(X.shape[0], dtype=X.dtype)


class Sigmoid(ScaledGamma):
    """Sigmoid kernel ``k(x, y) = tanh(γ x·y + c0)`` (not positive semi-definite in general:
    kernel k-means and MDS then work with an indefinite matrix, as scikit-learn's ``SVC``
    does).

    Parameters
    ----------
    gamma : float or "scale", default="scale"
        ``"scale"`` is ``1 / (n_features · X.var())`` of the training data, as the sigmoid
        kernel of scikit-learn's ``SVC``.
    coef0 : float, default=0.0

    Examples
    --------
    >>> from kernel_patterns.kernels import Sigmoid
    >>> Sigmoid(gamma=1.0, coef0=0.0)([[1.0, 0.0]], [[1.0, 1.0]]).round(4)
    array([[0.7616]])
    """

    accepts_sparse: ClassVar[bool] = True

    def __init__(self, gamma: float | str = "scale", coef0: float = 0.0) -> None:
        self.gamma = gamma
        self.coef0 = coef0

    def _spread(self, X: FloatArray) -> float:
        return data_variance(X)

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        coef0 = check_number(self.coef0, "coef0")
        return np.asarray(sigmoid_kernel(X, Y, gamma=self._gamma(), coef0=coef0), dtype=X.dtype)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        coef0 = check_number(self.coef0, "coef0")
        return np.tanh(self._gamma() * row_sq_norms(X) + coef0).astype(X.dtype)
