"""Clusters chosen from the saddle tree by excess of mass, with splits tested against noise.

The GP variance defines a cluster tree: basins (one per SEP) join at their saddle levels
(the linkage of :mod:`~._graph`). :func:`excess_of_mass` reads it as HDBSCAN reads the
cluster tree of a density (Campello, Moulavi & Sander, PAKDD 2013; McInnes & Healy, ICDMW
2017), with two changes that the variance calls for:

* the *density* is the GP's effective count of points within a length scale,
  ``λ = v2 / (σ² − v2)`` (for n coincident points, ``σ² − v2 ≈ v2 / n``: λ counts them; far
  from the data λ falls to about ``v2 / v0``). A cluster's stability is its excess of mass
  ``Σ_points (λ_leave − λ_birth)`` over the levels it lives through;
* a split is a split only when it is larger than the noise of that count: the younger
  branch's peak ``λ_peak`` must exceed the saddle's ``λ_saddle`` by ``significance``
  Poisson standard deviations, ``λ_peak − λ_saddle ≥ z √(w λ_peak)``, where every point
  counts ``w`` (1, or ``s / n`` for a subsample's landscape averaging n points). A
  shallower split is one
  cluster going on (as HDBSCAN's condensed tree treats a split that sheds fewer than
  ``min_cluster_size`` points): so a region of even density, whose basins are separated
  by saddles within the noise, is one cluster, and uniform noise has no split at all.

The selection keeps the non-nested clusters of greatest total stability (HDBSCAN's
``eom``), the root included: "no structure" is an answer. Mass decides only among splits
that could be noise: a split that clears the family-wise (Bonferroni) level of all the splits
of the tree is two clusters, however much mass their parent holds (the excess of mass
prefers the parent of two touching clusters whose saddle is high).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.stats import norm

from ..._validation import FloatArray
from ._cuts import MergeForest, effective_count, prominence_z

#: Poisson standard deviations by which a branch's peak count must exceed its saddle's
#: for the split to count (a two-sided 95 % test).
SIGNIFICANCE = 2.0


@dataclass
class Selection:
    """The clusters :func:`excess_of_mass` selected.

    Attributes
    ----------
    groups : ndarray of shape (n_equilibria,)
        Cluster of every SEP (0, 1, ...; -1: in no cluster, a group smaller than
        ``min_cluster_size`` apart from every cluster at the top level).
    n_clusters : int
        Clusters selected.
    stability : ndarray of shape (n_clusters,)
        Excess of mass of every selected cluster.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._selection import excess_of_mass
    >>> Z, edges = np.array([[0, 1, 1.4, 2]]), np.array([[0, 1]])
    >>> sel = excess_of_mass(Z, edges, np.repeat([0, 1], 10), np.full(20, 1.05),
    ...                      np.array([1.01, 1.01]), top_level=1.3, noise=1.0,
    ...                      min_cluster_size=5)
    >>> sel.n_clusters, sel.groups  # joined only above r*: apart from the start
    (2, array([0, 1]))
    """

    groups: NDArray[np.intp]
    n_clusters: int
    stability: FloatArray


def excess_of_mass(
    Z: FloatArray,
    edges: NDArray[np.intp],
    basins: NDArray[np.intp],
    point_variance: FloatArray,
    sep_variance: FloatArray,
    top_level: float,
    noise: float,
    min_cluster_size: int,
    significance: float = SIGNIFICANCE,
    weight: float = 1.0,
    family_wise: bool = False,
) -> Selection:
    """The clusters of the saddle tree of greatest total excess of mass.

    The tree is condensed top-down from ``top_level`` (r*: every training point is in the
    level set there; its pieces, joined only above it, are apart from the start, except
    those whose split is within the noise by the test below, which start as one cluster:
    :func:`join_within_noise`). At each merge, read downwards as a split, a branch with
    fewer than ``min_cluster_size`` points falls out of its cluster, and a split whose
    younger branch is not ``significance`` Poisson standard deviations above the saddle
    (in the effective count λ of :func:`effective_count`) is no split: the cluster goes on
    through both branches. A real split ends its cluster and starts two. Every cluster's
    stability is
    ``Σ (λ(max(σ²_i, d_i)) − λ(b))`` over its points i with ``σ²_i < b``, ``b`` its birth
    level and ``d_i`` the level where point i leaves it. A cluster at the top is born, as
    in HDBSCAN, where it parts from the other large groups (the lowest merge joining one of
    its pieces to another's): the mass it holds above r* counts, so a ring far from the
    rest is not outweighed by its arcs (the whole data, one piece, is born at r*). The
    clusters kept are the non-nested ones of greatest total stability, chosen bottom-up
    (HDBSCAN's ``eom``, the root allowed), except that a cluster other than the whole
    data whose split clears the family-wise level of the m splits tested,
    ``z ≥ Φ⁻¹(1 − Φ(−significance) / m)`` (Bonferroni), is never kept over its children:
    such a split is real beyond the multiple testing of the tree, and the mass does not
    undo it. A group of a cluster not kept that is in none of the kept clusters
    below it joins the kept cluster it opens into (across the segment of its merge).

    Parameters
    ----------
    Z : ndarray of shape (n_equilibria - 1, 4)
        The saddle-level linkage (``single_linkage``).
    edges : ndarray of shape (n_equilibria - 1, 2)
        The SEP pair whose segment made each merge of ``Z``.
    basins : ndarray of shape (n_points,)
        The SEP of every point that shapes the landscape.
    point_variance : ndarray of shape (n_points,)
        σ² at those points.
    sep_variance : ndarray of shape (n_equilibria,)
        σ² at every SEP.
    top_level : float
        The level the tree is read from (r*).
    noise : float
        The kernel's noise variance v2 (> 0).
    min_cluster_size : int
        Branches with fewer points fall out instead of splitting.
    significance : float, default=2.0
        Poisson standard deviations a split must clear (0: every split of two branches of
        ``min_cluster_size`` points counts, HDBSCAN's rule).
    weight : float, default=1.0
        What one training point counts in λ (``InducingPlan.weight``: ``s / n`` when the
        landscape of an ``s``-point subsample averages all ``n`` points). A count of
        points of weight ``w`` has the Poisson variance ``w λ``, not ``λ``.
    family_wise : bool, default=False
        When True, the whole data (the only piece at the top) is not a cluster either, whatever
        its mass, once the largest split of the tree clears the family-wise level above:
        "no structure" is then rejected, and the clusters below it are read.

    Returns
    -------
    Selection

    Examples
    --------
    Two deep basins of 30 points each, joined at a high saddle, and a third that is only
    a ripple of the second (its saddle within the noise):

    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._selection import excess_of_mass
    >>> Z = np.array([[1, 2, 1.02, 2], [0, 3, 1.4, 3]])
    >>> edges = np.array([[1, 2], [0, 1]])
    >>> basins = np.repeat([0, 1, 2], 30)
    >>> sep_variance = np.array([1.01, 1.01, 1 + 1 / 55])  # λ 100, 100, 55
    >>> point_variance = sep_variance[basins] + 0.05
    >>> sel = excess_of_mass(Z, edges, basins, point_variance, sep_variance,
    ...                      top_level=1.3, noise=1.0, min_cluster_size=5)
    >>> sel.n_clusters, sel.groups
    (2, array([0, 1, 1]))
    """
    p = Z.shape[0] + 1
    lam_pts = effective_count(point_variance, noise)
    tree = _Tree(Z, basins, sep_variance, p)
    lam_low = effective_count(tree.low, noise)

    birth: list[float] = []  # λ at which each cluster is born
    parent: list[int] = []
    stab: list[float] = []
    children: list[list[int]] = []
    split_z: list[float] = []  # z of the split that ended each cluster (nan: none)
    owner = np.full(p, -1, dtype=np.intp)  # cluster each SEP belongs to (left it there)

    def new(b: float, par: int) -> int:
        birth.append(b)
        parent.append(par)
        stab.append(0.0)
        children.append([])
        split_z.append(np.nan)
        if par >= 0:
            children[par].append(len(birth) - 1)
        return len(birth) - 1

    def leave(c: int, node: int, lam: float) -> None:
        """The points of ``node``'s subtree leave cluster ``c`` at level λ = ``lam``."""
        seps = tree.leaves(node)
        idx = tree.points(seps)
        if idx.size:
            lp = lam_pts[idx]
            gain = np.minimum(lp, lam) - birth[c]
            stab[c] += float(np.sum(gain[lp > birth[c]]))
        owner[seps] = c

    lam_top = float(effective_count(np.asarray(top_level), noise))
    # the forest of the level set at the top level: its pieces, those whose split above it
    # is within the noise one cluster (join_within_noise), each large piece read below
    pieces: list[int] = []
    todo = [2 * p - 2]
    while todo:
        a = todo.pop()
        if a >= p and tree.height[a] > top_level:
            todo.extend(int(k) for k in tree.kids[a])
        else:
            pieces.append(a)
    piece = np.empty(p, dtype=np.intp)
    for i, a in enumerate(pieces):
        piece[tree.leaves(a)] = i
    joined = join_within_noise(Z, edges, piece, tree.size[pieces].astype(np.float64),
                               sep_variance, top_level, noise, min_cluster_size, significance,
                               weight)
    cluster_of: dict[int, int] = {}
    stack: list[tuple[int, int]] = []
    z_tested: list[float] = []  # of every split of two large branches tested
    group = [int(joined[tree.leaves(a)[0]]) for a in pieces]
    parts = np.full(int(joined.max()) + 1, np.inf)  # where each group parts from the others
    large = np.bincount(joined, weights=tree.size[:p]) >= min_cluster_size
    for a, g in zip(pieces, group, strict=True):
        parts[g] = min(parts[g], tree.contact(a, joined, large))
    born = np.where(np.isinf(parts), lam_top, effective_count(parts, noise))  # above r*
    for a, g in zip(pieces, group, strict=True):
        if tree.size[a] >= min_cluster_size:
            if g not in cluster_of:
                cluster_of[g] = new(float(born[g]), -1)
            stack.append((a, cluster_of[g]))
    while stack:
        node, c = stack.pop()
        if node < p:
            leave(c, node, np.inf)
            continue
        lam_h = float(effective_count(np.asarray(tree.height[node]), noise))
        a, b = (int(k) for k in tree.kids[node])
        big_a, big_b = tree.size[a] >= min_cluster_size, tree.size[b] >= min_cluster_size
        if big_a and big_b:
            # the younger branch's peak against the saddle
            z_tested.append(prominence_z(min(lam_low[a], lam_low[b]), tree.height[node],
                                         noise, weight))
            if z_tested[-1] < significance:
                stack.extend([(a, c), (b, c)])  # a split within the noise: no split
                continue
            leave(c, node, lam_h)
            split_z[c] = z_tested[-1]
            stack.extend([(a, new(lam_h, c)), (b, new(lam_h, c))])
        elif big_a or big_b:
            big, small = (a, b) if big_a else (b, a)
            leave(c, small, lam_h)
            stack.append((big, c))
        else:
            leave(c, a, lam_h)
            leave(c, b, lam_h)

    n = len(birth)
    value = np.zeros(n)
    chosen = np.zeros(n, dtype=bool)
    # the family-wise level of all the splits tested: a cluster whose split clears it is not
    # kept over its children, whatever its mass. The whole data (the only piece at the top)
    # is kept by its mass, but with family_wise: "no structure" then stands only while no
    # split of the tree clears that level
    family_z = float(norm.isf(norm.sf(significance) / max(len(z_tested), 1)))
    real = np.asarray(split_z) >= family_z  # nan (no split) is False
    one_piece = len(cluster_of) == 1
    keep_whole = not (family_wise and one_piece and max(z_tested, default=0.0) >= family_z)
    for c in range(n - 1, -1, -1):  # children are created after their parent: bottom-up
        below = float(sum(value[k] for k in children[c]))
        selectable = keep_whole if one_piece and parent[c] < 0 else not real[c]
        if not children[c] or (stab[c] >= below and selectable):
            value[c], chosen[c] = stab[c], True
        else:
            value[c] = below
    final = np.full(n, -1, dtype=np.intp)
    stability: list[float] = []
    for c in range(n):  # top-down: a kept cluster takes all of its descendants
        above = final[parent[c]] if parent[c] >= 0 else -1
        if above >= 0:
            final[c] = above
        elif chosen[c]:
            final[c] = len(stability)
            stability.append(stab[c])
    groups = np.full(p, -1, dtype=np.intp)
    if n:
        groups = np.where(owner >= 0, final[np.maximum(owner, 0)], -1).astype(np.intp)
    _join_unkept(groups, owner, Z, edges, top_level)
    # clusters numbered 0, 1, ... by their smallest SEP index
    ids, first = np.unique(groups[groups >= 0], return_index=True)
    in_order = ids[np.argsort(first)]
    number = np.full(max(len(stability), 1), -1, dtype=np.intp)
    number[in_order] = np.arange(in_order.size)
    groups = np.where(groups >= 0, number[np.maximum(groups, 0)], -1).astype(np.intp)
    return Selection(groups=groups, n_clusters=int(in_order.size),
                     stability=np.asarray([stability[k] for k in in_order], dtype=np.float64))


def join_within_noise(
    Z: FloatArray,
    edges: NDArray[np.intp],
    groups: NDArray[np.intp],
    counts: FloatArray,
    sep_variance: FloatArray,
    level: float,
    noise: float,
    min_cluster_size: int,
    significance: float = SIGNIFICANCE,
    weight: float = 1.0,
) -> NDArray[np.intp]:
    """``groups``, the pieces of a cut at ``level``, with every two pieces whose split is
    within the noise joined: the test of :func:`excess_of_mass` applied to the merges above
    ``level``.

    The merges are replayed in order of their saddle level ``h > level``. Two pieces of at
    least ``min_cluster_size`` points (``counts``) stay apart when the younger one's peak
    count clears the saddle's by ``significance`` Poisson standard deviations,
    ``λ_peak − λ_h ≥ z √λ_peak``; otherwise they are one piece. Smaller pieces are left as
    they are (noise, by size).

    Parameters
    ----------
    Z : ndarray of shape (n_equilibria - 1, 4)
        The saddle-level linkage (``single_linkage``).
    edges : ndarray of shape (n_equilibria - 1, 2)
        The SEP pair whose segment made each merge of ``Z``.
    groups : ndarray of shape (n_equilibria,)
        Piece of every SEP at ``level`` (0, 1, ...).
    counts : ndarray of shape (n_groups,)
        Size of every piece, in training points (as the landscape counts them).
    sep_variance : ndarray of shape (n_equilibria,)
        σ² at every SEP.
    level : float
        The level of the cut that made ``groups``.
    noise : float
        The kernel's noise variance v2 (> 0).
    min_cluster_size : int
        Smaller pieces are never joined here.
    significance : float, default=2.0
        Poisson standard deviations a split must clear.
    weight : float, default=1.0
        What one training point counts in λ (as in :func:`excess_of_mass`).

    Returns
    -------
    ndarray of shape (n_equilibria,)
        Group of every SEP, numbered by smallest SEP index.

    Examples
    --------
    Three pieces of 20 points apart above the cut at 1.5, joined at σ² = 2 (λ 1). The
    first two peak at λ 9 and 100, far above that saddle; the third peaks at λ 1.5, within
    the noise of it, and joins the piece it meets:

    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._selection import join_within_noise
    >>> Z = np.array([[0, 1, 2.0, 2], [2, 3, 2.0, 3]])
    >>> edges = np.array([[0, 1], [1, 2]])
    >>> sep_variance = np.array([1 + 1 / 9, 1.01, 1 + 1 / 1.5])
    >>> join_within_noise(Z, edges, np.array([0, 1, 2]), np.array([20, 20, 20]),
    ...                   sep_variance, level=1.5, noise=1.0, min_cluster_size=5)
    array([0, 1, 1])
    """
    n_groups = int(groups.max()) + 1 if groups.size else 0
    forest = MergeForest(np.asarray(counts, dtype=np.float64)[:n_groups])
    size = forest.size
    peak = np.full(n_groups, -np.inf)
    np.maximum.at(peak, groups, effective_count(sep_variance, noise))
    for _, a, b, h in forest.merges(Z, edges, above=level, of=groups):
        if a == b or min(size[a], size[b]) < min_cluster_size:
            continue
        if prominence_z(min(peak[a], peak[b]), h, noise, weight) >= significance:
            continue  # a split above the noise: apart
        a, b = min(a, b), max(a, b)
        forest.join(a, b)
        peak[a] = max(peak[a], peak[b])
    roots = forest.groups()[0]
    _, first, out = np.unique(roots[groups], return_index=True, return_inverse=True)
    return np.argsort(np.argsort(first))[out].astype(np.intp)


def _join_unkept(
    groups: NDArray[np.intp], owner: NDArray[np.intp], Z: FloatArray,
    edges: NDArray[np.intp], top_level: float,
) -> None:
    """SEPs of a cluster that was not kept, outside every kept cluster below it (a branch
    that fell out, or a ripple within the noise), join the kept cluster they open into: the
    merges are replayed in order of their saddle level, and a group with no cluster takes
    that of the SEP across the segment that joins it to one (in place)."""
    p = groups.size
    forest = MergeForest(np.ones(p))
    members: list[list[int]] = [[i] for i in range(p)]
    label = groups.copy()  # of every component root: its cluster where known
    for r, a, b, _ in forest.merges(Z, edges, upto=top_level):
        i, j = (int(e) for e in edges[r])
        if label[a] < 0 and label[b] >= 0:
            a, b, i, j = b, a, j, i  # a: the side with a cluster
        if label[b] < 0 and label[a] >= 0:
            joined = groups[i] if groups[i] >= 0 else label[a]
            for s in members[b]:
                if owner[s] >= 0:
                    groups[s] = joined
        if len(members[a]) < len(members[b]):
            a, b = b, a
        forest.join(a, b)
        members[a].extend(members[b])
        members[b] = []
        if label[a] < 0:
            label[a] = label[b]


class _Tree:
    """The linkage as a tree: children, heights, lowest SEP variance and points of every
    node (ids < p are SEPs, p + r the merge of row r)."""

    def __init__(self, Z: FloatArray, basins: NDArray[np.intp], sep_variance: FloatArray,
                 p: int) -> None:
        self.p = p
        self.kids = np.full((2 * p - 1, 2), -1, dtype=np.intp)
        self.kids[p:] = Z[:, :2].astype(np.intp)
        self.height = np.concatenate([sep_variance, Z[:, 2]]).astype(np.float64)
        self.low = np.concatenate([sep_variance, np.empty(p - 1)]).astype(np.float64)
        self.size = np.zeros(2 * p - 1, dtype=np.int64)
        self.size[:p] = np.bincount(basins, minlength=p)
        for r in range(p - 1):
            a, b = self.kids[p + r]
            self.low[p + r] = min(self.low[a], self.low[b])
            self.size[p + r] = self.size[a] + self.size[b]
        self._order = np.argsort(basins, kind="stable")
        self._starts = np.searchsorted(basins[self._order], np.arange(p + 1))
        self.up = np.full(2 * p - 1, -1, dtype=np.intp)  # the merge above every node
        self.up[self.kids[p:].ravel()] = np.repeat(np.arange(p, 2 * p - 1), 2)

    def contact(self, node: int, groups: NDArray[np.intp], large: NDArray[np.bool_]) -> float:
        """The height of the lowest merge above ``node`` joining it to another ``large``
        group of ``groups`` (a small one falls out of it instead; inf: none)."""
        own = groups[self.leaves(node)[0]]
        while (up := int(self.up[node])) >= 0:
            other = groups[self.leaves(int(self.kids[up][int(self.kids[up][0] == node)]))]
            if np.any((other != own) & large[other]):
                return float(self.height[up])
            node = up
        return float(np.inf)

    def leaves(self, node: int) -> NDArray[np.intp]:
        """The SEPs under ``node``."""
        out: list[int] = []
        todo = [node]
        while todo:
            a = todo.pop()
            if a < self.p:
                out.append(a)
            else:
                todo.extend(int(k) for k in self.kids[a])
        return np.asarray(out, dtype=np.intp)

    def points(self, seps: NDArray[np.intp]) -> NDArray[np.intp]:
        """The points whose basin is one of ``seps``."""
        if seps.size == 0:
            return np.empty(0, dtype=np.intp)
        return np.concatenate([self._order[self._starts[s]:self._starts[s + 1]]
                               for s in seps])
