"""Cutting the saddle-level hierarchy into clusters.

:func:`components_at` (the paper's cut at a level r: components of the edges with merge level
≤ r), :func:`level_for_n_clusters` (a level giving a count), :func:`count_components`
(every group of real size: the modes), :func:`persistent_components` (``n_clusters=k``: the
k most persistent groups) and :func:`data_level_components`
(``level=None``: the level and the groups chosen from the data). The hierarchy itself, the
segment checks behind it, is built in :mod:`~._graph`.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._validation import FloatArray


def effective_count(variance: FloatArray, noise: float) -> FloatArray:
    """The GP's effective count of points within a length scale, ``v2 / (σ² − v2)``.

    ``variance`` holds σ² with the noise ``v2`` included; λ has its shape (large where the data
    are dense)."""
    excess = np.asarray(variance, dtype=np.float64) - noise
    return noise / np.maximum(excess, noise * 1e-12)


def prominence_z(peak: float, saddle: float, noise: float, weight: float = 1.0) -> float:
    """Poisson standard deviations by which a branch whose peak count is ``peak`` stands
    above the saddle variance ``saddle``: ``(λ_peak − λ_saddle) / √(w λ_peak)`` (a count of
    points of weight ``w``; :func:`effective_count`)."""
    lam_h = float(effective_count(np.asarray(saddle), noise))
    return float((peak - lam_h) / np.sqrt(weight * peak))


def components_at(Z: FloatArray, p: int, level: float) -> NDArray[np.intp]:
    """Cluster of every SEP when the linkage is cut at ``level`` (merges with height ≤ level).

    Clusters are numbered 0, 1, ... in order of their smallest SEP index.

    Parameters
    ----------
    Z : ndarray of shape (p - 1, 4)
        The SEP linkage (scipy's format: the two merged ids, the height, the size).
    p : int
        Number of SEPs.
    level : float
        The cut: merges with height ≤ level are made.

    Returns
    -------
    ndarray of shape (p,)
        Cluster of every SEP.

    Examples
    --------
    Three SEPs: 0 and 1 merge at 0.5, then 2 joins at 0.9 (a scipy linkage matrix).

    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import components_at
    >>> Z = np.array([[0.0, 1.0, 0.5, 2.0], [2.0, 3.0, 0.9, 3.0]])
    >>> components_at(Z, 3, 0.4), components_at(Z, 3, 0.7), components_at(Z, 3, 1.0)
    (array([0, 1, 2]), array([0, 0, 1]), array([0, 0, 0]))
    """
    forest = MergeForest(np.ones(2 * p - 1 if p > 0 else 0))
    for r, a, b, _ in forest.merges(Z, Z[:, :2].astype(np.intp), upto=level):
        forest.join(p + r, a)
        forest.join(p + r, b)
    return forest.groups()[1][:p]


def level_for_n_clusters(heights: FloatArray, sep_variance: FloatArray, n_clusters: int) -> float:
    """A level at which the hierarchy has exactly ``n_clusters`` clusters.

    With sorted merge heights ``h_1 ≤ … ≤ h_{p−1}``, cutting at r gives ``p − #{h ≤ r}``
    clusters; the level returned is the middle of the interval that gives ``n_clusters``
    (the top height for one cluster). ``ValueError`` when no level gives that count (more
    clusters than SEPs, or tied merge heights).

    Parameters
    ----------
    heights : ndarray of shape (p - 1,)
        Merge heights of the hierarchy (saddle levels).
    sep_variance : ndarray of shape (p,)
        σ² at the SEPs (the lowest level a cut can have).
    n_clusters : int
        The number of clusters wanted.

    Returns
    -------
    float
        The middle of the interval of levels that leave ``n_clusters`` clusters.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import level_for_n_clusters
    >>> heights, sep_variance = np.array([0.5, 0.9]), np.array([0.1, 0.2, 0.3])
    >>> level_for_n_clusters(heights, sep_variance, 2)
    0.7
    """
    p = heights.size + 1
    if n_clusters > p:
        raise ValueError(
            f"n_clusters={n_clusters} is more than the {p} stable equilibrium point(s) found; "
            "no level gives that many clusters (use a larger inverse length scale l)."
        )
    h = np.sort(heights)
    if n_clusters == 1:
        return float(h[-1]) if h.size else float(sep_variance.max())
    hi = float(h[p - n_clusters])  # the merge that would leave n_clusters − 1 clusters
    lo = float(h[p - n_clusters - 1]) if n_clusters < p else float(sep_variance.min())
    if not lo < hi:
        raise ValueError(
            f"no level gives exactly n_clusters={n_clusters}: merges happen at the same level "
            f"({hi:.6g}); choose another n_clusters."
        )
    return 0.5 * (lo + hi)


def find_root(parent: NDArray[np.intp], a: int) -> int:
    """Root of ``a`` in the union-find forest ``parent`` (with path halving, in place): the
    one union-find of the GP package (the hierarchy, its cuts and the selection)."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = int(parent[a])
    return a


class MergeForest:
    """The one merge replay of the GP package: a union-find over SEPs (or groups of them)
    with the ``size`` of every component; its readings of the saddle tree differ only in which
    merges they make (:meth:`merges`)."""

    def __init__(self, sizes: ArrayLike) -> None:
        self.size = np.asarray(sizes, dtype=np.float64).copy()
        self.parent = np.arange(self.size.size)

    def find(self, a: int) -> int:
        """The root of ``a``'s component."""
        return find_root(self.parent, int(a))

    def join(self, a: int, b: int) -> None:
        """Join root ``b``'s component into root ``a``'s (``a`` stays the root)."""
        self.parent[b] = a
        self.size[a] += self.size[b]

    def merges(
        self, Z: FloatArray, edges: NDArray[np.intp], *, above: float = -np.inf,
        upto: float = np.inf, of: NDArray[np.intp] | None = None,
    ) -> Iterator[tuple[int, int, int, float]]:
        """The merges of ``Z`` with height in (``above``, ``upto``], in order: their row,
        the roots of their two sides now (each side the SEP of ``edges``, or its element
        ``of[sep]``) and their height. The caller joins those it makes."""
        for r in range(Z.shape[0]):
            h = float(Z[r, 2])
            if h > upto:
                return
            if h <= above:
                continue
            i, j = int(edges[r, 0]), int(edges[r, 1])
            if of is not None:
                i, j = int(of[i]), int(of[j])
            yield r, self.find(i), self.find(j), h

    def groups(self) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """The root of every element and its component, numbered by smallest element."""
        roots = np.array([self.find(i) for i in range(self.size.size)], dtype=np.intp)
        _, first, inverse = np.unique(roots, return_index=True, return_inverse=True)
        order = np.argsort(np.argsort(first))
        return roots, order[inverse].astype(np.intp)


def count_components(
    Z: FloatArray,
    edges: NDArray[np.intp],
    basins: NDArray[np.intp],
    n_clusters: int,
    min_cluster_size: int,
    sep_variance: FloatArray,
) -> tuple[NDArray[np.intp], int, float]:
    """The modes: groups of at least ``min_cluster_size`` points, at most ``n_clusters``.

    Merges in saddle order; a group below ``min_cluster_size`` always merges, two big groups stay
    apart once only ``n_clusters`` are left. Returns (group of every SEP, -1 for small groups;
    the number of big groups; the highest saddle merged, or the lowest SEP variance)."""
    p = Z.shape[0] + 1
    forest = MergeForest(np.bincount(basins, minlength=p))
    size = forest.size
    n_big = int(np.sum(size >= min_cluster_size))
    level = float(sep_variance.min())  # nothing merged: every SEP its own group
    for _, ra, rb, h in forest.merges(Z, edges):
        big_a, big_b = size[ra] >= min_cluster_size, size[rb] >= min_cluster_size
        if big_a and big_b and n_big <= n_clusters:
            continue
        forest.join(ra, rb)
        n_big += int(size[ra] >= min_cluster_size) - int(big_a) - int(big_b)
        level = max(level, h)
    roots, groups = forest.groups()
    groups = np.where(size[roots] >= min_cluster_size, groups, -1).astype(np.intp)
    return groups, n_big, level


def group_persistence(
    Z: FloatArray,
    edges: NDArray[np.intp],
    basins: NDArray[np.intp],
    sep_variance: FloatArray,
    min_cluster_size: int,
    noise: float | None = None,
) -> FloatArray:
    """Persistence of every group of SEPs that dies in the saddle tree, decreasing (ToMATo).

    Elder rule over groups of at least ``min_cluster_size`` points (smaller ones absorbed
    unrecorded). Persistence is h − birth in σ², or with ``noise`` v2 the prominence of the
    peak in the effective count λ in Poisson standard deviations,
    ``(λ(birth) − λ(h)) / √λ(birth)``."""
    return _deaths(Z, edges, basins, sep_variance, min_cluster_size, noise)[0]


def _deaths(
    Z: FloatArray,
    edges: NDArray[np.intp],
    basins: NDArray[np.intp],
    sep_variance: FloatArray,
    min_cluster_size: int,
    noise: float | None = None,
) -> tuple[FloatArray, NDArray[np.intp]]:
    """The persistences of :func:`group_persistence` (decreasing) and the merge (row of
    ``Z``) where each of those groups died; ties keep the earlier merge first."""
    forest = MergeForest(np.bincount(basins, minlength=Z.shape[0] + 1))
    size = forest.size
    birth = np.asarray(sep_variance, dtype=np.float64).copy()
    dead: list[float] = []
    rows: list[int] = []
    for r, a, b, h in forest.merges(Z, edges):
        if birth[b] < birth[a]:
            a, b = b, a  # a: the elder
        if size[a] >= min_cluster_size and size[b] >= min_cluster_size:
            if not noise:  # None, or a kernel without noise: λ is not defined
                dead.append(h - float(birth[b]))
            else:  # λ falls as σ² rises: the elder rule is the same in either
                peak = float(effective_count(birth[b], noise))
                dead.append(prominence_z(peak, h, noise))
            rows.append(r)
        forest.join(a, b)
    pers = np.asarray(dead, dtype=np.float64)
    order = np.argsort(-pers, kind="stable")
    return pers[order], np.asarray(rows, dtype=np.intp)[order]


def persistent_components(
    Z: FloatArray,
    edges: NDArray[np.intp],
    basins: NDArray[np.intp],
    n_clusters: int,
    min_cluster_size: int,
    sep_variance: FloatArray,
    noise: float | None = None,
) -> tuple[NDArray[np.intp], int, float]:
    """Clusters for a requested count: the ``n_clusters`` most persistent groups (ToMATo).

    The tree of merges without the ``n_clusters − 1`` merges where the most persistent groups
    died (:func:`group_persistence`, same ``noise``). Returns (group of every SEP, -1 below
    ``min_cluster_size``; number of big groups; the highest saddle merged)."""
    p = Z.shape[0] + 1
    _, rows = _deaths(Z, edges, basins, sep_variance, min_cluster_size, noise)
    kept_apart = np.zeros(Z.shape[0], dtype=bool)
    kept_apart[rows[: max(int(n_clusters) - 1, 0)]] = True
    forest = MergeForest(np.bincount(basins, minlength=p))
    level = float(np.min(sep_variance))
    for r, ra, rb, h in forest.merges(Z, edges):
        if not kept_apart[r]:
            forest.join(ra, rb)
            level = max(level, h)
    roots, groups = forest.groups()
    big = forest.size[roots] >= min_cluster_size
    n_big = int(np.unique(roots[big]).size)
    return np.where(big, groups, -1).astype(np.intp), n_big, level


def data_level_components(
    Z: FloatArray,
    edges: NDArray[np.intp],
    level: float,
    basins: NDArray[np.intp],
    point_variance: FloatArray,
    min_cluster_size: int,
    below_points: bool = True,
) -> NDArray[np.intp]:
    """Clusters of the SEPs chosen from the data (``GPClustering`` with ``level=None``).

    Merges in saddle order up to ``level`` (r*); a side below ``min_cluster_size`` points always
    merges; a saddle below the variance of every training point stays split unless
    ``below_points=False`` (the rule is ours: see gp_design_notes.md). Returns the group of
    every SEP, numbered by smallest SEP index."""
    forest = MergeForest(np.bincount(basins, minlength=Z.shape[0] + 1))
    floor = float(point_variance.min()) if point_variance.size and below_points else -np.inf
    for _, ra, rb, h in forest.merges(Z, edges, upto=level):
        if min(forest.size[ra], forest.size[rb]) < min_cluster_size or h >= floor:
            forest.join(ra, rb)
    return forest.groups()[1]
