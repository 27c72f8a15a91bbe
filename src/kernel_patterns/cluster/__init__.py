"""Clustering estimators: kernel k-means and soft (geodesic) kernel k-means."""

from ._kernel_kmeans import KernelKMeans
from ._soft_kernel_kmeans import SoftKernelKMeans

__all__ = [
    "KernelKMeans",
    "SoftKernelKMeans",
]
