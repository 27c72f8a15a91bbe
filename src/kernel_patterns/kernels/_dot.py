"""Dot-product kernels (linear, polynomial, cosine), precomputed Gram matrices and callables."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, check_finite, check_matrix, check_number
from ._base import Kernel, dense_dot, row_sq_norms


class Linear(Kernel):
    """Linear kernel ``k(x, y) = x·y``.

    Examples
    --------
    >>> from kernel_patterns.kernels import Linear
    >>> Linear()([[1.0, 2.0]], [[3.0, 4.0]])
    array([[11.]])
    """

    differentiable: ClassVar[bool] = True
    accepts_sparse: ClassVar[bool] = True

    def __init__(self) -> None:
        pass

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        return dense_dot(X, Y)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        return row_sq_norms(X)

    def pairwise_gradient(self, X: FloatArray, Y: FloatArray, W: FloatArray) -> FloatArray:
        return W @ Y


class Polynomial(Kernel):
    """Polynomial kernel ``k(x, y) = (γ x·y + c0)^degree``.

    Parameters
    ----------
    degree : int, default=3
    gamma : float, default=1.0
    coef0 : float, default=1.0

    Examples
    --------
    >>> from kernel_patterns.kernels import Polynomial
    >>> Polynomial(degree=2, gamma=1.0, coef0=1.0)([[1.0, 2.0]], [[3.0, 4.0]])
    array([[144.]])
    """

    differentiable: ClassVar[bool] = True
    accepts_sparse: ClassVar[bool] = True

    def __init__(self, degree: int = 3, gamma: float = 1.0, coef0: float = 1.0) -> None:
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    def _check(self) -> None:
        d = self.degree
        if isinstance(d, bool) or not isinstance(d, Integral) or d < 1:
            raise ValueError(f"degree must be a positive integer; got {d!r}.")
        check_number(self.gamma, "gamma", low=0.0)
        check_number(self.coef0, "coef0")

    def _base(self, X: FloatArray, Y: FloatArray) -> FloatArray:
        self._check()
        B = dense_dot(X, Y)
        B *= self.gamma
        B += self.coef0
        return B

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        B = self._base(X, Y)
        return np.power(B, self.degree, out=B)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        self._check()
        return (self.gamma * row_sq_norms(X) + self.coef0) ** self.degree

    def pairwise_gradient(self, X: FloatArray, Y: FloatArray, W: FloatArray) -> FloatArray:
        B = self._base(X, Y)
        G = self.degree * self.gamma * B ** (self.degree - 1)
        G *= W
        return G @ Y


class Cosine(Kernel):
    """Cosine kernel ``k(x, y) = x·y / (‖x‖ ‖y‖)``: one minus the distance of eq. 10 of the
    soft geodesic kernel k-means paper. Zero rows are rejected (the cosine is undefined).

    Examples
    --------
    >>> from kernel_patterns.kernels import Cosine
    >>> Cosine()([[1.0, 0.0]], [[1.0, 1.0]]).round(4)
    array([[0.7071]])
    """

    differentiable: ClassVar[bool] = True
    accepts_sparse: ClassVar[bool] = True

    def __init__(self) -> None:
        pass

    @staticmethod
    def _norms(X: FloatArray, name: str) -> FloatArray:
        n = np.sqrt(row_sq_norms(X))
        if np.any(n == 0):
            raise ValueError(
                f"{name} has {int(np.sum(n == 0))} all-zero row(s); the cosine kernel is "
                "undefined for them."
            )
        return n

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        nx = self._norms(X, "X")
        ny = nx if same else self._norms(Y, "Y")
        K = dense_dot(X, Y)
        K /= nx[:, None]
        K /= ny[None, :]
        if same:
            K[np.diag_indices_from(K)] = 1.0
        return K

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        self._norms(X, "X")
        return np.ones(X.shape[0], dtype=X.dtype)

    def pairwise_gradient(self, X: FloatArray, Y: FloatArray, W: FloatArray) -> FloatArray:
        # ∇_x [x·y/(|x||y|)] = y/(|x||y|) − (x·y) x/(|x|³|y|)
        nx, ny = self._norms(X, "X"), self._norms(Y, "Y")
        K = (X @ Y.T) / nx[:, None] / ny[None, :]
        first = (W / ny[None, :]) @ Y / nx[:, None]
        second = X * (np.sum(W * K, axis=1) / nx**2)[:, None]
        return first - second


class Precomputed(Kernel):
    """A Gram matrix given by the user: ``X`` *is* the kernel.

    ``Precomputed()(K)`` returns a validated copy of the square matrix ``K``;
    ``Precomputed()(K_new, None)`` with a non-square ``K_new`` of shape (n_new, n_train) is the
    kernel between new points and the training points, used by ``predict``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import Precomputed
    >>> K = np.array([[1.0, 0.5], [0.5, 1.0]])
    >>> Precomputed()(K)
    array([[1. , 0.5],
           [0.5, 1. ]])
    >>> Precomputed().diag(K)
    array([1., 1.])
    """

    def __init__(self) -> None:
        pass

    def __call__(self, X: ArrayLike, Y: ArrayLike | None = None) -> FloatArray:
        if Y is not None:
            raise ValueError("A precomputed kernel takes one argument, the kernel matrix itself.")
        return check_matrix(X, "K", copy=True)

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        raise ValueError(
            "A precomputed kernel cannot be evaluated on feature vectors; pass the kernel matrix."
        )

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        return check_square_kernel(X).diagonal().copy()


class CallableKernel(Kernel):
    """Any callable ``func(X, Y, **params)`` returning the Gram block, as a kernel.

    Parameters
    ----------
    func : callable
        ``func(X, Y, **params)`` → array of shape (len(X), len(Y)). It is called with ``Y = X``
        for the kernel of a data set with itself.
    params : dict, default=None
        Extra keyword arguments for ``func``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import CallableKernel
    >>> k = CallableKernel(lambda X, Y, c=1.0: (X @ Y.T + c) ** 2, params={"c": 0.0})
    >>> k(np.array([[1.0, 2.0]]))
    array([[25.]])
    """

    def __init__(self, func: Callable[..., Any], params: dict[str, Any] | None = None) -> None:
        self.func = func
        self.params = params

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        if not callable(self.func):
            raise TypeError(f"func must be callable; got {type(self.func).__name__}.")
        K = np.asarray(self.func(X, Y, **(self.params or {})), dtype=X.dtype)
        if K.shape != (X.shape[0], Y.shape[0]):
            raise ValueError(
                f"the kernel callable returned shape {K.shape}; expected "
                f"{(X.shape[0], Y.shape[0])}."
            )
        check_finite(K, "the kernel callable's output")
        return K

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        # One row at a time would call func n times; blocks of 1,024 keep it vectorised.
        out = np.empty(X.shape[0], dtype=X.dtype)
        for a in range(0, X.shape[0], 1024):
            b = min(a + 1024, X.shape[0])
            out[a:b] = np.diagonal(self.pairwise(X[a:b], X[a:b]))
        return out


def check_square_kernel(
    K: ArrayLike,
    name: str = "K",
    *,
    check_psd: bool = False,
    psd_rtol: float = 1e-8,
    symmetric_rtol: float = 1e-10,
) -> FloatArray:
    """Validate a precomputed kernel matrix: square, finite, symmetric and, optionally, PSD.

    The PSD test computes the smallest eigenvalue (ARPACK for large matrices) and rejects
    ``λ_min < −psd_rtol · λ_max``.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        The kernel matrix.
    name : str, default="K"
        Its name in error messages.
    check_psd : bool, default=False
        Also reject a matrix that is not positive semidefinite.
    psd_rtol : float, default=1e-8
        Relative tolerance of the PSD test (×1e4 for float32).
    symmetric_rtol : float, default=1e-10
        Relative tolerance of the symmetry test (×1e5 for float32).

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
        The validated matrix.

    Examples
    --------
    >>> check_square_kernel([[1.0, 2.0], [2.0, 1.0]], check_psd=True)
    Traceback (most recent call last):
    ...
    ValueError: K is not positive semidefinite: smallest eigenvalue -1 (largest 3). ...
    """
    A = check_matrix(K, name)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square kernel matrix; got shape {A.shape}.")
    scale = max(float(np.max(np.abs(A))), float(np.finfo(A.dtype).tiny))
    asym = _asymmetry(A) if A.shape[0] <= 20000 else _sampled_asymmetry(A)
    if asym > symmetric_rtol * scale * (1e5 if A.dtype == np.float32 else 1.0):
        raise ValueError(
            f"{name} is not symmetric (largest |K - K.T| = {asym:.3g}); a kernel matrix must be."
        )
    if check_psd:
        rtol = psd_rtol * (1e4 if A.dtype == np.float32 else 1.0)
        ok, lo, hi = psd_check(A, rtol)
        if not ok:
            low = f"{lo:.3g}" if lo is not None else f"below {-rtol * hi:.3g}"
            raise ValueError(
                f"{name} is not positive semidefinite: smallest eigenvalue {low} "
                f"(largest {hi:.3g}). Use a PSD kernel, or shift/clip its spectrum first."
            )
    return A


def _asymmetry(A: FloatArray, block: int = 1024) -> float:
    """``max |A - Aᵀ|`` by row blocks: no N × N temporary."""
    worst = 0.0
    for a in range(0, A.shape[0], block):
        b = min(a + block, A.shape[0])
        worst = max(worst, float(np.max(np.abs(A[a:b] - A[:, a:b].T))))
    return worst


def _sampled_asymmetry(A: FloatArray) -> float:
    rng = np.random.default_rng(0)
    i = rng.integers(0, A.shape[0], 200_000)
    j = rng.integers(0, A.shape[0], 200_000)
    return float(np.max(np.abs(A[i, j] - A[j, i])))


def psd_check(A: FloatArray, rtol: float) -> tuple[bool, float | None, float]:
    """Whether ``λ_min(A) ≥ −rtol·λ_max(A)``, with ``(ok, λ_min or None, λ_max)``.

    Small matrices (n ≤ 600) get a full ``eigvalsh``. Larger ones get the top eigenvalue from
    ARPACK and a Cholesky factorisation of ``A + rtol·λ_max·I``, which succeeds exactly when
    the test passes (ARPACK's smallest eigenvalue converges badly when many eigenvalues sit
    near 0, as for RBF kernels). Beyond 6,000 points the Cholesky runs on a random 4,000-point
    principal submatrix: a failure there proves ``A`` is not PSD, a success is evidence only.
    """
    n = A.shape[0]
    A64 = A.astype(np.float64, copy=False)
    if n <= 600:
        w = np.linalg.eigvalsh(A64)
        return bool(w[0] >= -rtol * max(abs(w[-1]), 1e-300)), float(w[0]), float(w[-1])
    from scipy.sparse.linalg import ArpackNoConvergence, eigsh

    v0 = np.random.default_rng(0).uniform(-1, 1, n)
    try:
        hi = float(eigsh(A64, k=1, which="LA", return_eigenvectors=False, v0=v0, tol=1e-6,
                         rng=np.random.default_rng(0))[0])
    except ArpackNoConvergence:  # pragma: no cover - a bound is enough here
        hi = float(np.max(np.abs(A64).sum(axis=1)))
    if n > 6000:
        idx = np.sort(np.random.default_rng(0).choice(n, 4000, replace=False))
        S = A64[np.ix_(idx, idx)]
    else:
        S = A64.copy()
    S[np.diag_indices_from(S)] += rtol * max(abs(hi), 1e-300)
    try:
        np.linalg.cholesky(S)
    except np.linalg.LinAlgError:
        return False, None, hi
    return True, None, hi
