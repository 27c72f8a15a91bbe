"""Eigenproblems that are exact shortcuts when the kernel matrix has low rank (private).

When an operator knows a factor ``F`` (N × r) with ``K = F Fᵀ`` (``op.low_rank_factor()``:
the Nyström operator, the landmark geodesic kernel), every matrix of the form
``M = (S F)(S F)ᵀ``, with S a diagonal scaling (D^-½ for the normalised affinity) and/or the
centring H = I − j jᵀ/N (kernel MDS), is a Gram matrix of the rows of ``G = S F`` or ``H G``.
Its non-zero eigenpairs follow from the r × r matrix ``Gᵀ G = W Λ Wᵀ``:
``M (G w) = G (Gᵀ G) w = λ (G w)``, so the unit eigenvectors are ``u = G w / √λ``
(the thin SVD ``G = U √Λ Wᵀ``). That costs O(N r²) and O(N r) memory, with no ARPACK.

``G`` is never formed as a whole: the r × r Gram matrix is summed over row blocks of ``F``,
each block's product in the precision of F (a float32 GEMM is twice as fast, and the block
sums are short: 16k rows) and the blocks accumulated in float64; the eigenvectors are mapped
back block by block.
"""

from __future__ import annotations

import numpy as np

from ._parallel import limit_threads
from ._validation import FloatArray

#: rows of F handled at once (64k × r float64 temporaries).
_BLOCK = 65_536
#: rows per float32 block product (keeps float32 partial sums short).
_BLOCK32 = 16_384


def _blocks(n: int, step: int = _BLOCK) -> range:
    return range(0, n, step)


def factor_mean(F: FloatArray) -> FloatArray:
    """Column means of ``F`` in float64 (``F̄`` with ``H F = F − 1 F̄``)."""
    total = np.zeros(F.shape[1])
    for a in _blocks(F.shape[0]):
        total += F[a : a + _BLOCK].sum(axis=0, dtype=np.float64)
    return total / max(F.shape[0], 1)


def _scaled_block(
    F: FloatArray, a: int, scale: FloatArray | None, mean: FloatArray | None,
    step: int = _BLOCK,
) -> FloatArray:
    """Rows a:a+step of ``diag(scale)(F − 1 meanᵀ)`` in F's precision."""
    B = F[a : a + step]
    if mean is not None:
        B = B - mean.astype(F.dtype)
    if scale is not None:
        B = B * scale[a : a + step, None].astype(F.dtype)
    return B


def low_rank_gram(
    F: FloatArray, scale: FloatArray | None = None, mean: FloatArray | None = None
) -> FloatArray:
    """``Gᵀ G`` (r × r, float64) for ``G = diag(scale) (F − 1 meanᵀ)``, in row blocks."""
    r = F.shape[1]
    step = _BLOCK32 if F.dtype == np.float32 else _BLOCK
    gram = np.zeros((r, r))
    for a in _blocks(F.shape[0], step):
        B = _scaled_block(F, a, scale, mean, step)
        gram += B.T @ B
    return 0.5 * (gram + gram.T)


def low_rank_top_eigenpairs(
    F: FloatArray,
    k: int,
    *,
    scale: FloatArray | None = None,
    mean: FloatArray | None = None,
    rtol: float = 1e-10,
    pad: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """Top ``k`` eigenpairs of ``G Gᵀ``, ``G = diag(scale) (F − 1 meanᵀ)``, from ``Gᵀ G``.

    Returns ``(eigenvalues, eigenvectors, W)``: eigenvalues decreasing (float64, shape (k,)),
    unit eigenvectors ``G W / √λ`` (N × k, float64, deterministic signs as in
    :func:`kernel_patterns._eigen.top_eigenpairs`) and the r × k matrix ``W`` of the Gram
    eigenvectors (sign-matched to the eigenvectors), which maps a new row g of G to its
    coordinates ``g W / √λ``.

    Returns None when the shortcut does not apply: k > r, or the k-th eigenvalue is not
    clearly positive (≤ ``rtol`` times the largest), i.e. the requested eigenvectors reach
    into the null space of ``G Gᵀ`` where any orthonormal basis is an answer; the caller
    then uses the general (ARPACK) path. With ``pad=True`` it never returns None: eigenvalues
    ≤ ``rtol`` times the largest (and those beyond r) are returned as 0 with zero vectors and
    zero columns of W (for callers that drop such axes anyway, as kernel MDS does).
    """
    r = F.shape[1]
    if k > r and not pad:
        return None
    gram = low_rank_gram(F, scale, mean)
    # r × r: one BLAS thread is several times faster than a team on a busy machine.
    with limit_threads(1, "blas"):
        w, W = np.linalg.eigh(gram)
    order = np.argsort(w)[::-1][:k]
    w, W = w[order], W[:, order]
    if w.size < k:
        w = np.r_[w, np.zeros(k - w.size)]
        W = np.hstack([W, np.zeros((r, k - W.shape[1]))])
    top = max(float(w[0]), 0.0)
    null = w <= rtol * top
    if np.any(null):
        if not pad:
            return None
        w = np.where(null, 0.0, w)
        W[:, null] = 0.0
    M = W / np.sqrt(np.where(null, 1.0, w))
    V = np.empty((F.shape[0], k))
    Mf = M.astype(F.dtype)
    for a in _blocks(F.shape[0]):
        V[a : a + _BLOCK] = _scaled_block(F, a, scale, mean) @ Mf
    # Same sign rule as top_eigenpairs / scikit-learn's _deterministic_vector_sign_flip:
    # the entry of largest magnitude of every eigenvector is positive.
    signs = np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(k)])
    signs[signs == 0] = 1.0
    V *= signs
    return w, V, W * signs
