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
``_cailliez`` (Cailliez's constant), ``_extra`` (scikit-learn's Laplacian, chi² and sigmoid
kernels with data-driven widths), ``_geodesic`` and ``_geodesic_landmark`` (the exact and
landmark geodesic kernels). Users and kernel authors need only the names below. The helpers
the operators are built on and other packages share too (the dtype rule, the k-NN graph, the
Nyström factor and landmark choices, operand checks) are public in the submodule
``kernel_patterns.kernels.plumbing``, outside ``__all__``, and reach the other packages
through the internal ``kernel_patterns.utils`` (which also holds the estimators' parameter
constraints and the k-NN affinity of ``kernel="nearest_neighbors"``).

Examples
--------
The constants: the kernel names, the default landmark count and the chunked operator's
memory.

>>> from kernel_patterns.kernels import DEFAULT_BLOCK_MEMORY, DEFAULT_N_LANDMARKS, KERNELS, RBF
>>> KERNELS["rbf"] is RBF, "laplacian" in KERNELS
(True, True)
>>> DEFAULT_N_LANDMARKS, DEFAULT_BLOCK_MEMORY // 2**20
(300, 256)
"""

from ._base import Kernel, check_kernel_input
from ._cailliez import cailliez_constant
from ._context import operator_backend, use_operator_backend
from ._dot import CallableKernel, Cosine, Linear, Polynomial, Precomputed
from ._extra import Chi2, Laplacian, Sigmoid
from ._geodesic import GeodesicKernel
from ._geodesic_landmark import LandmarkGeodesicOperator
from ._knn import geodesic_distances
from ._memory import MemoryBudgetError, check_dense_fits, default_memory_budget
from ._nystrom import DEFAULT_N_LANDMARKS, LowRankKernelOperator, NystromKernelOperator
from ._operator import (
    ChunkedKernelOperator,
    DenseKernelOperator,
    SparseKernelOperator,
    make_operator,
)
from ._operator_base import DEFAULT_BLOCK_MEMORY, KernelOperator
from ._registry import KERNELS, make_kernel, register_kernel
from ._stationary import RBF, GPCovariance, StationaryKernel

register_kernel("geodesic", GeodesicKernel)
register_kernel("laplacian", Laplacian)
register_kernel("chi2", Chi2)
register_kernel("sigmoid", Sigmoid)

__all__ = [
    "DEFAULT_BLOCK_MEMORY",
    "DEFAULT_N_LANDMARKS",
    "KERNELS",
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
    "default_memory_budget",
    "geodesic_distances",
    "make_kernel",
    "make_operator",
    "operator_backend",
    "register_kernel",
    "use_operator_backend",
]
