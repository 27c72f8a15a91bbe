"""Parameters shared by the two embeddings (:class:`KernelMDS`, :class:`LaplacianEmbedding`)."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

from sklearn.utils._param_validation import Interval

from ..kernels import APPROXIMATION_PARAMETER_CONSTRAINTS, OPERATOR_PARAMETER_CONSTRAINTS, Kernel

#: ``_parameter_constraints`` of both embeddings. ``n_components`` is the embedding
#: dimension (scikit-learn's meaning), so the Nyström landmark count is
#: ``nystrom_components``, constrained as ``n_components`` is everywhere else.
EMBEDDING_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "kernel": [Kernel, str, callable],
    "kernel_params": [dict, None],
    "eigen_tol": [Interval(Real, 0, None, closed="left")],
    **OPERATOR_PARAMETER_CONSTRAINTS,
    "approximation": APPROXIMATION_PARAMETER_CONSTRAINTS["approximation"],
    "nystrom_components": APPROXIMATION_PARAMETER_CONSTRAINTS["n_components"],
    "landmarks": APPROXIMATION_PARAMETER_CONSTRAINTS["landmarks"],
    "random_state": ["random_state"],
}
