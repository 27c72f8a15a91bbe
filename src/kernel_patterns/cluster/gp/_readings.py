"""How GP clustering reads a fitted landscape into clusters when nobody says how.

With ``kernel=None`` and neither ``level`` nor ``n_clusters``, :func:`auto_partition` fits
landscapes on a ladder of length scales around the data-driven ℓ₀ and reads, in turn, the
excess of mass (:func:`~._selection.excess_of_mass`), the support (:func:`data_level`) and
the modes (every basin of at least ``min_cluster_size`` points) where each is stable across
the ladder; its docstring gives the order. :func:`noise_groups` turns groups smaller than
``min_cluster_size`` into noise. Arrays in, arrays out; the validated entry point is
:func:`~._solver.gp_landscape`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.stats import norm
from sklearn.metrics import adjusted_rand_score

from ..._validation import FloatArray
from ._cuts import count_components, data_level_components
from ._graph import segment_levels, single_linkage
from ._ladder import FACTORS, Ladder, LadderPool, factors_between, ladder_pool
from ._landscape import FlowOptions, InducingPlan, Landscape, Rung
from ._selection import SIGNIFICANCE, excess_of_mass, join_within_noise
from ._trace import GPCountTrace
from ._uniform import hopkins_test
from ._unimodal import shoulder, some_group_has_two_modes

#: the agreement (ARI) that makes two readings of the ladder the same clusters
#: (:func:`auto_partition`).
MODE_STABLE_ARI = 0.9
#: the modes are read from two rungs below ℓ₀ up (:data:`~._ladder.FACTORS`).
MODES_FROM = 0.5
#: the readings before "one cluster" climb to 2√2 ℓ₀; only the last, the modes that stay
#: the same clusters (:func:`auto_partition`, step 4), climbs the ladder to its top.
READ_TO = 2.0**1.5
#: a ridge's arcs are more than √(n/2) basins of at least this many points (or of
#: ``min_cluster_size``, when smaller): the guard reads the landscape, whatever size the
#: user asks of a cluster (with 50, no more than n / 50 ≤ √(n/2) groups could be counted)
RIDGE_BASIN = 5


def most_clusters(n: int) -> float:
    """The most clusters a reading of ``n`` points may have, √(n/2) (the rule of thumb
    k ≈ √(n/2); Mardia, Kent & Bibby 1979): more are a ridge's arcs or a sample's ripples."""
    return float(np.sqrt(n / 2))


@dataclass(frozen=True)
class Partition:
    """What :func:`auto_partition` returns: the landscape kept, the basin (SEP) of every
    training point, the level of the cut, the group of every SEP, the trace of the ladder
    read and every landscape fitted on it, by factor of ℓ₀."""

    fit: Landscape
    basins: NDArray[np.intp]
    level: float
    groups: NDArray[np.intp]
    trace: GPCountTrace
    fits: dict[float, Landscape]


def auto_partition(
    X: FloatArray, X_scale: FloatArray, ell0: float, opts: FlowOptions,
    plan: InducingPlan | None, min_cluster_size: int, below_points: bool = True,
    split_shoulders: bool = False, random_state: Any = None,
) -> Partition:
    """The count of ``kernel=None``: the first step of this list that holds, on the
    landscapes at factors of ℓ₀ (the ladder, :data:`~._ladder.FACTORS`). "The same": an ARI
    of at least ``MODE_STABLE_ARI`` at the neighbouring rung; a split counts when deeper than
    the Poisson noise of the effective count; "modes": basins of ``min_cluster_size`` points,
    at most √(n/2) of them (more are a ridge's arcs, ``RIDGE_BASIN``).

    1. "mass": the excess of mass at ℓ₀, the same at √2 ℓ₀; or "mass, longer" (√2 ℓ₀ splits
       more, the same at 2 ℓ₀, bridged in the support), "modes split a cluster", "mass = modes";
    2. "support": the paper's cut at ℓ₀, 2 to √(n/2) pieces; or "modes below the support";
    3. "stable modes": the modes of the shortest rung from ℓ₀/2 that are the same at the next;
    4. "mass, unstable" (the excess of mass at ℓ₀), "mass, shorter" (at ℓ₀/√2, ℓ₀/2 agreeing);
    5. no structure unless "family-wise", "shoulder" or "modes stay"; else "one", one cluster.

    The step is ``GPCountTrace.step``, its sentence ``DECISIONS``; the cases behind each step
    and the long form of this list are in ``benchmarks/results/gp_design_notes.md``.
    """
    with ladder_pool() as pool:
        return _read_ladder(X, X_scale, ell0, opts, plan, min_cluster_size, below_points,
                            split_shoulders, random_state, pool)


def _read_ladder(
    X: FloatArray, X_scale: FloatArray, ell0: float, opts: FlowOptions,
    plan: InducingPlan | None, min_cluster_size: int, below_points: bool,
    split_shoulders: bool, random_state: Any, pool: LadderPool | None,
) -> Partition:
    """:func:`auto_partition` with its landscapes fitted on ``pool`` (None: here, when
    needed)."""

    def modes(fit: Landscape) -> tuple[NDArray[np.intp], int, float]:
        return count_components(fit.Z, fit.edges, fit.flow.assignment, fit.S.shape[0],
                                min_cluster_size, fit.sep_var)

    rungs = Ladder(X, ell0, opts, plan, modes, pool)
    reading, basins_at, start = rungs.rung, rungs.basins, rungs.start
    compared: dict[float, float] = {}  # every agreement computed, for the trace
    # what a training point counts in the effective count λ, whose noise the tests read
    weight = 1.0 if plan is None else plan.weight

    def traced(fit: Landscape, basins: NDArray[np.intp], level: float,
               groups: NDArray[np.intp], how: str, factor: float, step: str,
               evidence: float = np.nan) -> Partition:
        return Partition(fit, basins, level, groups,
                         _trace(rungs.done, compared, how, factor, step, evidence),
                         {f: rung.fit for f, rung in rungs.done.items()})

    def by_mass(factor: float, family_wise: bool = False) -> NDArray[np.intp]:
        """The group of every SEP of the excess of mass at ``factor`` ℓ₀."""
        fit = reading(factor).fit
        sel = excess_of_mass(fit.Z, fit.edges, fit.flow.assignment, fit.point_variance,
                             fit.sep_var, fit.r_star, fit.noise, min_cluster_size,
                             weight=weight, family_wise=family_wise)
        return _own_groups(sel.groups)

    def no_structure() -> Partition:
        """One cluster (the support at ℓ₀ in one piece), unless a split of ℓ₀'s tree
        clears the family-wise test (then "no structure" is rejected, and the excess of
        mass below the whole data is read), the data are a shoulder (the persistent modes)
        or two neighbouring rungs on the way up have the same modes."""
        below_whole = by_mass(1.0, family_wise=True)
        if n_groups(1.0, below_whole) >= 2:
            return kept(1.0, below_whole, "family-wise")
        if split_shoulders and shoulder(X_scale, fit, opts.n_segment_points, random_state):
            found = persistent_modes()
            if found is not None:
                return found
        found = same_modes()
        if found is not None:
            return found
        return traced(fit, basins, cut, groups, "support", 1.0, "one")

    def same_modes() -> Partition | None:
        """The modes of the first two neighbouring rungs from ℓ₀ up to the top of the ladder
        that are the same clusters (ARI ≥ ``MODE_STABLE_ARI``, a small mode more or less),
        each with 2 to √(n/2) modes; of the two, the rung with fewer. None when no such pair
        comes before a rung with one mode (a longer length scale only merges more)."""
        for lo, hi in pairwise(factors_between(1.0, FACTORS[-1])):
            lower, upper = reading(lo), reading(hi)
            if lower.n_modes < 2:
                return None
            if too_many(lo) or too_many(hi) or upper.n_modes < 2:
                continue
            if (agree := agreement(lo, hi)) >= MODE_STABLE_ARI:
                return modes_at(lo if lower.n_modes <= upper.n_modes else hi, "modes stay",
                                agree)
        return None

    def persistent_modes() -> Partition | None:
        """Of the neighbouring rungs from ℓ₀/2 to 2√2 ℓ₀ with 2 to √(n/2) modes each, the pair
        whose modes agree best; of the two, the rung with fewer modes (the longer on a tie).
        None when no two neighbouring rungs have such modes."""
        factors = factors_between(MODES_FROM, READ_TO)
        for factor in factors:
            start(factor)
        best: tuple[float, float] | None = None  # (agreement, factor kept)
        for lo, hi in pairwise(factors):
            lower, upper = reading(lo), reading(hi)
            if min(lower.n_modes, upper.n_modes) < 2 or too_many(lo) or too_many(hi):
                continue
            agree = agreement(lo, hi)
            if best is None or agree > best[0]:
                best = (agree, hi if upper.n_modes <= lower.n_modes else lo)
        return None if best is None else modes_at(best[1], "shoulder", best[0])

    def agreement(lo: float, hi: float) -> float:
        """The ARI of the modes at ``lo`` ℓ₀ and at ``hi`` ℓ₀, over the points whose flows
        shape the landscapes; kept for the trace, at ``lo``."""
        lower, upper = reading(lo), reading(hi)
        compared[lo] = adjusted_rand_score(lower.modes[lower.own], upper.modes[upper.own])
        return compared[lo]

    def modes_at(factor: float, step: str, evidence: float = np.nan) -> Partition:
        """The modes at ``factor`` ℓ₀, every basin of at least ``min_cluster_size`` points
        a cluster (``step`` of the rule, on ``evidence``)."""
        rung = reading(factor)
        return traced(rung.fit, basins_at(factor), rung.level, _own_groups(rung.modes),
                      "modes", factor, step, evidence)

    def kept(factor: float, groups: NDArray[np.intp], step: str,
             evidence: float = np.nan) -> Partition:
        fit = reading(factor).fit
        return traced(fit, basins_at(factor), fit.r_star, groups, "excess of mass", factor,
                      step, evidence)

    def n_groups(factor: float, groups: NDArray[np.intp]) -> int:  # of min_cluster_size
        return int(np.sum(np.bincount(groups[reading(factor).own]) >= min_cluster_size))

    def agreeing(lower: float, groups: NDArray[np.intp], upper: float,
                 other: NDArray[np.intp], step: str) -> Partition | None:
        """Of the excess of mass at ``lower`` ℓ₀ (``groups``) and at the next length scale
        ``upper`` (``other``), the reading with fewer clusters when they are the same
        clusters (a small cluster more or less), compared over the points whose flows shape
        the landscapes: a cluster one length scale alone sees is not stable. None when they
        differ."""
        agree = adjusted_rand_score(groups[reading(lower).own], other[reading(upper).own])
        if agree < MODE_STABLE_ARI:
            return None
        compared[lower] = agree
        if n_groups(upper, other) < n_groups(lower, groups):
            return kept(upper, other, step, agree)
        return kept(lower, groups, step, agree)

    ridge_counts: dict[float, int] = {}

    def too_many(factor: float) -> bool:  # more than √(n/2) modes: a ridge's arcs
        rung = reading(factor)
        if factor not in ridge_counts:
            size = min(min_cluster_size, RIDGE_BASIN)
            ridge_counts[factor] = rung.n_modes if size == min_cluster_size else (
                count_components(rung.fit.Z, rung.fit.edges, rung.own, rung.fit.S.shape[0],
                                 size, rung.fit.sep_var)[1])
        return ridge_counts[factor] > most_clusters(rung.own.size)

    def coarser_than_modes(settled: Partition) -> Partition | None:
        """The modes at √2 ℓ₀ instead of ``settled`` (step 1's excess of mass) when they
        are more clusters (not a ridge's arcs), more the same clusters as the modes at ℓ₀
        than as ``settled``'s, and a cluster of ``settled`` that they split has two modes
        itself (:func:`~._unimodal.some_group_has_two_modes`)."""
        mid, here = reading(ladder[1]), reading(1.0)
        if (mid.n_modes <= n_groups(settled.trace.factor, settled.groups) or too_many(1.0)
                or too_many(ladder[1])):
            return None
        coarse, fine = settled.groups[reading(settled.trace.factor).own], mid.modes[mid.own]
        down = adjusted_rand_score(here.modes[here.own], fine)
        up = adjusted_rand_score(fine, coarse)
        if down <= up or not some_group_has_two_modes(
                X_scale, coarse, fine, min_cluster_size, norm.sf(SIGNIFICANCE), random_state):
            return None
        compared[1.0], compared[ladder[1]] = down, up
        return modes_at(ladder[1], "modes split a cluster", down)

    # the readings are compared on the points whose flows shape the landscape (all of them,
    # or the inducing subsample); every other point is assigned once, in the fit kept
    ladder = factors_between(1.0, READ_TO)
    below = factors_between(1.0, MODES_FROM)[1:]
    start(ladder[0])
    start(ladder[1])  # √2 ℓ₀: the excess of mass and the modes are checked against it
    found = by_mass(1.0)
    n_found = n_groups(1.0, found)
    if n_found >= 2:
        longer = by_mass(ladder[1])
        settled = agreeing(1.0, found, ladder[1], longer, "mass")
        if settled is None and n_groups(ladder[1], longer) > n_found:
            # a split that the longer length scale sees and ℓ₀ does not: its evidence grows
            # as the landscape smooths, a ripple's shrinks. Kept, as at ℓ₀, when the next
            # length scale up agrees
            settled = agreeing(ladder[1], longer, ladder[2], by_mass(ladder[2]),
                               "mass, longer")
            if settled is not None and not bridged(
                    X_scale, settled.groups[settled.fit.flow.assignment],
                    found[reading(1.0).own], settled.fit, opts.n_segment_points,
                    min_cluster_size):
                settled = None
        if settled is not None:
            coarser = coarser_than_modes(settled)
            return settled if coarser is None else coarser
        # else kept when they are the modes at ℓ₀, and those the modes at √2 ℓ₀: a second
        # reading of the same two landscapes sees the same clusters
        here, there = reading(1.0), reading(ladder[1])
        if here.n_modes == n_found == there.n_modes:
            same = adjusted_rand_score(found[here.own], here.modes[here.own])
            stable = adjusted_rand_score(here.modes[here.own], there.modes[there.own])
            if min(same, stable) >= MODE_STABLE_ARI:
                compared[1.0] = stable
                return kept(1.0, found, "mass = modes", stable)
    fit = reading(1.0).fit  # the paper's cut: the support at ℓ₀
    basins = basins_at(1.0)
    cut, groups = data_level(fit, basins, plan, min_cluster_size, below_points)
    # pieces apart above the cut are clusters only when their split clears the noise
    groups = join_within_noise(fit.Z, fit.edges, groups, weighted_counts(groups, basins, plan),
                               fit.sep_var, cut, fit.noise, min_cluster_size, weight=weight)
    counts = weighted_counts(groups, basins, plan)  # in the landscape's units

    def finer(pieces: NDArray[np.intp]) -> bool:
        """Whether the modes at ℓ₀/√2 (not a ridge's arcs) are more the same clusters as
        the modes at ℓ₀/2 than as the support's ``pieces`` at ℓ₀: the groups the shorter
        length scales see persist, and ℓ₀'s support joins them."""
        if too_many(1.0):
            return False
        for factor in below:  # both rungs at once, on the pool
            start(factor)
        if too_many(below[0]):
            return False
        here = reading(below[0])
        compared[below[0]] = adjusted_rand_score(here.modes[here.own],
                                                 pieces[reading(1.0).own])
        return agreement(below[1], below[0]) > compared[below[0]]

    if 2 <= np.sum(counts >= min_cluster_size) <= most_clusters(fit.flow.assignment.size):
        if finer(groups):
            return modes_at(below[0], "modes below the support", compared[below[1]])
        return traced(fit, basins, cut, groups, "support", 1.0, "support")

    # below ℓ₀ only while the modes could still be read: a shorter length scale only splits
    # a ridge's arcs further, so none is fitted there
    if not too_many(1.0):
        for factor in below:
            start(factor)
    for factor in below:
        if too_many(ladder[0]):
            break
        ladder.insert(0, factor)
    k = 0
    while k < len(ladder) - 1:
        lower = reading(ladder[k])
        if lower.n_modes < 2:  # no modes: a longer ℓ only merges more; below ℓ₀, on to ℓ₀
            if ladder[k] >= 1.0:
                break
            k = ladder.index(1.0)
            continue
        if not too_many(ladder[k]):  # else a ridge's arcs: the next rung is not needed
            agree = agreement(ladder[k], ladder[k + 1])
            if lower.n_modes == reading(ladder[k + 1]).n_modes and agree >= MODE_STABLE_ARI:
                return modes_at(ladder[k], "stable modes", agree)
        k += 1
    if n_found >= 2:  # the excess of mass at ℓ₀, not the same at √2 ℓ₀
        return kept(1.0, found, "mass, unstable")
    if too_many(1.0):  # as for the modes: below ℓ₀ only a ridge's arcs split further
        return no_structure()
    shorter = by_mass(below[0])
    if n_groups(below[0], shorter) >= 2:
        # kept, as at ℓ₀, only when the next length scale (down) agrees: uniform noise can
        # split at one length scale alone
        shortest = by_mass(below[1])
        agree = adjusted_rand_score(shorter[reading(below[0]).own],
                                    shortest[reading(below[1]).own])
        compared[below[1]] = agree
        if agree >= MODE_STABLE_ARI:
            return kept(below[0], shorter, "mass, shorter", agree)
    return no_structure()


def bridged(X: FloatArray, labels: NDArray[np.intp], coarse: NDArray[np.intp], fit: Landscape,
            n_points: int, min_size: int) -> bool:
    """Whether the clusters ``labels`` of the points ``X`` that one group of ``coarse`` holds
    are joined, one to another, by segments between their means inside the support of
    ``fit`` (σ² ≤ r* at their ends and ``n_points`` points between, the paper's segment
    check, as in :func:`~._unimodal.shoulder`): in every such group, the top merge of their
    single linkage over those segments (:func:`~._graph.single_linkage`, as the SEPs are joined)
    lies at or below r*. Clusters of fewer than ``min_size`` points are left out.
    """
    sizes = np.bincount(labels)
    big = np.flatnonzero(sizes >= min_size)
    parent = np.array([np.bincount(coarse[labels == g]).argmax() for g in big])
    for p in np.unique(parent):
        kids = big[parent == p]
        if kids.size < 2:
            continue
        centres = np.array([X[labels == g].mean(axis=0) for g in kids])
        I, J = np.triu_indices(kids.size, 1)
        level = segment_levels(fit.model, centres, I, J, n_points=n_points, refine=False)
        Z, _ = single_linkage(kids.size, I, J, level)
        if Z[:, 2].max() > fit.r_star:
            return False
    return True


def _own_groups(groups: NDArray[np.intp]) -> NDArray[np.intp]:
    """``groups`` with every SEP in no group (-1) a group of its own (noise by size, in
    ``noise_groups``)."""
    out = groups.copy()
    alone = out < 0
    out[alone] = (out.max() if out.size else -1) + 1 + np.arange(int(alone.sum()))
    return out


def _trace(
    done: dict[float, Rung], compared: dict[float, float], reading: str, factor: float,
    step: str, evidence: float,
) -> GPCountTrace:
    """The :class:`~._results.GPCountTrace` of the landscapes read (``done``), with the
    agreements computed (``compared``, by the shorter length scale of each pair)."""
    factors = sorted(done)
    return GPCountTrace(
        factors=np.asarray(factors, dtype=np.float64),
        length_scales=np.array([done[f].fit.ell for f in factors], dtype=np.float64),
        n_modes=np.array([done[f].n_modes for f in factors], dtype=np.intp),
        agreement=np.array([compared.get(f, np.nan) for f in factors], dtype=np.float64),
        reading=reading, factor=float(factor), step=step, evidence=float(evidence),
    )


def data_level(
    fit: Landscape, basins: NDArray[np.intp], plan: InducingPlan | None, min_cluster_size: int,
    below_points: bool = True,
) -> tuple[float, NDArray[np.intp]]:
    """``level=None``: the level and the SEP groups chosen from the data.

    The level is r* over the points of basins with at least ``min_cluster_size`` points: one
    outlier in its own basin does not define the support (it can lift r* above the saddle
    between two real groups; ``benchmarks/results/gp_design_notes.md``). The groups are
    :func:`~._cuts.data_level_components` at that level (``below_points``: whether groups
    apart below every point's variance stay apart, :func:`floor_rule_applies`).
    """
    own = basins if plan is None else basins[plan.subsample]
    v = fit.point_variance  # of the points that shape the landscape, computed once in the fit
    size = np.bincount(own, minlength=fit.S.shape[0])
    inside = size[own] >= min_cluster_size
    level = float(v[inside].max()) if inside.any() else fit.r_star
    return level, data_level_components(fit.Z, fit.edges, level, own, v, min_cluster_size,
                                         below_points)


def floor_rule_applies(X: FloatArray, random_state: Any) -> bool:
    """Whether the data-driven cut keeps groups apart below every point's variance (the
    floor rule of :func:`~._cuts.data_level_components`): only when ``X`` (the points that
    shape the landscape) is not uniform on its bounding box, by Hopkins' test at the
    significance of the noise tests (:func:`~._uniform.hopkins_test`, one-sided
    ``norm.sf(SIGNIFICANCE)``). The landscape of uniform data in many dimensions has a flat
    bottom of ripples below every point, which that rule read as clusters."""
    return hopkins_test(X, random_state).pvalue < norm.sf(SIGNIFICANCE)


def weighted_counts(
    groups: NDArray[np.intp], basins: NDArray[np.intp], plan: InducingPlan | None
) -> FloatArray:
    """The size of every group of SEPs: its training points, each counting the weight it
    has in the variance (``plan.weight``: ``subsample / n`` with ``kernel=None``, else 1).

    The landscape of ``kernel=None`` is that of the subsample whatever n, so a group's size
    is measured in the same units: a piece of a Gaussian's tail that holds five of 20,000
    points holds half a point of the 2,000 the landscape is read in, and is not a cluster.
    """
    weight = 1.0 if plan is None else plan.weight
    return weight * np.bincount(groups[basins], minlength=int(groups.max()) + 1)


def noise_groups(
    groups: NDArray[np.intp], basins: NDArray[np.intp], min_cluster_size: int,
    plan: InducingPlan | None = None,
) -> NDArray[np.intp]:
    """``groups`` with every group of fewer than ``min_cluster_size`` training points (as
    :func:`weighted_counts` counts them) set to -1 (noise, as HDBSCAN labels points outside
    its clusters)."""
    counts = weighted_counts(groups, basins, plan)
    return np.where(counts[groups] >= min_cluster_size, groups, -1).astype(np.intp)
