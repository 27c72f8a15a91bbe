"""Pictures of the data in a kernel's feature space: kernel MDS and the Laplacian embedding
(Algorithm 8.29 and Algorithm 8.33 of Shawe-Taylor & Cristianini, chapter 8)."""

from ._kernel_mds import KernelMDS
from ._laplacian import LaplacianEmbedding

__all__ = ["KernelMDS", "LaplacianEmbedding"]
