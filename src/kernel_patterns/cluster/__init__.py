"""Clustering estimators.

* :class:`GPClustering`: clusters as connected parts of a level set of the Gaussian-process
  variance (Kim & Lee 2007), with out-of-sample labels and a hierarchy over levels.
* :class:`KernelKMeans`: Lloyd's algorithm in feature space with the exact distance (eq. 6.3
  of Rogers & Girolami; Algorithm 8.22 of Shawe-Taylor & Cristianini) and its initialisations.
* :class:`SoftKernelKMeans`: soft assignments with stiffness β (Kim, Shim & Choi); with a
  :class:`~kernel_patterns.kernels.GeodesicKernel` it is soft geodesic kernel k-means.
* :class:`SpectralClustering`: the book's spectral relaxations (K, random walk, normalised,
  Laplacian) with its assignment rules (re-clustering, eigenvector, QR, threshold).
"""

from ._kernel_kmeans import KernelKMeans
from ._soft_kernel_kmeans import SoftKernelKMeans
from ._spectral import SpectralClustering, spectral_eigenpairs
from .gp import GPClustering

__all__ = [
    "GPClustering",
    "KernelKMeans",
    "SoftKernelKMeans",
    "SpectralClustering",
    "spectral_eigenpairs",
]
