"""Figures: clusters, kernel matrices, variance landscapes, hierarchies, embeddings.

Layout: ``_base`` (scatter plots of clusters, kernel matrices, :func:`save_figure`, which writes
through :func:`kernel_patterns.io.atomic_path`), ``_embedding`` (embeddings and spectra),
``_gp`` (the variance landscape and the hierarchy, drawn by the GP result objects
:class:`~kernel_patterns.cluster.gp.GPLandscape` and
:class:`~kernel_patterns.cluster.gp.GPHierarchy`) and ``_ranking``. matplotlib is imported
lazily (the ``plot`` extra, through the shared ``kernel_patterns._mpl``); every function takes
``ax=None`` (a new figure when None) and returns the axes. Plotting imports estimators and
result objects, never the command line, experiments or demos.
"""

from ._base import plot_clusters, plot_kernel_matrix, save_figure
from ._colors import NOISE_COLOR, cluster_colors, label_colors
from ._embedding import plot_embedding, plot_spectrum
from ._gp import plot_hierarchy, plot_variance_landscape
from ._ranking import plot_ranking

__all__ = [
    "NOISE_COLOR",
    "cluster_colors",
    "label_colors",
    "plot_clusters",
    "plot_embedding",
    "plot_hierarchy",
    "plot_kernel_matrix",
    "plot_ranking",
    "plot_spectrum",
    "plot_variance_landscape",
    "save_figure",
]
