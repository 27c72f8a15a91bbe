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
    """The clusters :func:`excess_of_mass` selected: ``groups`` (cluster of every SEP, -1: in
    none), ``n_clusters`` and the ``stability`` (excess of mass) of every cluster."""

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
    """The clusters of the saddle tree of greatest total excess of mass (HDBSCAN's eom).

    The tree is condensed top-down from ``top_level`` (r*); branches below ``min_cluster_size``
    points fall out, a split whose younger peak is within ``significance`` Poisson standard
    deviations of the saddle (λ, each point counting ``weight``) is no split, and a split that
    clears the tree's Bonferroni level is kept over its parent (``family_wise``: the root too)."""
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
    """``groups`` (the pieces of a cut at ``level``, ``counts`` points each) with every two
    pieces whose split above ``level`` is within the noise joined (the test of
    :func:`excess_of_mass`); pieces below ``min_cluster_size`` are left as they are. Returns the
    group of every SEP, numbered by smallest SEP index."""
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
