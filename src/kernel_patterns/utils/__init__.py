"""Internal utilities shared by the packages, as ``sklearn.utils`` is in scikit-learn.

Not part of the public API: these names may change or go without a deprecation period. Users
and kernel authors need :mod:`kernel_patterns.kernels` (kernels, the kernel protocol,
operators, the registry, the memory guard); the estimators, the distributed solvers and the
command line build on the plumbing here: parameter constraints every estimator shares and
the storing of its constructor's arguments (``_params``), the k-nearest-neighbour affinity
and its operator (``_knn_affinity``), and, re-exported from
:mod:`kernel_patterns.kernels.plumbing` because the kernel operators are built on them, the
operator dtype rule, the memory size of a dense block, the k-NN graph, the Nyström factor and
its landmark choices, and checks of operands and precomputed matrices.

This package sits above :mod:`kernel_patterns.kernels` and imports only its public names;
the kernel package never imports it (``tests/test_architecture.py``).

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

from ..kernels.plumbing import (
    check_operand,
    check_square_kernel,
    dense_nbytes,
    join_components,
    kernel_columns,
    kmeanspp_landmarks,
    knn_graph,
    leverage_landmarks,
    nystrom_factor,
    resolve_dtype,
)
from ._knn_affinity import KNN_KERNELS, is_knn_kernel, knn_affinity, knn_operator, knn_rows
from ._params import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    is_precomputed,
    store_init_params,
)

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
    "store_init_params",
]
