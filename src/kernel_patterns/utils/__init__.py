"""Internal utilities shared by the packages, as ``sklearn.utils`` is in scikit-learn.

Not part of the public API: these names may change or go without a deprecation period. Users
and kernel authors need :mod:`kernel_patterns.kernels` (kernels, the kernel protocol,
operators, the registry, the memory guard); the estimators, the distributed solvers and the
command line build on the plumbing here: parameter constraints every estimator shares, the
operator dtype rule, the k-nearest-neighbour affinity and graph, the Nyström factor and its
landmark choices, and checks of operands and precomputed matrices. The import rule of
``tests/test_architecture.py`` lets every package use this one; it, in turn, re-exports the
kernel package's implementations (it sits between :mod:`kernel_patterns.kernels` and the
estimators).

Examples
--------
>>> from kernel_patterns.utils import (
...     APPROXIMATION_PARAMETER_CONSTRAINTS, KNN_KERNELS, OPERATOR_PARAMETER_CONSTRAINTS,
...     resolve_dtype)
>>> KNN_KERNELS
('nearest_neighbors', 'precomputed_nearest_neighbors')
>>> sorted(OPERATOR_PARAMETER_CONSTRAINTS), sorted(APPROXIMATION_PARAMETER_CONSTRAINTS)
(['dtype', 'operator'], ['approximation', 'landmarks', 'n_landmarks'])
>>> resolve_dtype("auto", 1_000), resolve_dtype("auto", 50_000)
(dtype('float64'), dtype('float32'))
"""

from ..kernels._dot import check_square_kernel
from ..kernels._knn import join_components, knn_graph
from ..kernels._knn_affinity import (
    KNN_KERNELS,
    is_knn_kernel,
    knn_affinity,
    knn_operator,
    knn_rows,
)
from ..kernels._memory import dense_nbytes
from ..kernels._nystrom import (
    kernel_columns,
    kmeanspp_landmarks,
    leverage_landmarks,
    nystrom_factor,
)
from ..kernels._operator import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    resolve_dtype,
)
from ..kernels._operator_base import check_operand
from ..kernels._registry import is_precomputed

__all__ = [
    "APPROXIMATION_PARAMETER_CONSTRAINTS",
    "KNN_KERNELS",
    "OPERATOR_PARAMETER_CONSTRAINTS",
    "check_operand",
    "check_square_kernel",
    "dense_nbytes",
    "is_knn_kernel",
    "is_precomputed",
    "join_components",
    "kernel_columns",
    "kmeanspp_landmarks",
    "knn_affinity",
    "knn_graph",
    "knn_operator",
    "knn_rows",
    "leverage_landmarks",
    "nystrom_factor",
    "resolve_dtype",
]
