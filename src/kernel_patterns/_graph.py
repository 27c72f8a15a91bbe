"""Affinity-graph matrices seen through a kernel operator (private).

The degree-based matrices of Remark 8.23 and Definition 8.31 of Shawe-Taylor & Cristianini
(chapter 8), D = diag(K 1):

* ``D^-1/2 K D^-1/2`` (normalised affinity), ``D^-1 K`` (random walk; its eigenvectors are
  ``D^-1/2`` times those of the normalised one, same eigenvalues),
* ``L = D − K`` (the Laplacian), whose *bottom* eigenvectors are the *top* eigenvectors of the
  shifted matrix ``σ I − L`` with σ = 2 max D ≥ λ_max(L) (Gershgorin).

All of them are products built on ``op.matmat``: the N × N matrix is never copied, scaled or
materialised here, so a chunked or sparse operator stays chunked or sparse.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from ._eigen import MatMat
from ._validation import FloatArray
from ._warnings import user_stacklevel
from .kernels import RBF, GPCovariance, KernelOperator, SparseKernelOperator, make_kernel
from .utils import is_precomputed


def min_affinity(op: KernelOperator) -> float:
    """The smallest entry of K (0 when the kernel cannot produce negative values).

    Free for RBF / GP covariance kernels, one pass over the stored entries for dense and sparse
    operators, one pass over recomputed row blocks otherwise.
    """
    kernel = op.kernel
    if isinstance(kernel, RBF) or (
        isinstance(kernel, GPCovariance) and float(np.min(kernel.v1)) >= 0
    ):
        return 0.0
    F = op.low_rank_factor()
    if F is not None:
        # K = F Fᵀ: scanning all N² entries would defeat the low rank. Check the block among
        # the landmarks (where the Nyström approximation reproduces K exactly) or, for other
        # low-rank operators, among 512 evenly spaced points.
        idx = getattr(op, "landmark_indices", None)
        if idx is None:
            idx = np.unique(np.linspace(0, op.n_samples - 1, 512).astype(np.intp))
        S = np.asarray(F[idx], dtype=np.float64)
        return float(np.min(S @ S.T))
    return op.min()


def check_affinity(op: KernelOperator, what: str, instead: str) -> FloatArray:
    """Reject negative affinities and return the degrees ``D = K 1`` (float64).

    ``what`` names the method in the error message and ``instead`` the caller's own way out
    besides a non-negative kernel (spectral clustering: ``matrix='K'``).
    """
    low = min_affinity(op)
    if low < 0:
        raise ValueError(
            f"{what} needs a degree matrix, so the affinity K must be non-negative; its "
            f"smallest entry is {low:.3g}. Use a non-negative kernel (e.g. 'rbf') or "
            f"{instead}."
        )
    return np.asarray(op.row_sums(), dtype=np.float64)


def check_positive_degrees(degrees: FloatArray, what: str) -> None:
    """Raise a clear error when a point has zero degree (an isolated vertex)."""
    bad = np.flatnonzero(degrees <= 0)
    if bad.size:
        shown = ", ".join(str(i) for i in bad[:5]) + (", ..." if bad.size > 5 else "")
        raise ValueError(
            f"{what} divides by the degrees D = K 1, but {bad.size} point(s) have zero degree "
            f"(isolated in the affinity graph: sample(s) {shown}). Widen the kernel (smaller "
            "gamma, more neighbours), drop those points, or use matrix='laplacian' or 'K'."
        )


def low_rank_degrees(
    F: FloatArray, degrees: FloatArray, what: str, components: str
) -> FloatArray:
    """Degrees of a low-rank affinity ``K ≈ F Fᵀ``, repaired where the approximation fails.

    For a non-negative affinity ``d_i = Σ_j K_ij ≥ K_ii``; an approximate K (Nyström) can
    break that, with a degree near or below 0 for points the landmarks represent badly, and
    ``D^-1/2`` would then blow up or be undefined. Such degrees are raised to the point's own
    approximate self-affinity ``‖F_i‖²`` (the lower bound that holds for the true K), with a
    warning naming the parameter ``components`` (the number of landmarks) to increase. A
    point whose features vanish keeps degree 0: it is isolated, and its scaling is 0 (see
    :func:`inverse_sqrt_degrees`).
    """
    self_affinity = np.einsum("ij,ij->i", F, F, dtype=np.float64)
    top = float(np.max(np.abs(degrees))) if degrees.size else 0.0
    tol = float(np.sqrt(np.finfo(F.dtype).eps)) * max(top, np.finfo(np.float64).tiny)
    bad = (degrees < self_affinity - tol) | (degrees <= 0)
    if not np.any(bad):
        return degrees
    n_neg = int(np.sum(degrees[bad] <= 0))
    n_zero = int(np.sum(self_affinity[bad] <= 0))
    isolated = (f"; {n_zero} of them have no feature at all (far from every landmark) and "
                "stay isolated" if n_zero else "")
    warnings.warn(
        f"{what}: the low-rank (Nyström) affinity gives {int(bad.sum())} point(s) a degree "
        f"below their own self-affinity ({n_neg} of them ≤ 0), which no non-negative kernel "
        f"matrix does; those degrees were raised to the self-affinity{isolated}. The "
        f"approximation is too coarse there: increase {components} (the number of "
        "landmarks), try landmarks='kmeans++', or widen the kernel.",
        UserWarning,
        stacklevel=user_stacklevel(),
    )
    out = degrees.copy()
    out[bad] = self_affinity[bad]
    return np.maximum(out, 0.0)


def inverse_sqrt_degrees(degrees: FloatArray) -> FloatArray:
    """``D^-1/2`` with 0 for isolated points (degree 0), float64."""
    pos = degrees > 0
    out = np.zeros_like(degrees, dtype=np.float64)
    out[pos] = 1.0 / np.sqrt(degrees[pos])
    return out


def normalized_matmat(op: KernelOperator, degrees: FloatArray) -> MatMat:
    """``V -> D^-1/2 K D^-1/2 V`` (no N × N temporary)."""
    s = (1.0 / np.sqrt(degrees)).astype(op.dtype)[:, None]
    product = op.matmat

    def matmat(V: FloatArray) -> FloatArray:
        V = np.asarray(V).reshape(op.n_samples, -1)
        return s * product(s * V)

    return matmat


def shifted_laplacian_matmat(op: KernelOperator, degrees: FloatArray) -> tuple[MatMat, float]:
    """``V -> (σ I − L) V = (σ − D) V + K V`` with σ = 2 max D, and σ itself."""
    sigma = 2.0 * float(np.max(degrees)) if degrees.size else 0.0
    sigma = max(sigma, float(np.finfo(np.float64).tiny))
    c = (sigma - degrees).astype(op.dtype)[:, None]
    product = op.matmat

    def matmat(V: FloatArray) -> FloatArray:
        V = np.asarray(V).reshape(op.n_samples, -1)
        return c * V + product(V)

    return matmat, sigma


def sparse_components(op: KernelOperator) -> int | None:
    """Number of connected components of a sparse affinity graph (None if not sparse)."""
    found = _sparse_component_labels(op)
    return None if found is None else found[0]


def _sparse_component_labels(op: KernelOperator) -> tuple[int, np.ndarray] | None:
    if not isinstance(op, SparseKernelOperator):
        return None
    A: Any = op.A
    n, labels = connected_components(sparse.csr_array(A != 0), directed=False)
    return int(n), labels


def check_sparse_symmetric(op: KernelOperator, name: str = "the precomputed affinity") -> None:
    """A sparse precomputed affinity must be symmetric (the eigensolvers assume it)."""
    if not isinstance(op, SparseKernelOperator) or op.A.nnz == 0:
        return
    A = op.A
    scale = float(np.max(np.abs(A.data)))
    diff = abs(A - A.T)
    asym = float(diff.max()) if diff.nnz else 0.0
    if asym > 1e-10 * scale * (1e5 if A.dtype == np.float32 else 1.0):
        raise ValueError(
            f"{name} is not symmetric (largest |K - K.T| = {asym:.3g}); symmetrise it, e.g. "
            "(A + A.T) / 2, first."
        )


def sparse_input_tag(kernel: Any, kernel_params: dict[str, Any] | None) -> bool:
    """scikit-learn's ``sparse`` input tag of an estimator built on
    :func:`kernel_patterns._fit.prepare_operator`: a sparse precomputed affinity, or features
    for a kernel that takes them (RBF by default)."""
    if is_precomputed(kernel):
        return True
    try:
        return bool(make_kernel(kernel, kernel_params, default=RBF()).accepts_sparse)
    except (TypeError, ValueError):  # an invalid kernel: fit will say so
        return False
