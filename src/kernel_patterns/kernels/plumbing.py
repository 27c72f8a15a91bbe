"""The kernel package's own plumbing, public for :mod:`kernel_patterns.utils` to re-export.

The kernel operators are built on these helpers, so they live here, and the estimators, the
distributed solvers and the command line reach them through ``kernel_patterns.utils`` (which
sits above this package and imports only its public names; this package never imports
``utils``). They are not in :data:`kernel_patterns.kernels.__all__`: users and kernel authors
do not need them, and a name here may change without a deprecation period.

* :func:`resolve_dtype`: the operator dtype rule (``"auto"``: float64 up to 20,000 samples).
* :func:`dense_nbytes`: the bytes of a dense block, for the memory guard.
* :func:`check_operand`, :func:`check_square_kernel`: checks of ``K @ V`` operands and of a
  precomputed kernel matrix.
* :func:`knn_graph`, :func:`join_components`: the k-nearest-neighbour distance graph of the
  geodesic kernels, made connected.
* :func:`nystrom_factor`, :func:`kernel_columns`, :func:`kmeanspp_landmarks`,
  :func:`leverage_landmarks`: the Nyström factor and its landmark choices.

Examples
--------
>>> from kernel_patterns.kernels.plumbing import dense_nbytes, resolve_dtype
>>> resolve_dtype("auto", 1_000), dense_nbytes(1_000, 1_000, resolve_dtype("auto", 1_000))
(dtype('float64'), 8000000)
"""

from ._dot import check_square_kernel
from ._knn import join_components, knn_graph
from ._memory import dense_nbytes
from ._nystrom import kernel_columns, kmeanspp_landmarks, leverage_landmarks, nystrom_factor
from ._operator import resolve_dtype
from ._operator_base import check_operand

__all__ = [
    "check_operand",
    "check_square_kernel",
    "dense_nbytes",
    "join_components",
    "kernel_columns",
    "kmeanspp_landmarks",
    "knn_graph",
    "leverage_landmarks",
    "nystrom_factor",
    "resolve_dtype",
]
