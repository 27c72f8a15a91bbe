"""What :class:`~kernel_patterns.KernelMDS` adds to Algorithm 8.29 for scikit-learn users
(private): the randomized eigensolver, the rule for zero eigenvalues and the pre-images of
``inverse_transform``, each as in scikit-learn's ``KernelPCA``.

Pre-images (``fit_inverse_transform=True``): the map from the embedding back to input space is
learnt by kernel ridge regression on the training pairs (embedding_i, x_i), with the same
kernel applied to the embedding coordinates (Bakır, Weston & Schölkopf, "Learning to find
pre-images", NIPS 2003; ``KernelPCA._fit_inverse_transform``)::

    dual_coef = (k(E, E) + α I)⁻¹ X,        inverse_transform(Z) = k(Z, E) dual_coef.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import linalg, sparse
from sklearn.utils import check_random_state
from threadpoolctl import threadpool_limits

from .._eigen import DENSE_MAX, MatMat, sign_flip_columns, top_eigenpairs
from .._validation import FloatArray
from ..kernels import Kernel
from ..utils import is_precomputed

#: ``eigen_solver`` values, as ``KernelPCA``'s
EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")


def solve_top_eigenpairs(
    matmat: MatMat,
    n: int,
    k: int,
    solver: str,
    *,
    dtype: Any = np.float64,
    random_state: Any = None,
    tol: float = 0.0,
) -> tuple[FloatArray, FloatArray]:
    """The ``k`` top eigenpairs of the symmetric operator by ``solver``.

    ``"auto"``: dense ``eigh`` up to 600 points, ARPACK beyond; ``"dense"``: always ``eigh``
    of the materialised matrix; ``"arpack"``: always ARPACK (dense when k ≥ n − 1, which
    ARPACK cannot do); ``"randomized"``: :func:`randomized_top_eigenpairs`.
    """
    if solver == "randomized" and k < n - 1:
        return randomized_top_eigenpairs(matmat, n, k, random_state=random_state)
    dense_max = {"dense": n, "arpack": 0}.get(solver, DENSE_MAX)
    return top_eigenpairs(matmat, n, k, dtype=dtype, random_state=random_state, tol=tol,
                          dense_max=dense_max)


def randomized_top_eigenpairs(
    matmat: MatMat,
    n: int,
    k: int,
    *,
    n_oversamples: int = 10,
    n_iter: int | None = None,
    random_state: Any = None,
) -> tuple[FloatArray, FloatArray]:
    """Top ``k`` eigenpairs of a symmetric positive semi-definite operator by randomized
    subspace iteration (Halko, Martinsson & Tropp 2011, Alg. 4.4 and 5.3): products only.

    ``n_iter`` power iterations (default as scikit-learn's ``randomized_svd``: 7 when
    k < 0.1 n, else 4), each followed by a QR; then the Rayleigh-Ritz step on the subspace.
    Eigenvalues decreasing; eigenvectors with deterministic signs.
    """
    rng = check_random_state(random_state)
    m = min(n, k + n_oversamples)
    its = (7 if k < 0.1 * n else 4) if n_iter is None else n_iter
    Q = np.asarray(matmat(rng.normal(size=(n, m))), dtype=np.float64)
    Q = linalg.qr(Q, mode="economic")[0]
    for _ in range(its):
        Q = linalg.qr(np.asarray(matmat(Q), dtype=np.float64), mode="economic")[0]
    B = Q.T @ np.asarray(matmat(Q), dtype=np.float64)
    with threadpool_limits(1, user_api="blas"):
        w, U = linalg.eigh(0.5 * (B + B.T))
    order = np.argsort(w)[::-1][:k]
    return w[order], np.ascontiguousarray(sign_flip_columns(Q @ U[:, order]))


def zero_eigenvalues(w: FloatArray, dtype: Any) -> np.ndarray:
    """Mask of the eigenvalues that are 0 up to round-off: at most ``1e-12`` (float64) or
    ``2e-7`` (float32) of the largest, the tolerance of scikit-learn's
    ``_check_psd_eigenvalues`` that ``KernelPCA`` applies."""
    ratio = 2e-7 if np.dtype(dtype) == np.float32 else 1e-12
    top = max(float(np.max(w)) if w.size else 0.0, 0.0)
    return np.asarray(w <= ratio * top)


def check_inverse_kernel(kernel: Kernel) -> None:
    """Pre-images apply the kernel to embedding coordinates: it must be a function of two
    points (not a matrix, not one that depends on the training set)."""
    if is_precomputed(kernel):
        raise ValueError(
            "Cannot fit_inverse_transform with a precomputed kernel: the pre-images apply "
            "the kernel to embedding coordinates, so fit_inverse_transform=True needs a "
            "kernel function, not kernel='precomputed' (as in scikit-learn's KernelPCA)."
        )
    if kernel.data_dependent:
        raise ValueError(
            f"fit_inverse_transform=True applies the kernel to the embedding coordinates; "
            f"{type(kernel).__name__} depends on the training set, so it cannot. Use a "
            "kernel function such as 'rbf'."
        )


def fit_preimage_map(
    kernel: Kernel, embedding: FloatArray, X: Any, alpha: float
) -> FloatArray:
    """``dual_coef = (k(E, E) + α I)⁻¹ X`` (module docstring), float64."""
    E = np.asarray(embedding, dtype=np.float64)
    K = np.asarray(kernel.pairwise(E, E, same=True), dtype=np.float64)
    K[np.diag_indices_from(K)] += alpha
    Xf = X.toarray() if sparse.issparse(X) else X
    Xf = np.asarray(Xf, dtype=np.float64)
    try:
        return np.asarray(linalg.solve(K, Xf, assume_a="pos", overwrite_a=True))
    except linalg.LinAlgError:
        raise ValueError(
            "the kernel of the embedding is singular; raise alpha (the ridge of the "
            "pre-image regression) above 0."
        ) from None
