"""What the two embeddings (:class:`KernelMDS`, :class:`LaplacianEmbedding`) share: their
parameters' types, their constraints and the first step of ``fit`` (the kernel and its
operator)."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval

from .._fit import FitSetup, prepare_operator, resolve_kernel
from .._graph import sparse_input_tag
from ..kernels import RBF, Kernel
from ..utils import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    is_precomputed,
)

#: ``_parameter_constraints`` of both embeddings. ``n_components`` is the embedding
#: dimension (scikit-learn's meaning); the Nyström landmark count is ``n_landmarks``, as in
#: every estimator of the library.
EMBEDDING_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "kernel": [Kernel, str, callable],
    "kernel_params": [dict, None],
    "eigen_tol": [Interval(Real, 0, None, closed="left")],
    **OPERATOR_PARAMETER_CONSTRAINTS,
    "approximation": APPROXIMATION_PARAMETER_CONSTRAINTS["approximation"],
    "n_landmarks": APPROXIMATION_PARAMETER_CONSTRAINTS["n_landmarks"],
    "landmarks": APPROXIMATION_PARAMETER_CONSTRAINTS["landmarks"],
    "random_state": ["random_state"],
}


class _EmbeddingBase(BaseEstimator):
    """Parameters and the operator-building first step of both embeddings."""

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = EMBEDDING_PARAMETER_CONSTRAINTS

    # the parameters (each subclass's __init__ sets them with store_init_params, its
    # signature the one place they and their defaults are written)
    n_components: int | None
    kernel: Kernel | str | Any
    kernel_params: dict[str, Any] | None
    eigen_tol: float
    operator: str
    dtype: str
    approximation: str
    n_landmarks: int | None
    landmarks: str
    random_state: Any

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        # with kernel="precomputed", X is a kernel matrix: cross-validation splits both axes
        tags.input_tags.pairwise = is_precomputed(self.kernel)
        tags.input_tags.sparse = sparse_input_tag(self.kernel, self.kernel_params)
        return tags

    def _set_output_dtype(self, X: ArrayLike) -> None:
        """float32 input gives float32 output (``embedding_``, ``transform``), as
        scikit-learn's transformers that preserve dtypes; anything else gives float64. The
        kernel operator keeps its own precision (``dtype``)."""
        self._out_dtype = np.dtype(
            np.float32 if getattr(X, "dtype", None) == np.float32 else np.float64
        )

    def _fit_operator(self, X: ArrayLike, why: str = "") -> FitSetup:
        """Validate the parameters, resolve the kernel (RBF by default) and build the
        training operator (exact or Nyström, ``approximation="auto"`` resolved);
        ``n_components`` must be below the sample count (``why`` says what else rules it
        out)."""
        self._validate_params()
        self._set_output_dtype(X)
        setup = prepare_operator(
            self, X, resolve_kernel(self.kernel, self.kernel_params, default=RBF()),
            random_state=self.random_state,
        )
        n, k = setup.operator.n_samples, self.n_components
        if k is not None and k >= n:
            raise ValueError(
                f"n_components={k} must be smaller than the number of samples ({n}){why}."
            )
        return setup
