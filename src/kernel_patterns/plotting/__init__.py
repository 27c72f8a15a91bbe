"""Figures: clusters, kernel matrices, variance landscapes, hierarchies, embeddings.

Layout: ``_base`` (scatter plots of clusters, kernel matrices, :func:`save_figure`, which writes
through :func:`kernel_patterns.io.atomic_path`), ``_embedding`` (embeddings and spectra),
``_gp`` (the variance landscape and the hierarchy, drawn by the GP result objects
:class:`~kernel_patterns.cluster.gp.GPLandscape` and
:class:`~kernel_patterns.cluster.gp.GPHierarchy`) and ``_ranking``. matplotlib is imported
lazily (the ``plot`` extra, through the shared ``kernel_patterns._mpl``); every function takes
``ax=None`` (a new figure when None) and returns the axes. Plotting imports estimators and
result objects, never the command line, experiments or demos. ``_colors`` gives every
figure's cluster colours (:func:`cluster_colors`, :func:`label_colors`): distinct past 30
clusters, a cluster's colour from its label, noise grey.

Examples
--------
The constant: the colour of noise (label -1), a grey no cluster has.

>>> from kernel_patterns.plotting import NOISE_COLOR, label_colors
>>> NOISE_COLOR
(0.55, 0.55, 0.55, 1.0)
>>> tuple(label_colors([-1])[0]) == NOISE_COLOR
True
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
