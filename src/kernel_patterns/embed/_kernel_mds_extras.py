"""What :class:`~kernel_patterns.KernelMDS` adds to Algorithm 8.29 for scikit-learn users
(private): the eigensolver names, the rule for zero eigenvalues and the pre-images of
``inverse_transform``, each as in scikit-learn's ``KernelPCA`` (the solvers themselves,
the randomized one included, are :func:`kernel_patterns._eigen.top_eigenpairs`).

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

from .._validation import FloatArray
from ..kernels import Kernel
from ..utils import is_precomputed

#: ``eigen_solver`` values, as ``KernelPCA``'s (all of them names of
#: :func:`~kernel_patterns._eigen.top_eigenpairs`)
EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")


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
