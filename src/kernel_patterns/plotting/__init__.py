"""Figures: clusters, kernel matrices, variance landscapes, hierarchies, embeddings.

matplotlib is imported lazily inside each function (the ``plot`` extra); every function takes
``ax=None`` (a new figure when None) and returns the axes.
"""

from ._base import plot_clusters, plot_kernel_matrix, save_figure
from ._embedding import plot_embedding, plot_spectrum

__all__ = [
    "plot_clusters",
    "plot_embedding",
    "plot_kernel_matrix",
    "plot_spectrum",
    "save_figure",
]
