"""Cluster colours for the figures: the shared palette of :mod:`kernel_patterns._palette`
(which the GP result objects' own drawings use too, so a cluster has one colour in every
figure)."""

from .._palette import NOISE_COLOR, cluster_colors, label_colors

__all__ = ["NOISE_COLOR", "cluster_colors", "label_colors"]
