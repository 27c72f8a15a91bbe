"""kernel_patterns: finding structure in data with kernels.

Clustering (GP-variance, kernel k-means, soft and geodesic kernel k-means, spectral),
ranking (ν-ranking, on-line ranking) and embeddings (kernel MDS, Laplacian), with the papers'
metrics, data sets and a command line, ``kernel-patterns``.

The subpackages and estimators are imported when first used (PEP 562), so that
``import kernel_patterns`` (and ``kernel-patterns --help``) does not pay for scikit-learn,
SciPy, pandas and matplotlib: ``from kernel_patterns import GPClustering`` and
``kernel_patterns.datasets`` work as ever.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy names are, for type checkers and IDEs
    from . import datasets, kernels, metrics, plotting
    from .cluster import GPClustering, KernelKMeans, SoftKernelKMeans, SpectralClustering
    from .embed import KernelMDS, LaplacianEmbedding
    from .rank import NuRanking, OnlineRanking

try:
    __version__ = version("kernel_patterns")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

#: lazy name -> the module that defines it (a submodule itself when the name is one)
_LAZY = {
    "datasets": ".datasets", "kernels": ".kernels", "metrics": ".metrics",
    "plotting": ".plotting",
    "GPClustering": ".cluster", "KernelKMeans": ".cluster", "SoftKernelKMeans": ".cluster",
    "SpectralClustering": ".cluster",
    "KernelMDS": ".embed", "LaplacianEmbedding": ".embed",
    "NuRanking": ".rank", "OnlineRanking": ".rank",
}

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


def __getattr__(name: str) -> Any:
    """Import a subpackage or estimator of :data:`__all__` on first use."""
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'kernel_patterns' has no attribute {name!r}")
    module = importlib.import_module(target, __name__)
    value = module if target == f".{name}" else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
