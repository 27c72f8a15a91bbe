"""The GP variance function of Kim & Lee (2007), eq. 3.1, and its closed-form gradient.

``σ²(x) = κ(x) − k(x)ᵀ C⁻¹ k(x)`` with ``C = K(X, X)`` (the noise ``v2`` of eq. 2.7 on its
diagonal), ``k(x) = [C(x, x_1), ..., C(x, x_N)]`` and ``κ(x) = C(x, x)`` (eq. 2.5, where the
δ_ij term of eq. 2.7 makes κ include ``v2``; a constant shift that moves the level r* with it).

Everything is batched over many query points, one kernel block ``K(Q, X)`` at a time. The
values alone take one triangular solve with the Cholesky factor ``L`` of ``C``; values with
gradients take one GEMM with ``C⁻¹``, formed once from ``L`` (the noise ``v2`` on the diagonal
of ``C`` keeps it as well conditioned as the solves), and the kernel's gradient contraction
(:meth:`~kernel_patterns.kernels.Kernel.pairwise_gradient_from_gram`: two GEMMs, never an
``n × N × d`` array).
"""

from __future__ import annotations

import contextlib
import warnings
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np
from scipy.linalg import LinAlgError, cholesky
from scipy.linalg.blas import dtrsm
from scipy.linalg.lapack import dpotri

from ..._parallel import check_cancelled, single_blas_thread
from ..._validation import FloatArray
from ..._warnings import user_stacklevel
from ...kernels import Kernel, make_operator

#: relative jitter tried, in order, when the Cholesky factorisation of C fails.
_JITTERS = (0.0, 1e-10, 1e-8, 1e-6, 1e-4)
#: query points per block (bounds the ``block × N`` kernel block held at once).
_BLOCK = 2048
#: products of fewer multiply-adds run on one BLAS thread (:func:`blas_threads`).
_SMALL_FLOPS = 512 * 2000**2
#: the factorisation and inverse of C run on one BLAS thread up to this N³.
_FACTOR_FLOPS = 4096**3


class VarianceFunction(Protocol):
    """What the flow and the segment checks need of a variance model.

    Implemented by :class:`GPVarianceModel` (exact, eq. 3.1) and
    :class:`~._inducing.InducingVarianceModel` (DTC/FITC inducing points).

    Examples
    --------
    Both fitted models satisfy it, so the flow and the segment checks take either:

    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import fit_variance_model
    >>> from kernel_patterns.cluster.gp._inducing import (
    ...     choose_inducing_points, fit_inducing_model)
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> kernel = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0)
    >>> U = choose_inducing_points(X, 3, "kmeans", np.random.RandomState(0))
    >>> for model in (fit_variance_model(kernel, X), fit_inducing_model(kernel, X, U)):
    ...     value, grad = model.value_and_gradient(X)
    ...     print(type(model).__name__, value.shape, grad.shape)
    GPVarianceModel (6,) (6, 2)
    InducingVarianceModel (6,) (6, 2)
    """

    kernel: Kernel

    def variance(self, Q: FloatArray) -> FloatArray:
        """σ²(q) for every row of ``Q``, clipped at 0."""
        ...

    def value_and_gradient(self, Q: FloatArray) -> tuple[FloatArray, FloatArray]:
        """σ²(q) and ∇σ²(q) for every row of ``Q``."""
        ...

    def gradient(self, Q: FloatArray) -> FloatArray:
        """∇σ²(q) for every row of ``Q``."""
        ...


class BlockedVariance(ABC):
    """The evaluation loop both variance models share (exact and inducing points).

    ``σ²(q) = κ(q) − e(q)`` with the *explained* variance ``e`` of the subclass
    (``_explained``), evaluated ``_block_rows`` query points at a time, clipped at 0; the
    gradient ``∇σ² = ∇κ − 2 Σ_j β_j(q) ∇k(q, x_j)`` from the subclass's
    ``_block_value_and_gradient`` (returning ``e`` and the sum), with ``∇κ = 0`` for
    stationary kernels and ``2 ∂₁k(x, x)`` otherwise (errata 2: a closed form, no numerical
    gradients).
    """

    kernel: Kernel
    #: query points per block (bounds the ``block × N`` kernel block held at once).
    _block_rows: ClassVar[int] = _BLOCK

    def _kappa(self, Q: FloatArray) -> FloatArray:
        return np.asarray(self.kernel.pairwise_diag(Q), dtype=np.float64)

    @abstractmethod
    def _explained(self, Qb: FloatArray) -> FloatArray:
        """``e(q) = k(q)ᵀ C⁻¹ k(q)`` (or its inducing-point form) for a block of queries."""

    @abstractmethod
    def _block_value_and_gradient(self, Qb: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``e(q)`` and ``Σ_j β_j(q) ∇k(q, x_j)`` for a block of queries."""

    def variance(self, Q: FloatArray) -> FloatArray:
        """σ²(q) for every row of ``Q``, clipped at 0."""
        out = np.empty(Q.shape[0])
        step = self._block_rows
        for a in range(0, Q.shape[0], step):
            check_cancelled()  # a ladder's rung not needed any more stops here
            Qb = Q[a : a + step]
            out[a : a + step] = self._kappa(Qb) - self._explained(Qb)
        np.maximum(out, 0.0, out=out)
        return out

    def value_and_gradient(self, Q: FloatArray) -> tuple[FloatArray, FloatArray]:
        """σ²(q) (clipped at 0) and its closed-form gradient ∇σ²(q) for every row of ``Q``."""
        n = Q.shape[0]
        val = np.empty(n)
        grad = np.empty(Q.shape)
        step = self._block_rows
        for a in range(0, n, step):
            check_cancelled()
            Qb = Q[a : a + step]
            explained, g = self._block_value_and_gradient(Qb)
            val[a : a + step] = self._kappa(Qb) - explained
            g *= -2.0
            if not self.kernel.stationary:
                g += 2.0 * _self_gradient(self.kernel, Qb)
            grad[a : a + step] = g
        np.maximum(val, 0.0, out=val)
        return val, grad

    def gradient(self, Q: FloatArray) -> FloatArray:
        """∇σ²(q) for every row of ``Q``."""
        return self.value_and_gradient(Q)[1]


@dataclass
class GPVarianceModel(BlockedVariance):
    """A fitted variance function: training points, kernel, the Cholesky factor of C and C⁻¹.

    Attributes
    ----------
    kernel : Kernel
        A differentiable kernel (e.g. :class:`~kernel_patterns.kernels.GPCovariance`).
    X : ndarray of shape (n_samples, n_features)
        Training points (float64).
    L : ndarray of shape (n_samples, n_samples)
        Lower Cholesky factor of ``C + jitter·I``.
    jitter : float
        Absolute jitter added to the diagonal (0 when C factorised as is).
    Cinv : ndarray of shape (n_samples, n_samples), default=None
        ``(C + jitter·I)⁻¹``, formed from ``L`` when not given.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import GPVarianceModel, fit_variance_model
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> isinstance(model, GPVarianceModel), model.L.shape
    (True, (6, 6))
    >>> np.round(model.variance(np.array([[0.1, 0.1], [1.5, 1.5]])), 3)  # low near the data
    array([1.292, 2.377])
    """

    kernel: Kernel
    X: FloatArray
    L: FloatArray
    jitter: float = 0.0
    Cinv: FloatArray | None = None

    def __post_init__(self) -> None:
        if not self.L.flags.f_contiguous:  # the triangular solves of _explained want LAPACK order
            self.L = np.asfortranarray(self.L)
        if self.Cinv is None:
            with blas_threads(self.L.shape[0], self.L.shape[0], _FACTOR_FLOPS):
                self.Cinv = _inverse_from_cholesky(self.L)

    def _weights(self, Qb: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The kernel block ``K(Qb, X)`` and ``A = K(Qb, X) C⁻¹`` (rows: α(q)ᵀ = (C⁻¹k(q))ᵀ).

        One GEMM with the inverse formed once from the Cholesky factor, instead of two
        triangular solves per evaluation (faster on the flow; C has the noise v2 on its
        diagonal, so its inverse is as well conditioned as the solves).
        """
        Kq = np.asarray(self.kernel.pairwise(Qb, self.X, same=False), dtype=np.float64)
        assert self.Cinv is not None
        with blas_threads(Qb.shape[0], self.Cinv.shape[0]):
            return Kq, Kq @ self.Cinv

    def _block_value_and_gradient(self, Qb: FloatArray) -> tuple[FloatArray, FloatArray]:
        # ∇σ² = ∇κ − 2 Σ_j (C⁻¹k)_j ∇k_j: the sum part, reusing the kernel block
        Kq, A = self._weights(Qb)
        g = self.kernel.pairwise_gradient_from_gram(Qb, self.X, Kq, A)
        return np.einsum("ij,ij->i", Kq, A), g

    def _explained(self, Qb: FloatArray) -> FloatArray:
        """``‖L⁻¹k(q)‖²``: one triangular solve, half the multiply-adds of the GEMM with C⁻¹.

        The value alone (segment checks, r*) needs no ``α = C⁻¹k``; the solve on the kernel
        block's transpose (a Fortran-order view, solved in place) costs less than
        ``K(Q, X) C⁻¹`` and its row sums, and agrees with it to round-off
        (``tests/cluster/gp/test_variance.py``; timing in
        ``benchmarks/results/gp_design_notes.md``).
        """
        Kq = np.asarray(self.kernel.pairwise(Qb, self.X, same=False), dtype=np.float64)
        if not Kq.flags.c_contiguous or Kq.base is not None:
            Kq = np.array(Kq, order="C")  # a block of our own, overwritten by the solve
        with blas_threads(Qb.shape[0], self.L.shape[0]):
            Z = dtrsm(1.0, self.L, Kq.T, lower=1, overwrite_b=1)
        return np.einsum("ij,ij->j", Z, Z)

    def at_training_points(self) -> tuple[FloatArray, FloatArray]:
        """:meth:`value_and_gradient` at the training points ``X``, without the GEMM with C⁻¹.

        At x_i the kernel row is column i of C without its noise and jitter ν, so
        ``α = C⁻¹k(x_i) = e_i − ν C⁻¹e_i``: the weights are ``I − ν C⁻¹``, read from C⁻¹
        (O(N²) instead of the 2N³ of the block product; the same values to round-off, and
        closer to exact ones, since ``K C⁻¹`` is not formed). Used for r* and the flow's first
        step: 2 × N of the rows a fit evaluates. Without noise and jitter (ν = 0, σ² = 0 at
        every training point) the block product is used, round-off and all, as before.
        """
        assert self.Cinv is not None
        X = self.X
        n = X.shape[0]
        nu = float(self.kernel.diagonal_noise()) + self.jitter
        if nu <= 0.0:
            return self.value_and_gradient(X)
        val = np.empty(n)
        grad = np.empty(X.shape)
        step = self._block_rows
        for a in range(0, n, step):
            check_cancelled()
            b = min(a + step, n)
            Kq = np.asarray(self.kernel.pairwise(X[a:b], X, same=False), dtype=np.float64)
            A = self.Cinv[a:b] * -nu
            A[np.arange(b - a), np.arange(a, b)] += 1.0
            val[a:b] = self._kappa(X[a:b]) - np.einsum("ij,ij->i", Kq, A)
            g = self.kernel.pairwise_gradient_from_gram(X[a:b], X, Kq, A)
            g *= -2.0
            if not self.kernel.stationary:
                g += 2.0 * _self_gradient(self.kernel, X[a:b])
            grad[a:b] = g
        np.maximum(val, 0.0, out=val)
        return val, grad


def blas_threads(
    rows: int, width: int, limit: float = _SMALL_FLOPS
) -> AbstractContextManager[Any]:
    """One BLAS thread for a ``rows × width`` by ``width × width`` product under
    ``_SMALL_FLOPS`` (512 query rows against 2,000 training points).

    The flow's later iterations and the staged segment checks make hundreds of such small
    products, and on a loaded machine each one waits on a second BLAS thread longer than
    that thread saves. The large products (the first flow steps, every point at once) keep
    the threads they are given. The results agree to round-off (labels and SEPs checked on
    the 2-D shapes). The Cholesky factorisation and inverse of C (``limit=_FACTOR_FLOPS``:
    N ≤ 4,096) too. Timings: ``benchmarks/results/gp_design_notes.md``.
    """
    if float(rows) * width * width >= limit:
        return contextlib.nullcontext()
    return single_blas_thread()


def _inverse_from_cholesky(L: FloatArray) -> FloatArray:
    """``C⁻¹`` from the lower Cholesky factor of C (LAPACK potri), as a full symmetric array."""
    inv, info = dpotri(L, lower=1)
    if info != 0:  # pragma: no cover - L comes from a successful Cholesky
        raise ValueError(f"the GP covariance matrix could not be inverted (potri info={info}).")
    inv = np.tril(inv)
    inv += np.tril(inv, -1).T
    return inv


def _self_gradient(kernel: Kernel, Q: FloatArray, block: int = 256) -> FloatArray:
    """``∂₁k(x, y)|_{y = x}`` for every row (a diagonal of contract_gradient, in blocks)."""
    out = np.empty(Q.shape)
    for a in range(0, Q.shape[0], block):
        Qb = Q[a : a + block]
        out[a : a + block] = kernel.pairwise_gradient(Qb, Qb, np.eye(Qb.shape[0]))
    return out


def fit_variance_model(kernel: Kernel, X: FloatArray) -> GPVarianceModel:
    """Factorise ``C = K(X, X)`` (noise on the diagonal) by Cholesky, with jitter escalation.

    The training matrix comes through the kernel operator (used once, for the factorisation).
    When C is not numerically positive definite (duplicates, no noise), a jitter of
    ``1e-10 … 1e-4`` times the mean diagonal is added with a warning; if even that fails, a
    ``ValueError`` says the covariance is not positive definite.

    Parameters
    ----------
    kernel : Kernel
        A differentiable covariance (e.g. :class:`~kernel_patterns.kernels.GPCovariance`).
    X : ndarray of shape (n_samples, n_features)
        Training points.

    Returns
    -------
    GPVarianceModel

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import fit_variance_model
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> model.jitter, np.round(model.variance(X[:2]), 3)
    (0.0, array([1.314, 1.301]))
    """
    C = make_operator(kernel, X, operator="dense", dtype=np.float64).to_dense()
    scale = float(np.mean(np.diag(C))) if C.size else 1.0
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(
            "the GP covariance matrix is not positive definite (its diagonal is not positive); "
            "check the kernel parameters."
        )
    for rel in _JITTERS:
        jitter = rel * scale
        A = C if jitter == 0.0 else C + jitter * np.eye(C.shape[0])
        try:
            with blas_threads(A.shape[0], A.shape[0], _FACTOR_FLOPS):
                L = cholesky(A, lower=True, check_finite=False)
        except LinAlgError:
            continue
        if not np.all(np.isfinite(L)):
            continue
        if jitter:
            warnings.warn(
                f"the GP covariance matrix was not numerically positive definite; added a "
                f"jitter of {jitter:.3g} to its diagonal (give the kernel some noise v2 > 0, "
                "or remove duplicate points).",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        return GPVarianceModel(kernel=kernel, X=X, L=L, jitter=jitter)
    raise ValueError(
        "the GP covariance matrix is not positive definite, even with a jitter of "
        f"{_JITTERS[-1]:g} × its mean diagonal; use a kernel with noise (v2 > 0) or a "
        "positive-definite kernel."
    )
