"""The kernel-operator interface: an N × N symmetric kernel matrix seen through products.

:class:`KernelOperator` is what every algorithm talks to (``matmat``, ``diag``, row blocks,
``cross`` for new points, ``low_rank_factor``); the exact, chunked, sparse (``_operator.py``),
low-rank (``_nystrom.py``, ``_geodesic_landmark.py``) and Dask (``distributed``) operators
implement it.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from scipy.sparse.linalg import LinearOperator

from .._validation import FloatArray, check_matrix, check_same_features
from ._base import Kernel, check_kernel_input
from ._memory import dense_nbytes

#: default bytes of kernel rows a chunked operator holds at once (all threads together).
DEFAULT_BLOCK_MEMORY = 256 * 1024**2


class KernelOperator(metaclass=ABCMeta):
    """Abstract N × N symmetric kernel matrix, seen through products and blocks.

    Attributes
    ----------
    n_samples : int
    dtype : numpy dtype
    kernel : Kernel or None
        The kernel (None for a user-given matrix).
    X : ndarray or None
        Training points (None for a user-given matrix).

    Examples
    --------
    Every operator :func:`make_operator` returns implements this interface:

    >>> import numpy as np
    >>> from kernel_patterns.kernels import RBF, KernelOperator, make_operator
    >>> op = make_operator(RBF(gamma=0.5), np.zeros((4, 2)))
    >>> isinstance(op, KernelOperator), op.shape
    (True, (4, 4))
    >>> op.matvec(np.ones(4))
    array([4., 4., 4., 4.])
    """

    n_samples: int
    dtype: np.dtype[Any]
    kernel: Kernel | None
    X: FloatArray | None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.n_samples, self.n_samples)

    # -- products ---------------------------------------------------------------
    @abstractmethod
    def matmat(self, V: ArrayLike) -> FloatArray:
        """``K @ V`` for V of shape (n_samples, k) (or (n_samples,), see :meth:`matvec`).

        ``V`` may be a scipy sparse matrix (e.g. a one-hot assignment matrix); the result is
        dense either way.
        """

    def min(self) -> float:
        """The smallest entry of K, in one pass over row blocks."""
        return min(float(np.min(block)) for _, _, block in self.iter_row_blocks())

    def matvec(self, v: ArrayLike) -> FloatArray:
        """``K @ v`` for a vector v of length n_samples."""
        return self.matmat(np.asarray(v).reshape(-1, 1)).ravel()

    def row_sums(self) -> FloatArray:
        """``K @ 1``: the degrees when K is an affinity."""
        return self.matvec(np.ones(self.n_samples, dtype=self.dtype))

    def aslinearoperator(self) -> LinearOperator:
        """A :class:`scipy.sparse.linalg.LinearOperator` for ARPACK / LOBPCG."""
        return LinearOperator(
            self.shape,
            matvec=self.matvec,
            matmat=self.matmat,
            rmatvec=self.matvec,
            rmatmat=self.matmat,
            dtype=self.dtype,
        )

    # -- entries ----------------------------------------------------------------
    @abstractmethod
    def diag(self) -> FloatArray:
        """The diagonal ``K[i, i]``."""

    @abstractmethod
    def rows(self, start: int, stop: int) -> FloatArray:
        """Row block ``K[start:stop, :]`` as a dense array."""

    def take_rows(self, indices: ArrayLike) -> FloatArray:
        """Rows ``K[indices, :]`` for arbitrary indices."""
        idx = np.asarray(indices, dtype=np.intp)
        return self._take_rows(idx)

    def _take_rows(self, idx: np.ndarray) -> FloatArray:
        return self.to_dense()[idx]  # pragma: no cover - overridden by every operator

    def iter_row_blocks(
        self, block_rows: int | None = None
    ) -> Iterator[tuple[int, int, FloatArray]]:
        """Yield ``(start, stop, K[start:stop])`` blocks covering all rows."""
        b = block_rows or self._default_block_rows()
        for a in range(0, self.n_samples, b):
            stop = min(a + b, self.n_samples)
            yield a, stop, self.rows(a, stop)

    def _default_block_rows(self) -> int:
        return max(1, DEFAULT_BLOCK_MEMORY // max(1, self.n_samples * self.dtype.itemsize))

    @abstractmethod
    def to_dense(self, memory_budget: int | None = None) -> FloatArray:
        """The full matrix (guarded by the memory budget; a copy for chunked operators)."""

    def low_rank_factor(self) -> FloatArray | None:
        """``F`` with ``K = F Fᵀ`` for a low-rank operator, else None.

        Solvers may use it for shortcuts that are exact for a low-rank K (an r × r eigen
        problem instead of ARPACK on N × N, k-means on F); everything else goes through the
        products above.
        """
        return None

    def landmark_map(self) -> tuple[np.ndarray, FloatArray] | None:
        """``(landmark_indices, feature_map)`` when the features of new points are
        ``kernel_columns(kernel, Y, X[landmark_indices]) @ feature_map`` (Nyström), else None.

        What an estimator keeps to map new points without keeping the N × r features.
        """
        return None

    # -- new points ---------------------------------------------------------------
    def cross(self, Y: ArrayLike) -> FloatArray:
        """``K(Y, X_train)`` of shape (n_new, n_samples): kernel rows for new points.

        For a user-given matrix, ``Y`` must itself be that block (n_new × n_samples).
        """
        if self.kernel is None or self.X is None:
            Kn = check_matrix(Y, "K_new")
            if Kn.shape[1] != self.n_samples:
                raise ValueError(
                    f"the precomputed kernel for new points must have {self.n_samples} columns "
                    f"(one per training point); got shape {Kn.shape}."
                )
            return Kn.astype(self.dtype, copy=False)
        Yv = check_kernel_input(self.kernel, Y, "X")
        check_same_features(self.X, Yv, "the training data", "X")
        out = np.empty((Yv.shape[0], self.n_samples), dtype=self.dtype)
        b = self._default_block_rows()
        X = self.X.astype(self.dtype, copy=False)
        for a in range(0, Yv.shape[0], b):
            out[a : a + b] = self.kernel.pairwise(Yv[a : a + b].astype(self.dtype), X)
        return out

    def cross_diag(self, Y: ArrayLike) -> FloatArray:
        """``k(y, y)`` for new points (kernel's own diagonal, noise included)."""
        if self.kernel is None:
            raise ValueError("k(y, y) for new points is unknown for a precomputed kernel.")
        return self.kernel.diag(Y).astype(self.dtype, copy=False)

    @property
    def nbytes_dense(self) -> int:
        """Bytes the full matrix would take."""
        return dense_nbytes(self.n_samples, self.n_samples, self.dtype)


def check_operand(V: ArrayLike, n: int, dtype: np.dtype[Any]) -> tuple[Any, bool]:
    """``V`` as a 2-D array of ``dtype`` (or a CSR matrix when sparse) and whether it was 1-D.

    The check every operator's ``matmat`` makes of its right-hand side (``n`` rows).

    Parameters
    ----------
    V : array-like or scipy.sparse matrix of shape (n,) or (n, k)
        The right-hand side.
    n : int
        The rows ``V`` must have (the operator's ``n_samples``).
    dtype : numpy dtype
        The operator's dtype.

    Returns
    -------
    V : ndarray of shape (n, k) or scipy.sparse.csr_array
        ``V`` in ``dtype``, a vector as one column.
    was_vector : bool
        Whether ``V`` was 1-D (the caller then returns a vector).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.utils import check_operand
    >>> V, was_vector = check_operand(np.ones(3), 3, np.dtype("float32"))
    >>> V.shape, V.dtype, was_vector
    ((3, 1), dtype('float32'), True)
    >>> check_operand(np.ones(2), 3, np.dtype("float64"))
    Traceback (most recent call last):
    ...
    ValueError: V must have 3 rows (one per sample); got shape (2,).
    """
    if sparse.issparse(V):
        if V.ndim != 2 or V.shape[0] != n:  # type: ignore[union-attr]
            raise ValueError(f"V must have {n} rows (one per sample); got shape {V.shape}.")  # type: ignore[union-attr]
        return sparse.csr_array(V, dtype=dtype), False
    Va = np.asarray(V)
    vec = Va.ndim == 1
    if vec:
        Va = Va.reshape(-1, 1)
    if Va.ndim != 2 or Va.shape[0] != n:
        raise ValueError(f"V must have {n} rows (one per sample); got shape {np.shape(V)}.")
    return np.asarray(Va, dtype=dtype), vec
