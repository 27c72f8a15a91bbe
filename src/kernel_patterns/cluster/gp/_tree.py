"""The fitted clusters as one tree, which every view of a fit cuts.

The count rule of ``GPClustering()`` chooses groups of SEPs that need not be one level cut
of the saddle tree: a split within the noise is no split, and a group can be kept apart
below a saddle of its neighbour. :func:`fitted_tree` writes the clusters chosen into the
tree: the saddle tree restricted to each group keeps its merges, the merges between groups
are moved above the fit's level where they lay below it, and the level is raised above
every merge inside a group where one lay above it. Cut at that level, the tree gives the
fitted clusters; cut anywhere else, it splits or joins them as their saddles do.
:func:`replay_merges` counts the clusters of at least ``min_cluster_size`` points after each
merge, and :func:`level_for_count` chooses the cut with a given count nearest the fit's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..._validation import FloatArray
from ._cuts import MergeForest
from ._graph import single_linkage

#: how far above the level, as a share of the saddle heights' range, a merge the count rule
#: kept apart is moved (for the dendrogram to show it above the cut; any share > 0 cuts alike)
RAISE = 0.01


def fitted_tree(
    Z: FloatArray, edges: NDArray[np.intp], groups: NDArray[np.intp], level: float
) -> tuple[FloatArray, float]:
    """The saddle linkage ``Z`` rewritten so that its cut at the returned level is ``groups``.

    Inside a group (-1: a group of its own) its merges keep their heights; merges between groups
    at or below ``level`` move, in order, just above it (by at most ``RAISE`` of the heights'
    range). Returns (that linkage, ``level`` or the highest merge inside a group if higher)."""
    p = groups.size
    if p < 2:
        return Z.copy(), float(level)
    own = groups.astype(np.intp, copy=True)
    alone = own < 0
    own[alone] = (own.max() if (~alone).any() else -1) + 1 + np.arange(int(alone.sum()))
    # inside every group: where two of its SEPs first meet in Z (small-to-large merging of
    # each component's {group: a SEP of it})
    forest = MergeForest(np.ones(p))
    members: list[dict[int, int] | None] = [{int(g): i} for i, g in enumerate(own)]
    I_in: list[int] = []
    J_in: list[int] = []
    h_in: list[float] = []
    for _, a, b, h in forest.merges(Z, edges):
        small, big = members[a], members[b]
        assert small is not None and big is not None
        if len(small) > len(big):
            a, b, small, big = b, a, big, small
        for g, sep in small.items():
            other = big.get(g)
            if other is None:
                big[g] = sep
            else:
                I_in.append(sep)
                J_in.append(other)
                h_in.append(h)
        forest.join(b, a)
        members[a] = None
    top = max(float(level), max(h_in, default=-np.inf))
    between = own[edges[:, 0]] != own[edges[:, 1]]
    # the merges the rule kept apart, in their order, into (top, top + δ]: δ a hundredth of
    # the tree's heights (a dendrogram shows them above the cut), below every merge of Z
    # above the level (whose order they keep)
    h = Z[between, 2]
    higher = Z[Z[:, 2] > top, 2]
    delta = RAISE * float(Z[:, 2].max() - Z[:, 2].min())
    if higher.size:
        delta = min(delta, (float(higher.min()) - top) / 2)
    delta = max(delta, 4 * float(np.spacing(top)))
    low = h <= top
    h_out = h.copy()
    if low.any():
        bottom = float(h[low].min())
        rank = (h[low] - bottom) / (top - bottom) if top > bottom else np.zeros(low.sum())
        h_out[low] = top + delta * (0.5 + 0.5 * rank)
    I = np.concatenate([np.asarray(I_in, dtype=np.intp), edges[between, 0]])
    J = np.concatenate([np.asarray(J_in, dtype=np.intp), edges[between, 1]])
    w = np.concatenate([np.asarray(h_in, dtype=np.float64), h_out])
    tree, _ = single_linkage(p, I.astype(np.intp), J.astype(np.intp), w)
    return tree, top


def replay_merges(
    Z: FloatArray, sizes: FloatArray, min_cluster_size: float
) -> NDArray[np.intp]:
    """The clusters of at least ``min_cluster_size`` points (``sizes`` per SEP) after each merge
    of ``Z``: entry r once the first r merges are made (0: none; p - 1: the root)."""
    p = sizes.size
    size = np.zeros(2 * p - 1 if p else 0, dtype=np.float64)
    size[:p] = sizes
    count = int(np.sum(sizes >= min_cluster_size))
    out = np.empty(p, dtype=np.intp)
    out[0] = count
    for r in range(p - 1):
        a, b = int(Z[r, 0]), int(Z[r, 1])
        size[p + r] = size[a] + size[b]
        count += (int(size[p + r] >= min_cluster_size) - int(size[a] >= min_cluster_size)
                  - int(size[b] >= min_cluster_size))
        out[r + 1] = count
    return out


def level_for_count(
    Z: FloatArray, sizes: FloatArray, min_cluster_size: float, n_clusters: int, level: float
) -> float:
    """The level nearest ``level`` (in merges) whose cut of ``Z`` has exactly ``n_clusters``
    components of at least ``min_cluster_size``; ``level`` itself when its cut has them, else the
    middle of the two merge heights around it (tied heights made together). ``ValueError``
    naming the counts there are when no level gives ``n_clusters``."""
    counts = replay_merges(Z, sizes, min_cluster_size)
    h = Z[:, 2]
    # a state r (first r merges made) is a cut only where no later merge ties the r-th
    real = np.ones(counts.size, dtype=bool)
    if h.size:
        real[1:-1] = h[:-1] < h[1:]
    ok = np.flatnonzero(real & (counts == n_clusters))
    if ok.size == 0:
        there = np.unique(counts[real])
        raise ValueError(
            f"no level of the fitted tree gives n_clusters={n_clusters} clusters of at least "
            f"min_cluster_size={min_cluster_size:g} points; its cuts give "
            f"{', '.join(str(int(c)) for c in there)}. Refit with "
            f"GPClustering(n_clusters={n_clusters}), which searches the length scale."
        )
    fitted = int(np.searchsorted(h, level, side="right"))
    r = int(ok[np.argmin(np.abs(ok - fitted))])
    lo = float(h[r - 1]) if r > 0 else float(h[0]) / 2 if h.size else float(level)
    if r == fitted:
        return float(level)
    if r == counts.size - 1:
        return float(h[-1])
    return (lo + float(h[r])) / 2


def membership(
    variance: FloatArray, labels: NDArray[np.intp], basins: NDArray[np.intp],
    equilibrium_variance: FloatArray, level: float,
) -> tuple[FloatArray, FloatArray]:
    """HDBSCAN's ``probabilities_`` and ``outlier_scores_`` read from every point's variance.

    probability ``(level − σ²) / (level − σ²_peak)`` (0 for noise), outlier score
    ``(σ² − σ²_peak) / (σ²_max − σ²_peak)``, both clipped to [0, 1]; ``σ²_peak`` is the lowest
    SEP variance of the point's cluster (of its own SEP, for noise)."""
    seps = np.asarray(equilibrium_variance, dtype=np.float64)
    peak = seps[basins].copy()  # noise: its own SEP's
    inside = labels >= 0
    if inside.any():
        lowest = np.full(int(labels.max()) + 1, np.inf)
        np.minimum.at(lowest, labels[inside], seps[basins[inside]])
        peak[inside] = lowest[labels[inside]]
    tiny = np.finfo(np.float64).tiny
    prob = np.where(inside, (level - variance) / np.maximum(level - peak, tiny), 0.0)
    top = float(variance.max()) if variance.size else 0.0
    out = (variance - peak) / np.maximum(top - peak, tiny)
    return np.clip(prob, 0.0, 1.0), np.clip(out, 0.0, 1.0)
