"""Figures: clusters, kernel matrices, variance landscapes, hierarchies, embeddings.

matplotlib is imported lazily inside each function (the ``plot`` extra); every function takes
``ax=None`` (a new figure when None) and returns the axes.
"""

from ._base import plot_clusters, plot_kernel_matrix, save_figure
from ._embedding import plot_embedding, plot_spectrum
from ._gp import plot_hierarchy, plot_variance_landscape
from ._ranking import plot_ranking

__all__ = [
    "plot_clusters",
    "plot_embedding",
    "plot_hierarchy",
    "plot_kernel_matrix",
    "plot_ranking",
    "plot_spectrum",
    "plot_variance_landscape",
    "save_figure",
]
