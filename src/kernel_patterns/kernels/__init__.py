"""Kernels and kernel operators.

Kernels: :class:`RBF`, :class:`GPCovariance` (eq. 2.7 of the GP clustering paper),
:class:`Linear`, :class:`Polynomial`, :class:`Cosine`, :class:`Precomputed` and
:class:`CallableKernel`; :func:`make_kernel` resolves names and callables.

Operators (:func:`make_operator`): the one seam through which algorithms get ``K @ V``,
diagonals, row blocks and kernel rows for new points.
"""

from ._base import Kernel
from ._dot import CallableKernel, Cosine, Linear, Polynomial, Precomputed, check_square_kernel
from ._geodesic import GeodesicKernel, cailliez_constant
from ._geodesic_landmark import LandmarkGeodesicOperator
from ._memory import MemoryBudgetError, check_dense_fits, default_memory_budget
from ._nystrom import LowRankKernelOperator, NystromKernelOperator
from ._operator import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    ChunkedKernelOperator,
    DenseKernelOperator,
    KernelOperator,
    SparseKernelOperator,
    make_operator,
    resolve_dtype,
)
from ._registry import KERNELS, make_kernel, register_kernel
from ._stationary import RBF, GPCovariance

register_kernel("geodesic", GeodesicKernel)

__all__ = [
    "APPROXIMATION_PARAMETER_CONSTRAINTS",
    "KERNELS",
    "OPERATOR_PARAMETER_CONSTRAINTS",
    "RBF",
    "CallableKernel",
    "ChunkedKernelOperator",
    "Cosine",
    "DenseKernelOperator",
    "GPCovariance",
    "GeodesicKernel",
    "Kernel",
    "KernelOperator",
    "LandmarkGeodesicOperator",
    "Linear",
    "LowRankKernelOperator",
    "MemoryBudgetError",
    "NystromKernelOperator",
    "Polynomial",
    "Precomputed",
    "SparseKernelOperator",
    "cailliez_constant",
    "check_dense_fits",
    "check_square_kernel",
    "default_memory_budget",
    "make_kernel",
    "make_operator",
    "register_kernel",
    "resolve_dtype",
]
