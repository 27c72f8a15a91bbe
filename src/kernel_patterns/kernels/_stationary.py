"""Stationary kernels, k(x, y) = f(r²) with r² a (weighted) squared distance.

Squared distances come from the GEMM identity r² = |x|² + |y|² − 2 x·y on data centred at
the mean of X (translation does not change r² but removes most of the cancellation), in
blocks, and never from an ``n × m × d`` difference array.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse

from .._validation import FloatArray, check_number
from ._base import Kernel, ScaledGamma, data_variance, dense_dot, row_sq_norms


@dataclass
class _Scaled:
    """Data scaled by √l and centred, with squared row norms: what every block reuses."""

    Z: FloatArray
    sq: FloatArray


def _sqdist(Za: FloatArray, sqa: FloatArray, Zb: FloatArray, sqb: FloatArray) -> FloatArray:
    """Squared distances by the GEMM identity, clipped at 0, in the dtype of ``Za`` (either
    may be scipy.sparse: then the product is a sparse GEMM with a dense result)."""
    D = dense_dot(Za, Zb)
    D *= -2.0
    D += sqa[:, None]
    D += sqb[None, :]
    np.maximum(D, 0.0, out=D)
    return D


def _center(X: Any, Y: Any) -> FloatArray:
    """The translation applied to both sides before the GEMM: X's mean when both are dense,
    none when one is sparse (a sparse side cannot be centred and stay sparse)."""
    if sparse.issparse(X) or sparse.issparse(Y):
        return np.zeros(X.shape[1], dtype=X.dtype)
    return np.asarray(X.mean(axis=0))


class StationaryKernel(Kernel):
    """k(x, y) = f(r²), r² = Σ_m s_m (x_m − y_m)²; subclasses give ``s``, ``f`` and ``f'``.

    Subclasses implement ``_profile`` (f, in place on r²), ``_profile_slope`` (f' from
    K = f(r²)) and ``_f0`` (f(0)), and may override ``_scales`` (the weights s, default all
    ones); the Gram blocks, diagonal and gradients follow.

    Examples
    --------
    The Cauchy kernel ``1 / (1 + r²)``, whose slope is ``−K²``:

    >>> import numpy as np
    >>> from kernel_patterns.kernels import StationaryKernel
    >>> class Cauchy(StationaryKernel):
    ...     def _profile(self, sq):
    ...         sq += 1.0
    ...         return np.reciprocal(sq, out=sq)
    ...     def _profile_slope(self, K):
    ...         return -(K**2)
    ...     def _f0(self):
    ...         return 1.0
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0]])
    >>> np.round(Cauchy()(X), 4)
    array([[1.    , 0.3333],
           [0.3333, 1.    ]])
    >>> Cauchy().gradient(X).shape
    (2, 2, 2)
    """

    differentiable: ClassVar[bool] = True
    stationary: ClassVar[bool] = True

    def _scales(self, n_features: int) -> FloatArray | None:
        """Per-feature weights s_m of the squared distance (None: all ones)."""
        return None

    @abstractmethod
    def _profile(self, sq: FloatArray) -> FloatArray:
        """f(r²), computed in place on ``sq``."""

    @abstractmethod
    def _profile_slope(self, K: FloatArray) -> FloatArray:
        """f'(r²) expressed from K = f(r²) (a new array)."""

    @abstractmethod
    def _f0(self) -> float:
        """f(0), the diagonal value without noise."""

    # ------------------------------------------------------------------
    def prepare(self, X: FloatArray, center: FloatArray | None = None) -> _Scaled:
        s = self._scales(X.shape[1])
        if sparse.issparse(X):  # not centred: that would make it dense
            Xs: Any = X
            Z: Any = Xs if s is None else Xs.multiply(
                np.sqrt(s).astype(X.dtype, copy=False)[None, :]).tocsr()
            return _Scaled(Z=Z, sq=row_sq_norms(Z))
        if center is None:
            center = X.mean(axis=0)
        Z = X - center
        if s is not None:
            Z *= np.sqrt(s).astype(X.dtype, copy=False)
        return _Scaled(Z=Z, sq=np.einsum("ij,ij->i", Z, Z))

    def block(
        self, prepared: _Scaled, start: int, stop: int, cols: slice | None = None
    ) -> FloatArray:
        Zb = prepared.Z if cols is None else prepared.Z[cols]
        sqb = prepared.sq if cols is None else prepared.sq[cols]
        D = _sqdist(prepared.Z[start:stop], prepared.sq[start:stop], Zb, sqb)
        # Exact zeros where a row meets its own point (the identity leaves round-off there).
        c0 = 0 if cols is None else (cols.start or 0)
        c1 = prepared.Z.shape[0] if cols is None else (cols.stop or prepared.Z.shape[0])
        lo, hi = max(start, c0), min(stop, c1)
        if lo < hi:
            idx = np.arange(lo, hi)
            D[idx - start, idx - c0] = 0.0
        return self._profile(D)

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        center = _center(X, Y)
        pa = self.prepare(X, center)
        if same:
            K = self.block(pa, 0, X.shape[0])
            noise = self.diagonal_noise()
            if noise:
                K[np.diag_indices_from(K)] += noise
            return K
        pb = self.prepare(Y, center)
        return self._profile(_sqdist(pa.Z, pa.sq, pb.Z, pb.sq))

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        return np.full(X.shape[0], self._f0() + self.diagonal_noise(), dtype=X.dtype)

    def pairwise_gradient(self, X: FloatArray, Y: FloatArray, W: FloatArray) -> FloatArray:
        # ∇_x f(r²) = 2 f'(r²) s ⊙ (x − y), so Σ_j W_ij ∇ = 2 s ⊙ (x_i Σ_j G_ij − (G Y)_i)
        # with G = W ∘ f'(r²): two GEMMs, no n × m × d array.
        center = X.mean(axis=0)
        pa, pb = self.prepare(X, center), self.prepare(Y, center)
        K = self._profile(_sqdist(pa.Z, pa.sq, pb.Z, pb.sq))
        return self.pairwise_gradient_from_gram(X, Y, K, W)

    def pairwise_gradient_from_gram(
        self, X: FloatArray, Y: FloatArray, K: FloatArray, W: FloatArray
    ) -> FloatArray:
        """:meth:`pairwise_gradient` from the Gram block ``K = pairwise(X, Y)`` already at
        hand (a stationary kernel's gradient is a function of its value): no second kernel
        evaluation. ``K`` is not modified."""
        G = self._profile_slope(K)
        G *= W
        out = X * G.sum(axis=1)[:, None] - G @ Y
        out *= 2.0
        s = self._scales(X.shape[1])
        if s is not None:
            out *= s.astype(X.dtype, copy=False)
        return out


class RBF(ScaledGamma, StationaryKernel):
    """Gaussian (RBF) kernel ``k(x, y) = exp(−γ ‖x − y‖²)``.

    Parameters
    ----------
    gamma : float or "scale", default="scale"
        Inverse squared length scale (``γ = 1 / (2 σ²)``); must be positive. ``"scale"``
        takes it from the training data as scikit-learn's ``SVC`` does,
        ``γ = 1 / (n_features · X.var())`` (1 when X is constant): the same kernel matrix
        whatever the units of X. Estimators resolve it in ``fit`` (their ``kernel_`` holds
        the number); ``RBF()(X)`` resolves it from ``X``; a kernel between two different sets
        needs :meth:`with_data_scale` first.
        The width follows ``X * c + b`` for a scalar c > 0 and a shift b the same on every
        column; not a different shift per column (``X.var()`` is over all entries, the column
        means' spread included, as in ``SVC``): centre or standardise the columns first when
        their means differ by more than their spreads.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF
    >>> K = RBF(gamma=0.5)(np.array([[0.0, 0.0], [1.0, 1.0]]))
    >>> np.round(K, 4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """

    accepts_sparse: ClassVar[bool] = True

    def __init__(self, gamma: float | str = "scale") -> None:
        self.gamma = gamma

    def _spread(self, X: FloatArray) -> float:
        return data_variance(X)

    def _profile(self, sq: FloatArray) -> FloatArray:
        sq *= -self._gamma()
        return np.exp(sq, out=sq)

    def _profile_slope(self, K: FloatArray) -> FloatArray:
        return K * (-self._gamma())

    def _f0(self) -> float:
        self._gamma()
        return 1.0


class GPCovariance(StationaryKernel):
    """The GP covariance of eq. 2.7 of the GP clustering paper (Kim & Lee 2007).

    ``C(x_i, x_j) = v0 exp(−½ Σ_m l_m (x_i^m − x_j^m)²) + v1 + δ_ij v2``

    ``l`` holds *inverse squared* length scales (errata 4: l = 400 on data scaled to [0, 1]
    is a length scale of 0.05); ``v1`` is a constant (bias) term and ``v2`` the noise, added
    on the diagonal only when the two arguments are the same points (``Y is None``).

    Parameters
    ----------
    v0 : float, default=1.0
        Signal variance (> 0).
    v1 : float, default=0.0
        Constant term (≥ 0).
    v2 : float, default=0.0
        Noise variance on the diagonal of ``K(X)`` (≥ 0).
    l : float or array-like of shape (n_features,), default=1.0
        Inverse squared length scale, one for all features or one per feature (ARD).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import GPCovariance
    >>> k = GPCovariance(v0=1, v1=10, v2=0.5, l=[400, 200])
    >>> X = np.array([[0.0, 0.0], [0.05, 0.1]])
    >>> np.round(k(X), 4)     # off-diagonal: exp(-(400·0.0025 + 200·0.01)/2) + 10
    array([[11.5   , 10.2231],
           [10.2231, 11.5   ]])
    >>> k.length_scale()
    array([0.05      , 0.07071068])
    """

    def __init__(
        self,
        v0: float = 1.0,
        v1: float = 0.0,
        v2: float = 0.0,
        l: float | ArrayLike = 1.0,
    ) -> None:
        self.v0 = v0
        self.v1 = v1
        self.v2 = v2
        self.l = l

    def _check(self) -> None:
        check_number(self.v0, "v0", low=0.0)
        check_number(self.v1, "v1", low=0.0, strict=False)
        check_number(self.v2, "v2", low=0.0, strict=False)

    def _scales(self, n_features: int) -> FloatArray:
        self._check()
        l = self.l
        if isinstance(l, float) and 0.0 < l < np.inf:  # one positive scale (and np.float64)
            return np.full(n_features, l, dtype=np.float64)  # the common case, without arrays
        lv = np.atleast_1d(np.asarray(l, dtype=np.float64))
        if lv.ndim != 1 or not np.all(np.isfinite(lv)) or np.any(lv <= 0):
            raise ValueError(
                f"l must be positive and finite (scalar or one per feature); got {self.l!r}."
            )
        if lv.size == 1:
            return np.full(n_features, lv[0])
        if lv.size != n_features:
            raise ValueError(
                f"l has {lv.size} entries but the data has {n_features} features; "
                "give a scalar or one value per feature."
            )
        return lv

    def length_scale(self) -> FloatArray:
        """Length scales ``1 / √l`` (one per entry of ``l``)."""
        lv = np.atleast_1d(np.asarray(self.l, dtype=np.float64))
        return 1.0 / np.sqrt(lv)

    def _profile(self, sq: FloatArray) -> FloatArray:
        sq *= -0.5
        np.exp(sq, out=sq)
        if self.v0 != 1.0:
            sq *= self.v0
        if self.v1:
            sq += self.v1
        return sq

    def _profile_slope(self, K: FloatArray) -> FloatArray:
        # f = v0 e^{-r²/2} + v1  ⇒  f' = −½ v0 e^{-r²/2} = −½ (f − v1)
        out = K - self.v1
        out *= -0.5
        return out

    def _f0(self) -> float:
        self._check()
        return float(self.v0 + self.v1)

    def diagonal_noise(self) -> float:
        self._check()
        return float(self.v2)

