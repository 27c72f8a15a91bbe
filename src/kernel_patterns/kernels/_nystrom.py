"""Nyström approximation behind the kernel-operator seam.

``K ≈ F Fᵀ`` with features ``F = C U_r Λ_r^{-1/2}``, where ``C = K(X, L)`` is the kernel
between all points and ``m`` landmarks ``L`` and ``U_r Λ_r U_rᵀ`` is the best rank-``r``
part of the landmark block ``W = K(L, L)`` (the rank-restricted Nyström method; Wang, Gittens
& Mahoney, JMLR 2019). Everything an algorithm asks of an operator comes from ``F``:
``K @ V = F (Fᵀ V)`` costs O(N r k) and memory O(N r), never N².

Landmarks are chosen ``"uniform"`` (without replacement), by ``"kmeans++"`` (D² sampling with
the feature-space distance), or by approximate ridge ``"leverage"`` scores computed from a
uniform Nyström sketch; every random choice goes through ``random_state``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from scipy import sparse
from sklearn.utils import check_random_state

from .._parallel import limit_threads
from .._validation import FloatArray, check_matrix, check_same_features
from ._base import Kernel, check_kernel_input
from ._dot import Precomputed
from ._memory import check_dense_fits
from ._operator_base import KernelOperator, check_operand

Landmarks = Literal["uniform", "kmeans++", "leverage"]
#: landmarks of every approximation when ``n_landmarks`` is None (Nyström columns, landmark
#: geodesic kernel, the distributed Nyström fits), capped at the number of samples.
DEFAULT_N_LANDMARKS = 300

_BLOCK = 65_536


def kernel_columns(
    kernel: Kernel, X: FloatArray, L: FloatArray, dtype: np.dtype[Any]
) -> FloatArray:
    """``K(X, L)`` in row blocks (no N × N anywhere).

    Parameters
    ----------
    kernel : Kernel
        The kernel (its unchecked ``pairwise`` is called block by block).
    X : ndarray of shape (n_samples, n_features)
        The points.
    L : ndarray of shape (n_landmarks, n_features)
        The landmarks.
    dtype : numpy dtype
        Precision of the result.

    Returns
    -------
    ndarray of shape (n_samples, n_landmarks)

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF
    >>> from kernel_patterns.utils import kernel_columns
    >>> X = np.random.RandomState(0).normal(size=(20, 2))
    >>> C = kernel_columns(RBF(gamma=0.5), X, X[:5], np.dtype("float32"))
    >>> C.shape, C.dtype, bool(np.allclose(np.diag(C[:5]), 1.0))
    ((20, 5), dtype('float32'), True)
    """
    out = np.empty((X.shape[0], L.shape[0]), dtype=dtype)
    Lc = L.astype(dtype, copy=False)
    for a in range(0, X.shape[0], _BLOCK):
        out[a : a + _BLOCK] = kernel.pairwise(X[a : a + _BLOCK].astype(dtype, copy=False), Lc)
    return out


def nystrom_factor(C: FloatArray, W: FloatArray, rank: int | None) -> tuple[FloatArray, FloatArray]:
    """``F = C U_r Λ_r^{-1/2}`` and the map ``U_r Λ_r^{-1/2}`` (eigenvalues ≤ tol dropped).

    Parameters
    ----------
    C : ndarray of shape (n_samples, n_landmarks)
        Kernel columns ``K(X, L)`` (:func:`kernel_columns`).
    W : ndarray of shape (n_landmarks, n_landmarks)
        The landmarks' kernel block ``K(L, L)``.
    rank : int or None
        Keep at most this many leading eigenvalues (None: all above the tolerance).

    Returns
    -------
    F : ndarray of shape (n_samples, r)
        Features with ``K ≈ F Fᵀ``.
    M : ndarray of shape (n_landmarks, r)
        The map ``U_r Λ_r^{-1/2}``: features of new points are ``K(Y, L) M``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF
    >>> from kernel_patterns.utils import kernel_columns, nystrom_factor
    >>> X = np.random.RandomState(0).normal(size=(20, 2))
    >>> C = kernel_columns(RBF(gamma=0.5), X, X[:5], np.dtype("float64"))
    >>> F, M = nystrom_factor(C, C[:5], rank=None)
    >>> F.shape, M.shape, bool(np.allclose(F[:5] @ F[:5].T, C[:5]))
    ((20, 5), (5, 5), True)
    """
    # One BLAS thread: an m x m eigh gains nothing from two threads and loses 10x when the
    # cores are contended (measured at m = 300: 0.2 s vs 2.7 s under load).
    with limit_threads(1, "blas"):
        w, U = np.linalg.eigh(W.astype(np.float64))
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    # cut-off in the precision of C: float32 rounding in C is amplified by 1/sqrt(λ)
    tol = max(float(w[0]), 0.0) * W.shape[0] * np.finfo(C.dtype).eps * 10
    keep = w > tol
    if rank is not None:
        keep &= np.arange(w.size) < rank
    if not np.any(keep):
        raise ValueError("the landmark kernel block is numerically zero; choose other landmarks")
    M = U[:, keep] / np.sqrt(w[keep])
    return (C @ M.astype(C.dtype)), M


def kmeanspp_landmarks(
    kernel: Kernel, X: FloatArray, m: int, rng: np.random.RandomState
) -> np.ndarray:
    """D² sampling with the feature-space distance ``k(x,x) − 2k(x,l) + k(l,l)``.

    Parameters
    ----------
    kernel : Kernel
        The kernel defining the feature space.
    X : ndarray of shape (n_samples, n_features)
        The points.
    m : int
        Number of landmarks.
    rng : numpy.random.RandomState
        Source of the random choices.

    Returns
    -------
    ndarray of shape (m,)
        Indices of the chosen landmarks into ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF
    >>> from kernel_patterns.utils import kmeanspp_landmarks
    >>> X = np.random.RandomState(0).normal(size=(20, 2))
    >>> idx = kmeanspp_landmarks(RBF(gamma=0.5), X, 3, np.random.RandomState(0))
    >>> idx.shape, len(set(idx.tolist()))
    ((3,), 3)
    """
    n = X.shape[0]
    diag = kernel.pairwise_diag(X)
    chosen = [int(rng.randint(n))]
    d2 = np.maximum(diag - 2 * kernel.pairwise(X, X[chosen]).ravel() + diag[chosen[0]], 0.0)
    for _ in range(1, m):
        total = d2.sum()
        nxt = int(rng.randint(n)) if total <= 0 else int(rng.choice(n, p=d2 / total))
        chosen.append(nxt)
        d_new = diag - 2 * kernel.pairwise(X, X[[nxt]]).ravel() + diag[nxt]
        np.minimum(d2, np.maximum(d_new, 0.0), out=d2)
        d2[chosen] = 0.0
    return np.array(chosen)


def leverage_landmarks(
    kernel: Kernel, X: FloatArray, m: int, rng: np.random.RandomState, dtype: np.dtype[Any]
) -> np.ndarray:
    """Sample ``m`` landmarks with probability ∝ approximate ridge leverage scores.

    A uniform sketch with ``m`` landmarks gives features ``F``; the ridge leverage of point i
    is ``F_i (FᵀF + λ I)⁻¹ F_iᵀ`` with ``λ`` the mean diagonal of K over ``m``.

    Parameters
    ----------
    kernel : Kernel
        The kernel.
    X : ndarray of shape (n_samples, n_features)
        The points.
    m : int
        Number of landmarks (at most ``n_samples``).
    rng : numpy.random.RandomState
        Source of the random choices.
    dtype : numpy dtype
        Precision of the sketch's kernel columns.

    Returns
    -------
    ndarray of shape (m,)
        Distinct indices of the chosen landmarks into ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF
    >>> from kernel_patterns.utils import leverage_landmarks
    >>> X = np.random.RandomState(0).normal(size=(20, 2))
    >>> idx = leverage_landmarks(RBF(gamma=0.5), X, 3, np.random.RandomState(0),
    ...                          np.dtype("float64"))
    >>> idx.shape, len(set(idx.tolist()))
    ((3,), 3)
    """
    n = X.shape[0]
    idx = rng.choice(n, size=m, replace=False)
    C = kernel_columns(kernel, X, X[idx], dtype)
    F, _ = nystrom_factor(C, C[idx], None)
    F64 = F.astype(np.float64)
    lam = float(np.mean(kernel.pairwise_diag(X[: min(n, 10_000)]))) * n / m
    G = F64.T @ F64 + lam * np.eye(F64.shape[1])
    scores = np.einsum("ij,ij->i", F64 @ np.linalg.inv(G), F64)
    p = np.maximum(scores, 1e-12)
    return rng.choice(n, size=m, replace=False, p=p / p.sum())


class LowRankKernelOperator(KernelOperator):
    """``K = F Fᵀ`` from a feature matrix ``F`` (n_samples × r): products in O(N r k).

    The base of every low-rank operator (Nyström, landmark geodesic): subclasses set
    ``features`` and may override :meth:`transform` (features of new points), which
    :meth:`cross` uses.

    Parameters
    ----------
    features : ndarray of shape (n_samples, r)
    kernel, X : optional
        The kernel and training points the features stand for (None when unknown).

    Examples
    --------
    >>> import numpy as np
    >>> F = np.arange(6.0).reshape(3, 2)
    >>> op = LowRankKernelOperator(F)
    >>> bool(np.allclose(op.matmat(np.eye(3)), F @ F.T)), op.rank
    (True, 2)
    """

    features: FloatArray

    def landmark_map(self) -> tuple[np.ndarray, FloatArray] | None:
        if self.landmark_indices is None or self.feature_map is None:
            return None
        return self.landmark_indices, self.feature_map

    def __init__(
        self, features: ArrayLike, kernel: Kernel | None = None, X: FloatArray | None = None
    ) -> None:
        F = check_matrix(features, "features")
        self.features = F
        self.n_samples = F.shape[0]
        self.dtype = F.dtype
        self.kernel = kernel
        self.X = X
        #: Nyström operators: the landmarks' rows of X and the map ``U_r Λ_r^{-1/2}``
        #: (see :meth:`landmark_map`); None for other low-rank operators.
        self.landmark_indices: np.ndarray | None = None
        self.feature_map: FloatArray | None = None

    @property
    def rank(self) -> int:
        """The number of feature columns kept."""
        return int(self.features.shape[1])

    def low_rank_factor(self) -> FloatArray:
        return self.features

    def matmat(self, V: ArrayLike) -> FloatArray:
        Va, vec = check_operand(V, self.n_samples, self.dtype)
        FtV = np.asarray(Va.T @ self.features).T if sparse.issparse(Va) else self.features.T @ Va
        out = self.features @ FtV
        return out.ravel() if vec else out

    def diag(self) -> FloatArray:
        return np.einsum("ij,ij->i", self.features, self.features)

    def rows(self, start: int, stop: int) -> FloatArray:
        return self.features[start:stop] @ self.features.T

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        return self.features[idx] @ self.features.T

    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        check_dense_fits(self.n_samples, self.n_samples, self.dtype, memory_budget)
        return self.features @ self.features.T

    def transform(self, Y: ArrayLike) -> FloatArray:
        """Features of new points (``K(Y, X) ≈ transform(Y) Fᵀ``)."""
        raise ValueError("this low-rank operator has no features for new points.")

    def cross(self, Y: ArrayLike) -> FloatArray:
        """Approximate ``K(Y, X)`` = features(Y) Fᵀ."""
        return self.transform(Y) @ self.features.T


class NystromKernelOperator(LowRankKernelOperator):
    """Low-rank ``K ≈ F Fᵀ`` from ``n_components`` landmarks; same interface as the exact ones.

    Parameters
    ----------
    kernel : Kernel
        A positive semidefinite kernel (not ``Precomputed``).
    X : ndarray of shape (n_samples, n_features)
    n_components : int
        Number of landmarks ``m`` (≤ n_samples).
    rank : int, default=None
        Keep the top ``rank`` eigenpairs of the landmark block (default: all of them that are
        numerically positive).
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
    dtype : float32 or float64, default=float64
    random_state : int, RandomState or None

    Attributes
    ----------
    features : ndarray of shape (n_samples, r)
        ``F`` with ``K ≈ F Fᵀ``.
    landmark_indices : ndarray of shape (n_components,)

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF, NystromKernelOperator, make_operator
    >>> X = np.random.default_rng(0).normal(size=(200, 2))
    >>> full = NystromKernelOperator(RBF(0.5), X, n_components=200, random_state=0)
    >>> exact = make_operator(RBF(0.5), X)
    >>> bool(np.allclose(full.matmat(np.eye(200)), exact.to_dense(), atol=1e-6))
    True
    """

    def __init__(
        self,
        kernel: Kernel,
        X: ArrayLike,
        n_components: int,
        *,
        rank: int | None = None,
        landmarks: Landmarks = "uniform",
        dtype: DTypeLike = np.float64,
        random_state: Any = None,
    ) -> None:
        if isinstance(kernel, Precomputed):
            raise ValueError("the Nystrom operator needs a kernel function, not 'precomputed'.")
        Xv = check_kernel_input(kernel, X)
        n = Xv.shape[0]
        if isinstance(n_components, bool) or not isinstance(n_components, (int, np.integer)):
            raise TypeError(f"n_components must be an integer; got {n_components!r}.")
        if not 1 <= n_components <= n:
            raise ValueError(
                f"n_components must be between 1 and n_samples={n}; got {n_components}."
            )
        if rank is not None and not 1 <= rank <= n_components:
            raise ValueError(f"rank must be between 1 and n_components; got {rank}.")
        if landmarks not in ("uniform", "kmeans++", "leverage"):
            raise ValueError(
                f"landmarks must be 'uniform', 'kmeans++' or 'leverage'; got {landmarks!r}."
            )
        self.kernel = kernel
        self.X = Xv
        self.n_samples = n
        self.dtype = np.dtype(dtype)
        rng = check_random_state(random_state)
        if landmarks == "uniform":
            idx = np.sort(rng.choice(n, size=n_components, replace=False))
        elif landmarks == "kmeans++":
            idx = kmeanspp_landmarks(kernel, Xv, n_components, rng)
        else:
            idx = leverage_landmarks(kernel, Xv, n_components, rng, self.dtype)
        self.landmark_indices = idx
        C = kernel_columns(kernel, Xv, Xv[idx], self.dtype)
        self.features, self.feature_map = nystrom_factor(C, C[idx], rank)

    def transform(self, Y: ArrayLike) -> FloatArray:
        """Features of new points: ``K(Y, L) U_r Λ_r^{-1/2}``."""
        assert self.X is not None and self.kernel is not None
        Yv = check_kernel_input(self.kernel, Y, "X")
        check_same_features(self.X, Yv, "the training data", "X")
        L = self.X[self.landmark_indices]
        C = kernel_columns(self.kernel, Yv, L, self.dtype)
        assert self.feature_map is not None
        return C @ self.feature_map.astype(self.dtype)
