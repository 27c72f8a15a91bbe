"""Pictures of the data in a kernel's feature space: kernel MDS and the Laplacian embedding
(Algorithm 8.29 and Algorithm 8.33 of Shawe-Taylor & Cristianini, chapter 8).

Layout: ``_base`` holds what both estimators share (parameters, constraints, the kernel and its
operator); ``_kernel_mds`` the centred eigenproblem, its low-rank (Nyström) form and
:class:`KernelMDS` with ``transform`` for new points; ``_laplacian`` the deflated Laplacian
eigenproblem and :class:`LaplacianEmbedding`. Both reach K only through the kernel operators
of :mod:`kernel_patterns.kernels` and the shared root helpers (``_eigen``, ``_graph``,
``_lowrank``).
"""

from ._kernel_mds import KernelMDS
from ._laplacian import LaplacianEmbedding, auto_n_neighbors

__all__ = ["KernelMDS", "LaplacianEmbedding", "auto_n_neighbors"]
