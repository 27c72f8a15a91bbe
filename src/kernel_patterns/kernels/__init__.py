"""Kernels, kernel operators and the public surface solvers and new kernels build on.

Layout: ``_base`` holds :class:`Kernel` and its extension protocol (the validating ``__call__``,
``diag``, ``gradient``, ``contract_gradient`` for users; the unchecked ``pairwise``,
``pairwise_diag``, ``pairwise_gradient``, ``pairwise_gradient_from_gram``,
``diagonal_noise``, ``prepare`` and ``block`` for solvers and operators); ``_stationary``
(:class:`StationaryKernel`, :class:`RBF`, :class:`GPCovariance`), ``_dot`` (linear,
polynomial, cosine, precomputed, callable) and ``_registry`` (names → classes,
:func:`make_kernel`); ``_operator_base`` (the :class:`KernelOperator` interface every
algorithm talks to), ``_operator`` (dense, chunked and sparse operators, :func:`make_operator`),
``_context`` (the operator-backend context), ``_nystrom`` (low-rank and Nyström operators and their
landmark choices), ``_memory`` (the memory guard); ``_knn`` (the k-nearest-neighbour graph),
``_knn_affinity`` (the k-NN affinity of ``kernel="nearest_neighbors"``),
``_cailliez`` (Cailliez's constant), ``_extra`` (scikit-learn's Laplacian, chi² and sigmoid
kernels with data-driven widths), ``_geodesic`` and ``_geodesic_landmark`` (the exact and
landmark geodesic kernels). Other packages use only the names below.

Examples
--------
The constants: the kernel names, the k-nearest-neighbour affinities, the Nyström default, the
chunked operator's memory and the parameter constraints every estimator shares.

>>> from kernel_patterns.kernels import (
...     APPROXIMATION_PARAMETER_CONSTRAINTS, DEFAULT_BLOCK_MEMORY, DEFAULT_N_LANDMARKS,
...     KERNELS, KNN_KERNELS, OPERATOR_PARAMETER_CONSTRAINTS, RBF)
>>> KERNELS["rbf"] is RBF, "laplacian" in KERNELS
(True, True)
>>> KNN_KERNELS
('nearest_neighbors', 'precomputed_nearest_neighbors')
>>> DEFAULT_N_LANDMARKS, DEFAULT_BLOCK_MEMORY // 2**20
(300, 256)
>>> sorted(OPERATOR_PARAMETER_CONSTRAINTS), sorted(APPROXIMATION_PARAMETER_CONSTRAINTS)
(['dtype', 'operator'], ['approximation', 'landmarks', 'n_landmarks'])
"""

from ._base import Kernel, check_kernel_input
from ._cailliez import cailliez_constant
from ._context import operator_backend, use_operator_backend
from ._dot import CallableKernel, Cosine, Linear, Polynomial, Precomputed, check_square_kernel
from ._extra import Chi2, Laplacian, Sigmoid
from ._geodesic import GeodesicKernel
from ._geodesic_landmark import LandmarkGeodesicOperator
from ._knn import geodesic_distances, join_components, knn_graph
from ._knn_affinity import KNN_KERNELS, is_knn_kernel, knn_affinity, knn_operator, knn_rows
from ._memory import MemoryBudgetError, check_dense_fits, default_memory_budget, dense_nbytes
from ._nystrom import (
    DEFAULT_N_LANDMARKS,
    LowRankKernelOperator,
    NystromKernelOperator,
    kernel_columns,
    kmeanspp_landmarks,
    leverage_landmarks,
    nystrom_factor,
)
from ._operator import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    ChunkedKernelOperator,
    DenseKernelOperator,
    SparseKernelOperator,
    make_operator,
    resolve_dtype,
)
from ._operator_base import DEFAULT_BLOCK_MEMORY, KernelOperator, check_operand
from ._registry import KERNELS, is_precomputed, make_kernel, register_kernel
from ._stationary import RBF, GPCovariance, StationaryKernel

register_kernel("geodesic", GeodesicKernel)
register_kernel("laplacian", Laplacian)
register_kernel("chi2", Chi2)
register_kernel("sigmoid", Sigmoid)

__all__ = [
    "APPROXIMATION_PARAMETER_CONSTRAINTS",
    "DEFAULT_BLOCK_MEMORY",
    "DEFAULT_N_LANDMARKS",
    "KERNELS",
    "KNN_KERNELS",
    "OPERATOR_PARAMETER_CONSTRAINTS",
    "RBF",
    "CallableKernel",
    "Chi2",
    "ChunkedKernelOperator",
    "Cosine",
    "DenseKernelOperator",
    "GPCovariance",
    "GeodesicKernel",
    "Kernel",
    "KernelOperator",
    "LandmarkGeodesicOperator",
    "Laplacian",
    "Linear",
    "LowRankKernelOperator",
    "MemoryBudgetError",
    "NystromKernelOperator",
    "Polynomial",
    "Precomputed",
    "Sigmoid",
    "SparseKernelOperator",
    "StationaryKernel",
    "cailliez_constant",
    "check_dense_fits",
    "check_kernel_input",
    "check_operand",
    "check_square_kernel",
    "default_memory_budget",
    "dense_nbytes",
    "geodesic_distances",
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
    "make_kernel",
    "make_operator",
    "nystrom_factor",
    "operator_backend",
    "register_kernel",
    "resolve_dtype",
    "use_operator_backend",
]
