"""Clustering estimators.

* :class:`GPClustering`: clusters as connected parts of a level set of the Gaussian-process
  variance (Kim & Lee 2007), with out-of-sample labels and a hierarchy over levels.
"""

from ._gp import GPClustering

__all__ = ["GPClustering"]
