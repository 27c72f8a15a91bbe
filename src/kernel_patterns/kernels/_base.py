"""The kernel protocol: ``__call__(X, Y=None)``, ``diag(X)`` and gradients.

A kernel is a small, scikit-learn-clonable object (parameters stored in ``__init__``,
``get_params``/``set_params`` from :class:`sklearn.base.BaseEstimator`). It has two surfaces:

* for users, the validating methods ``__call__``, ``diag``, ``gradient`` and
  ``contract_gradient``;
* for solvers, kernel operators and new kernels (the *extension protocol*), the unchecked
  methods that take validated float arrays of one dtype and never copy or check them:
  ``pairwise(X, Y, same=False)`` (a Gram block), ``pairwise_diag(X)`` (its diagonal, noise
  included), ``pairwise_gradient(X, Y, W)`` (the gradient contraction, differentiable kernels
  only), ``diagonal_noise()`` (what ``same=True`` adds to ``K[i, i]``) and the block hooks
  ``prepare(X)`` / ``block(prepared, start, stop, cols)`` the operators call tile by tile;
* for estimators, what a kernel declares about its training data: ``needs_data_scale()`` /
  ``with_data_scale(X)`` (a width chosen from the data, ``RBF(gamma="scale")``),
  ``data_dependent`` (a function of the training set as a whole, fitted on it:
  :class:`GeodesicKernel`), ``for_training_data(X)`` (the kernel an estimator fits with,
  both of the above applied) and ``low_rank_operator(X, dtype)`` (a kernel that is low-rank
  by construction offers its own ``K = F Fᵀ`` operator, which ``make_operator`` returns).

A new kernel subclasses :class:`Kernel` and implements ``pairwise`` and ``pairwise_diag``
(and ``pairwise_gradient`` with ``differentiable = True``); everything else follows.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator, clone

from .._validation import (
    FloatArray,
    check_magnitude,
    check_matrix,
    check_number,
    check_same_features,
)

if TYPE_CHECKING:
    from numpy.typing import DTypeLike

    from ._operator_base import KernelOperator


class Kernel(BaseEstimator, metaclass=ABCMeta):
    """Base class of every kernel.

    Subclasses implement ``pairwise(X, Y, same)`` (a Gram block between validated arrays)
    and ``pairwise_diag(X)``; differentiable kernels also implement
    ``pairwise_gradient(X, Y, W)`` and set ``differentiable = True``. These protocol methods
    do not validate their input (see the module docstring); the public ``__call__``,
    ``diag``, ``gradient`` and ``contract_gradient`` do.

    Examples
    --------
    A new kernel needs only the two protocol methods:

    >>> import numpy as np
    >>> from kernel_patterns.kernels import Kernel
    >>> class Dot(Kernel):
    ...     def pairwise(self, X, Y, same=False):
    ...         return X @ Y.T
    ...     def pairwise_diag(self, X):
    ...         return np.einsum("ij,ij->i", X, X)
    >>> X = np.array([[1.0, 2.0], [0.0, 1.0]])
    >>> Dot()(X)
    array([[5., 2.],
           [2., 1.]])
    >>> Dot().diag(X)
    array([5., 1.])
    """

    #: whether ``gradient`` and ``contract_gradient`` are available.
    differentiable: ClassVar[bool] = False
    #: whether the kernel depends on x - y only (then data may be centred before a GEMM).
    stationary: ClassVar[bool] = False
    #: whether ``pairwise``/``pairwise_diag`` take scipy.sparse CSR rows (dot-product kernels,
    #: the RBF kernel by the GEMM identity, Laplacian, sigmoid); see :func:`check_kernel_input`.
    accepts_sparse: ClassVar[bool] = False
    #: whether the kernel is a function of the training set as a whole (``fit(X)`` learns
    #: it, as :class:`GeodesicKernel` does): estimators fit a clone on their training points
    #: (:meth:`for_training_data`); it cannot be evaluated at Nyström landmarks alone nor on
    #: coordinates other than the training points' (pre-images).
    data_dependent: ClassVar[bool] = False

    # ------------------------------------------------------------------ public API
    def __call__(self, X: ArrayLike, Y: ArrayLike | None = None) -> FloatArray:
        """Gram matrix ``K[i, j] = k(x_i, y_j)``; ``Y=None`` means ``Y = X`` (same points).

        Parameters
        ----------
        X : array-like of shape (n_x, n_features)
        Y : array-like of shape (n_y, n_features), default=None

        Returns
        -------
        K : ndarray of shape (n_x, n_y), or (n_x, n_x) when ``Y`` is None.
        """
        Xv = check_kernel_input(self, X, "X")
        if Y is None:
            return self.pairwise(Xv, Xv, same=True)
        Yv = check_kernel_input(self, Y, "Y")
        check_same_features(Xv, Yv)
        Xv, Yv = _common_dtype(Xv, Yv)
        return self.pairwise(Xv, Yv, same=False)

    def diag(self, X: ArrayLike) -> FloatArray:
        """The diagonal of ``self(X)`` without computing the matrix: ``k(x_i, x_i)``."""
        return self.pairwise_diag(check_kernel_input(self, X, "X"))

    def gradient(self, X: ArrayLike, Y: ArrayLike | None = None) -> FloatArray:
        """Gradient of ``k(x_i, y_j)`` with respect to ``x_i``, shape (n_x, n_y, n_features).

        This materialises an ``n_x × n_y × d`` array and is meant for small inputs and tests;
        algorithms use :meth:`contract_gradient`, which never builds it.
        """
        Xv, Yv = self._check_pair(X, Y)
        n, m, d = Xv.shape[0], Yv.shape[0], Xv.shape[1]
        out = np.empty((n, m, d), dtype=Xv.dtype)
        for j in range(m):
            W = np.zeros((n, m), dtype=Xv.dtype)
            W[:, j] = 1.0
            out[:, j, :] = self.pairwise_gradient(Xv, Yv, W)
        return out

    def contract_gradient(self, X: ArrayLike, Y: ArrayLike | None, W: ArrayLike) -> FloatArray:
        """``G[i] = Σ_j W[i, j] ∇_x k(x_i, y_j)``, shape (n_x, n_features), by GEMMs.

        This is the product every gradient-based solver needs (e.g. the gradient of a GP
        variance ``-2 (∂k/∂x)ᵀ C⁻¹k``) without an ``n_x × n_y × d`` temporary.
        """
        Xv, Yv = self._check_pair(X, Y)
        Wv = check_matrix(W, "W")
        if Wv.shape != (Xv.shape[0], Yv.shape[0]):
            raise ValueError(
                f"W must have shape (n_x, n_y) = {(Xv.shape[0], Yv.shape[0])}; got {Wv.shape}."
            )
        return self.pairwise_gradient(Xv, Yv, Wv.astype(Xv.dtype, copy=False))

    # ------------------------------------------------------------------ extension protocol
    # Unchecked: the arguments are validated float arrays of one dtype (solvers and operators
    # call these block by block; see the module docstring).
    def _check_pair(self, X: ArrayLike, Y: ArrayLike | None) -> tuple[FloatArray, FloatArray]:
        if not self.differentiable:
            raise TypeError(f"{type(self).__name__} is not differentiable; it has no gradient.")
        Xv = check_matrix(X, "X")
        if Y is None:
            return Xv, Xv
        Yv = check_matrix(Y, "Y")
        check_same_features(Xv, Yv)
        return _common_dtype(Xv, Yv)

    @abstractmethod
    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        """Gram block between validated arrays; ``same`` says X and Y are the same points."""

    @abstractmethod
    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        """``k(x_i, x_i)`` for validated ``X`` (noise included, as on the diagonal of K(X))."""

    def pairwise_gradient(self, X: FloatArray, Y: FloatArray, W: FloatArray) -> FloatArray:
        """``G[i] = Σ_j W[i, j] ∇_x k(x_i, y_j)`` for validated arrays (differentiable kernels)."""
        raise TypeError(f"{type(self).__name__} is not differentiable; it has no gradient.")

    def pairwise_gradient_from_gram(
        self, X: FloatArray, Y: FloatArray, K: FloatArray, W: FloatArray
    ) -> FloatArray:
        """:meth:`pairwise_gradient` when the Gram block ``K = pairwise(X, Y)`` is already at
        hand; kernels whose gradient follows from ``K`` (stationary ones) reuse it, the
        default ignores it."""
        return self.pairwise_gradient(X, Y, W)

    def needs_data_scale(self) -> bool:
        """Whether a parameter is still to be set from the training data (see
        :meth:`with_data_scale`)."""
        return False

    def with_data_scale(self, X: FloatArray) -> Kernel:
        """This kernel with its data-driven parameters (e.g. ``RBF(gamma="scale")``) set
        from the training points ``X``; kernels without such parameters return themselves.

        Estimators and :func:`~kernel_patterns.kernels.make_operator` call it on the training
        data, so the width they use is recorded in their fitted ``kernel_``.
        """
        return self

    def for_training_data(self, X: FloatArray) -> Kernel:
        """The kernel an estimator fits with on the training points ``X``: its data-driven
        parameters set (:meth:`with_data_scale`) and, for a :attr:`data_dependent` kernel,
        a clone fitted on ``X``. Estimators record the result as their fitted ``kernel_``.

        Parameters
        ----------
        X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
            The validated training points.

        Returns
        -------
        Kernel
            ``self`` when there is nothing to set, else a new kernel.

        Examples
        --------
        >>> import numpy as np
        >>> from kernel_patterns.kernels import RBF
        >>> RBF(gamma="scale").for_training_data(np.array([[0.0], [2.0]]))
        RBF(gamma=1.0)
        """
        if self.data_dependent:
            fitted: Kernel = clone(self).fit(X)
            return fitted
        return self.with_data_scale(X)

    def low_rank_operator(self, X: ArrayLike, dtype: DTypeLike) -> KernelOperator | None:
        """The operator ``K = F Fᵀ`` of a kernel that is low-rank by construction
        (``GeodesicKernel(approximation="landmark")``), which
        :func:`~kernel_patterns.kernels.make_operator` returns for ``approximation="exact"``
        instead of a dense or chunked one; None (the default) for every other kernel.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training points (a kernel that returns an operator validates them).
        dtype : numpy dtype
            Precision of the operator.

        Returns
        -------
        KernelOperator or None
        """
        return None

    # hooks used by the kernel operators ---------------------------------------
    def diagonal_noise(self) -> float:
        """Value added to ``K[i, i]`` when X and Y are the same points (GP noise ``v2``)."""
        return 0.0

    def prepare(self, X: FloatArray) -> Any:
        """Per-data precomputation reused across row blocks (default: the data itself)."""
        return X

    def block(
        self, prepared: Any, start: int, stop: int, cols: slice | None = None
    ) -> FloatArray:
        """Rows ``start:stop`` (and columns ``cols``) of ``K(X, X)`` from ``prepare(X)``,
        without the diagonal noise, which the operator adds."""
        X = prepared
        Y = X if cols is None else X[cols]
        return self.pairwise(X[start:stop], Y, same=False)


def check_kernel_input(kernel: Kernel, X: Any, name: str = "X", **kw: Any) -> FloatArray:
    """``check_matrix`` for data the kernel will see: scipy.sparse input (as CSR) when
    ``kernel.accepts_sparse``, else a ``TypeError`` naming the kernel; values whose squares
    overflow float64 (beyond ``MAX_MAGNITUDE``, 1e150) are a ``ValueError`` naming ``name``.

    Parameters
    ----------
    kernel : Kernel
        The kernel the data are for.
    X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        The data.
    name : str, default="X"
        The argument's name in error messages.
    **kw
        Passed on to the shared validation (``dtype``, ``min_samples``, ``copy``, ...).

    Returns
    -------
    X : ndarray or scipy.sparse CSR matrix
        The validated data.

    Examples
    --------
    >>> from scipy import sparse
    >>> from kernel_patterns.kernels import GPCovariance
    >>> check_kernel_input(GPCovariance(), sparse.eye(3))
    Traceback (most recent call last):
    ...
    TypeError: the kernel GPCovariance cannot take sparse input X; ...
    """
    if sparse.issparse(X) and not kernel.accepts_sparse:
        raise TypeError(
            f"the kernel {type(kernel).__name__} cannot take sparse input {name}; sparse data "
            "works with the 'linear', 'polynomial', 'cosine', 'rbf', 'laplacian' and "
            f"'sigmoid' kernels. Use one of them, or pass {name}.toarray()."
        )
    Xv = check_matrix(X, name, accept_sparse=kernel.accepts_sparse, **kw)
    check_magnitude(Xv, name)  # the kernel squares the values
    return Xv


def dense_dot(X: Any, Y: Any) -> FloatArray:
    """``X @ Y.T`` as a dense array, for dense or scipy.sparse X and Y."""
    if not (sparse.issparse(X) or sparse.issparse(Y)):
        return X @ Y.T
    P = X @ Y.T
    return np.asarray(P.toarray() if sparse.issparse(P) else P)


def row_sq_norms(X: Any) -> FloatArray:
    """``‖x_i‖²`` of every row, for a dense or scipy.sparse X, in X's dtype."""
    if sparse.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=X.dtype).ravel()
    return np.einsum("ij,ij->i", X, X)


def _common_dtype(X: FloatArray, Y: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Bring two float arrays to one dtype (float64 unless both are float32)."""
    if X.dtype == Y.dtype:
        return X, Y
    return X.astype(np.float64, copy=False), Y.astype(np.float64, copy=False)


def data_variance(X: Any) -> float:
    """Variance over all entries of a dense or scipy.sparse X (E[x²] − E[x]² when sparse)."""
    if sparse.issparse(X):
        mean = float(X.mean(dtype=np.float64))
        return float(X.multiply(X).mean(dtype=np.float64)) - mean**2
    return float(np.var(np.asarray(X, dtype=np.float64)))


class ScaledGamma(Kernel):
    """A kernel whose ``gamma`` may be ``"scale"``: set from the training data by
    :meth:`with_data_scale` as ``1 / (n_features · spread(X))`` (RBF, sigmoid: the variance
    over all entries, as scikit-learn's SVC; Laplacian: its square root)."""

    gamma: Any

    @abstractmethod
    def _spread(self, X: FloatArray) -> float:
        """The spread of the training data the width is scaled by."""

    def _gamma(self) -> float:
        if isinstance(self.gamma, str):
            if self.gamma != "scale":
                raise ValueError(f"gamma must be a number > 0 or 'scale'; got {self.gamma!r}.")
            raise ValueError(
                f"{type(self).__name__}(gamma='scale') takes its width from the training data: "
                "use it in an estimator (fit sets it), or call kernel.with_data_scale(X_train) "
                "first."
            )
        return check_number(self.gamma, "gamma", low=0.0)

    def needs_data_scale(self) -> bool:
        return isinstance(self.gamma, str)

    def with_data_scale(self, X: FloatArray) -> Self:
        if not isinstance(self.gamma, str):
            return self
        if self.gamma != "scale":
            raise ValueError(f"gamma must be a number > 0 or 'scale'; got {self.gamma!r}.")
        Xa: Any = X if sparse.issparse(X) else np.asarray(X, dtype=np.float64)
        spread = self._spread(Xa)
        d = max(int(Xa.shape[1]) if Xa.ndim == 2 else 1, 1)
        params = self.get_params()
        spread = float(spread)
        gamma = 1.0 / (d * spread) if spread > 0 else 1.0  # python floats: inf, no warning
        if not (np.isfinite(spread) and np.isfinite(gamma) and gamma > 0) or (
            spread == 0 and float(Xa.max()) != float(Xa.min())
        ):  # the spread or its reciprocal over- or underflowed (0 for data not constant)
            top = max(float(Xa.max()), -float(Xa.min()))
            raise ValueError(
                f"{type(self).__name__}(gamma='scale') sets gamma = 1 / (n_features · spread "
                f"of X), which is not a finite positive float64 for X of this scale (largest "
                f"absolute value {top:.3g}): rescale X (e.g. divide it by its largest absolute "
                "value, as scikit-learn's MaxAbsScaler does) or give gamma a number."
            )
        params["gamma"] = gamma
        return type(self)(**params)

    def __call__(self, X: ArrayLike, Y: ArrayLike | None = None) -> FloatArray:
        if isinstance(self.gamma, str) and Y is None:
            return self.with_data_scale(check_kernel_input(self, X, "X"))(X)
        return super().__call__(X, Y)
