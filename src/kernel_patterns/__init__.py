"""kernel_patterns: finding structure in data with kernels.

Clustering (GP-variance, kernel k-means, soft and geodesic kernel k-means, spectral),
ranking (ν-ranking, on-line ranking) and embeddings (kernel MDS, Laplacian), with the papers'
metrics, data sets and a command line, ``kernel-patterns``.
"""

from importlib.metadata import PackageNotFoundError, version

from . import datasets, kernels, metrics, plotting
from .cluster import GPClustering, KernelKMeans, SoftKernelKMeans, SpectralClustering
from .embed import KernelMDS, LaplacianEmbedding
from .rank import NuRanking, OnlineRanking

try:
    __version__ = version("kernel_patterns")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "GPClustering",
    "KernelKMeans",
    "KernelMDS",
    "LaplacianEmbedding",
    "NuRanking",
    "OnlineRanking",
    "SoftKernelKMeans",
    "SpectralClustering",
    "__version__",
    "datasets",
    "kernels",
    "metrics",
    "plotting",
]
