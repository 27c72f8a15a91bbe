"""The fitted tree condensed as HDBSCAN condenses its cluster tree: a merge that joins a group
of fewer than ``min_cluster_size`` points is those points falling out of a cluster, not a
split; only a merge of two such groups ends a cluster and starts two. The picture of a fit
(:func:`~._plots.plot_condensed_tree`) draws it as an icicle, each cluster as wide as its
points, the fitted clusters (those alive at the fit's level) outlined."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..._validation import FloatArray
from ._cuts import effective_count, prominence_z


@dataclass(frozen=True)
class CondensedTree:
    """The clusters of a condensed tree, the root first, depth first.

    Parameters
    ----------
    parent, birth, death, size, left, selected, sep, peak : ndarray of shape (n_nodes,)
        The attributes below (``GPLandscape.condensed_tree()`` computes them).

    Attributes
    ----------
    parent : ndarray of shape (n_nodes,)
        The cluster each one split from (-1: the root).
    birth : ndarray of shape (n_nodes,)
        The level (σ²) where it parts from its sibling (the root: the top merge).
    death : ndarray of shape (n_nodes,)
        The level where it splits in two or ends (its lowest SEP's σ²).
    size : ndarray of shape (n_nodes,)
        Its points at birth.
    left : ndarray of shape (n_nodes,)
        Where its bar starts on the icicle's horizontal axis (points).
    selected : ndarray of shape (n_nodes,)
        Alive at the fit's level: the fitted clusters.
    sep : ndarray of shape (n_nodes,)
        A SEP of its largest part (the cluster a selected one is, by the SEP's label).
    peak : ndarray of shape (n_nodes,)
        Its lowest SEP variance (its densest point).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import gp_landscape
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> land = gp_landscape(X, GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), min_cluster_size=2)
    >>> tree = land.condensed_tree()
    >>> tree.parent, tree.size, tree.selected  # the root splits into the two fitted clusters
    (array([-1,  0,  0]), array([6., 3., 3.]), array([False,  True,  True]))
    """

    parent: NDArray[np.intp]
    birth: FloatArray
    death: FloatArray
    size: FloatArray
    left: FloatArray
    selected: NDArray[np.bool_]
    sep: NDArray[np.intp]
    peak: FloatArray

    def deepest_split(self, noise: float, weight: float = 1.0) -> float:
        """How many Poisson standard deviations of the effective count the deepest split
        inside a selected cluster stands (its younger branch's peak above the saddle,
        ``prominence_z``); NaN when no selected cluster
        splits or the kernel has no noise."""
        best = np.nan
        if noise <= 0:
            return best
        for j in np.flatnonzero(self.selected):
            kids = np.flatnonzero(self.parent == j)
            if kids.size < 2:
                continue
            younger = float(self.peak[kids].max())
            z = prominence_z(float(effective_count(np.asarray(younger), noise)),
                             float(self.death[j]), noise, weight)
            best = z if np.isnan(best) else max(best, z)
        return best


def condense(
    Z: FloatArray, equilibrium_variance: FloatArray, sizes: FloatArray,
    min_cluster_size: float, level: float,
) -> CondensedTree:
    """The :class:`CondensedTree` of the linkage ``Z`` of SEPs whose basins hold ``sizes`` points
    (a group below ``min_cluster_size`` falls out instead of splitting), the clusters alive at
    ``level`` marked ``selected``."""
    p = sizes.size
    weight = np.zeros(2 * p - 1)
    weight[:p] = sizes
    low = np.zeros(2 * p - 1)  # the lowest SEP variance below every node
    low[:p] = equilibrium_variance
    rep = np.arange(2 * p - 1)  # a SEP of every node's heavier part
    for r in range(p - 1):
        a, b = int(Z[r, 0]), int(Z[r, 1])
        weight[p + r] = weight[a] + weight[b]
        low[p + r] = min(low[a], low[b])
        rep[p + r] = rep[a] if weight[a] >= weight[b] else rep[b]
    parent: list[int] = []
    birth: list[float] = []
    death: list[float] = []
    size: list[float] = []
    left: list[float] = []
    seps: list[int] = []
    peaks: list[float] = []
    top = 2 * p - 2
    stack = [(top, -1, float(Z[-1, 2]) if p > 1 else float(low[0]), 0.0)]
    while stack:
        node, up, born, x = stack.pop()
        me = len(parent)
        parent.append(up)
        birth.append(born)
        size.append(float(weight[node]))
        left.append(x)
        seps.append(int(rep[node]))
        peaks.append(float(low[node]))
        while True:  # follow the cluster down through the groups that fall out of it
            if node < p:
                death.append(float(low[node]))
                break
            a, b = int(Z[node - p, 0]), int(Z[node - p, 1])
            big_a, big_b = weight[a] >= min_cluster_size, weight[b] >= min_cluster_size
            if big_a and big_b:
                h = float(Z[node - p, 2])
                death.append(h)
                stack.append((b, me, h, x + float(weight[a])))
                stack.append((a, me, h, x))
                break
            if not (big_a or big_b):
                death.append(float(Z[node - p, 2]))
                break
            keep = a if big_a else b
            if keep == b:  # the points that fall out keep the left of the bar
                x += float(weight[a])
            node = keep
    up_a, birth_a, death_a = np.asarray(parent, dtype=np.intp), np.asarray(birth), np.asarray(death)
    return CondensedTree(
        parent=up_a, birth=birth_a, death=death_a, size=np.asarray(size),
        left=np.asarray(left), selected=(death_a <= level) & ((level < birth_a) | (up_a < 0)),
        sep=np.asarray(seps, dtype=np.intp), peak=np.asarray(peaks),
    )
