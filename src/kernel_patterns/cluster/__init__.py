"""Clustering estimators.

Layout: ``gp/`` is the GP variance clustering package (its solver :func:`gp.gp_landscape`, the
result objects and :class:`GPClustering`); ``_kmeans_base`` holds what the two k-means share
(parameters, validation, initial labels through ``_kmeans_init``, centroids for new points),
``_kernel_kmeans_solver`` the lock-step Lloyd solver, ``_kernel_kmeans`` and
``_soft_kernel_kmeans`` the two estimators; ``_spectral`` holds the spectral eigenproblems and
:class:`SpectralClustering`, ``_spectral_assign`` its assignment rules and
``_spectral_extension`` the labels of new points. Everything reaches K through the public
operators of :mod:`kernel_patterns.kernels`.

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
from ._spectral import SpectralClustering
from ._spectral_eigen import spectral_eigenpairs
from .gp import GPClustering

__all__ = [
    "GPClustering",
    "KernelKMeans",
    "SoftKernelKMeans",
    "SpectralClustering",
    "spectral_eigenpairs",
]
