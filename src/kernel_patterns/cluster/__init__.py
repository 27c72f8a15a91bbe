"""Clustering estimators: GP-variance, kernel k-means (hard, soft, geodesic) and spectral."""

from ._spectral import SpectralClustering

__all__ = ["SpectralClustering"]
