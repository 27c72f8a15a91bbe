"""Clustering estimators.

* :class:`GPClustering`: clusters as connected parts of a level set of the Gaussian-process
  variance (Kim & Lee 2007), with out-of-sample labels and a hierarchy over levels.
* :class:`SpectralClustering`: the book's spectral relaxations (K, random walk, normalised,
  Laplacian) with its assignment rules (re-clustering, eigenvector, QR, threshold).
"""

from ._gp import GPClustering
from ._spectral import SpectralClustering

__all__ = ["GPClustering", "SpectralClustering"]
