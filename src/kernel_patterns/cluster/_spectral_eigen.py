"""The eigenproblems of spectral clustering (§8.2.3 of Shawe-Taylor & Cristianini, ch. 8).

:func:`_spectral_eigen` gives the eigenpairs of K, D⁻¹K, D^-½KD^-½ (top) or of the Laplacian
D − K (bottom) through the kernel operator, never materialising the matrix; low-rank
operators (Nyström) take the exact r × r shortcut. :func:`spectral_eigenpairs` is its public
face.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._eigen import top_eigenpairs
from .._graph import (
    check_affinity,
    check_positive_degrees,
    inverse_sqrt_degrees,
    low_rank_degrees,
    normalized_matmat,
    shifted_laplacian_matmat,
)
from .._graph_eigen import laplacian_bottom_eigenpairs
from .._lowrank import low_rank_top_eigenpairs
from .._validation import FloatArray
from ..kernels import KernelOperator, SparseKernelOperator

MATRICES = ("K", "random_walk", "normalized", "laplacian")

#: eigenvalues this close (relative) to the trivial one count as trivial (graph components).
_TRIVIAL_RTOL = 1e-8


def _trivial_rtol(dtype: Any) -> float:
    """Tolerance for "trivial" eigenvalues at the precision of the operator."""
    return max(_TRIVIAL_RTOL, 100 * float(np.finfo(dtype).eps))


# --------------------------------------------------------------------------- solvers
def _spectral_eigen(
    op: KernelOperator,
    n_vectors: int,
    matrix: str,
    *,
    random_state: Any = None,
    tol: float = 0.0,
    components: str = "n_landmarks",
    eigen_solver: str = "auto",
) -> tuple[FloatArray, FloatArray, FloatArray, int, FloatArray | None]:
    """Eigenpairs of the chosen matrix, never materialising it.

    When the operator has a low-rank factor ``F`` (``K = F Fᵀ``, e.g. Nyström), the
    eigenpairs of K and of the normalised / random-walk matrices come from the r × r problem
    of :func:`kernel_patterns._lowrank.low_rank_top_eigenpairs` (``D^-½ K D^-½ = G Gᵀ`` with
    ``G = D^-½ F``, degrees ``D = F (Fᵀ 1)``): exact for that K, O(N r²), no ARPACK. The
    Laplacian ``D − F Fᵀ`` is a diagonal plus a low-rank matrix, not a low-rank one: it keeps
    the ARPACK path (its products cost O(N r) each). Low-rank degrees below a point's own
    self-affinity (an artefact of a coarse approximation) are repaired with a warning naming
    ``components``, the estimator's landmark parameter (:func:`low_rank_degrees`).

    Returns
    -------
    eigenvalues : ndarray (n_vectors,)
        Of the chosen matrix: decreasing for "K", "normalized", "random_walk"; increasing for
        "laplacian" (its bottom eigenvalues).
    vectors : ndarray (n, n_vectors)
        "K": eigenvectors of K; "normalized": of D^-½KD^-½; "random_walk": of D⁻¹K, obtained
        as D^-½ times the normalised ones (D-orthonormal); "laplacian": bottom ones of D − K.
    solved : ndarray (n_vectors,)
        Eigenvalues of the symmetric operator actually solved (top ones, decreasing); for the
        Laplacian that is σ − λ with σ = 2 max D. Used as the weights Λ of the eigenvector
        approach.
    n_trivial : int
        How many computed eigenvalues are trivial (1 for the normalised matrices, 0 for the
        Laplacian): a lower bound on the number of connected components (0 for "K").
    scale : ndarray (n,) or None
        ``D^-½`` as used (after the low-rank repair) for "normalized" and "random_walk";
        the degrees D for "laplacian"; None for "K".
    """
    n = op.n_samples
    F = op.low_rank_factor()
    if eigen_solver == "amg" and (matrix not in ("normalized", "random_walk")
                                  or not isinstance(op, SparseKernelOperator)):
        raise ValueError(
            "eigen_solver='amg' solves the normalised graph Laplacian of a sparse affinity: "
            "it needs matrix='normalized' or 'random_walk' and a sparse affinity (the "
            f"k-NN kernel, or kernel='precomputed' with a sparse matrix); got matrix={matrix!r} "
            f"with a {'sparse' if isinstance(op, SparseKernelOperator) else 'dense'} affinity."
        )
    if matrix == "K":
        fast = None if F is None else low_rank_top_eigenpairs(F, n_vectors)
        if fast is not None:
            return fast[0], fast[1], fast[0], 0, None
        w, V = top_eigenpairs(op.matmat, n, n_vectors, dtype=op.dtype,
                              random_state=random_state, tol=tol, solver=eigen_solver)
        return w, V, w, 0, None
    what = f"matrix={matrix!r}"
    degrees = check_affinity(op, what, "matrix='K'")
    solver = {"dtype": op.dtype, "random_state": random_state, "tol": tol,
              "solver": eigen_solver}
    if matrix == "laplacian":
        mm, sigma = shifted_laplacian_matmat(op, degrees)
        if isinstance(op, SparseKernelOperator):
            lam, V, _ = laplacian_bottom_eigenpairs(op.A, n_vectors, normed=False,
                                                    random_state=random_state, tol=tol,
                                                    solver=eigen_solver)
            w = sigma - lam
        else:
            w, V = top_eigenpairs(mm, n, n_vectors, **solver)
            lam = np.maximum(sigma - w, 0.0)
        n_trivial = int(np.sum(lam <= _trivial_rtol(op.dtype) * sigma))
        return lam, V, w, n_trivial, degrees
    if F is not None:
        degrees = low_rank_degrees(F, degrees, what, components)
        scale = inverse_sqrt_degrees(degrees)
        fast = low_rank_top_eigenpairs(F, n_vectors, scale=scale)
        if fast is not None:
            w, V, _ = fast
            n_trivial = int(np.sum(w >= 1.0 - _trivial_rtol(op.dtype)))
            if matrix == "random_walk":
                V = V * scale[:, None]
            return w, V, w, n_trivial, scale
    check_positive_degrees(degrees, what)
    if isinstance(op, SparseKernelOperator):
        # per connected component, shift-invert where the spectrum is clustered (a graph's
        # top eigenvalue 1 once per component, long thin shapes within 1e-5 of it)
        lam_sym, V, _ = laplacian_bottom_eigenpairs(op.A, n_vectors, normed=True,
                                                    random_state=random_state, tol=tol,
                                                    solver=eigen_solver)
        w = 1.0 - lam_sym
    else:
        w, V = top_eigenpairs(normalized_matmat(op, degrees), n, n_vectors, **solver)
    n_trivial = int(np.sum(w >= 1.0 - _trivial_rtol(op.dtype)))
    scale = 1.0 / np.sqrt(degrees)
    if matrix == "random_walk":
        V = V * scale[:, None]
    return w, V, w, n_trivial, scale


def spectral_eigenpairs(
    op: KernelOperator,
    n_vectors: int,
    matrix: str = "normalized",
    *,
    random_state: Any = None,
) -> tuple[FloatArray, FloatArray]:
    """The leading eigenpairs of one of the book's spectral matrices, never materialising it.

    Parameters
    ----------
    op : KernelOperator
        The kernel (affinity) matrix K, e.g. from :func:`kernel_patterns.kernels.make_operator`.
    n_vectors : int
        Eigenpairs wanted.
    matrix : {"K", "random_walk", "normalized", "laplacian"}, default="normalized"
        K, D⁻¹K, D^-½ K D^-½ (top eigenpairs) or the Laplacian D − K (bottom ones).
    random_state : int, RandomState instance or None, default=None
        Seeds ARPACK's start vector.

    Returns
    -------
    eigenvalues : ndarray of shape (n_vectors,)
        Decreasing (increasing for "laplacian").
    eigenvectors : ndarray of shape (n_samples, n_vectors)

    Examples
    --------
    >>> from kernel_patterns import datasets
    >>> from kernel_patterns.cluster import spectral_eigenpairs
    >>> from kernel_patterns.kernels import RBF, make_operator
    >>> X, _ = datasets.make_rings(random_state=0)
    >>> lam, V = spectral_eigenpairs(make_operator(RBF(10.0), X), 3, random_state=0)
    >>> float(lam[0].round(6)), V.shape
    (1.0, (300, 3))
    """
    if matrix not in MATRICES:
        raise ValueError(f"matrix must be one of {sorted(MATRICES)}; got {matrix!r}.")
    lam, V, _, _, _ = _spectral_eigen(op, n_vectors, matrix, random_state=random_state)
    return lam, V
