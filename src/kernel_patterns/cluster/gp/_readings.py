"""How GP clustering reads a fitted landscape into clusters when nobody says how.

With ``kernel=None`` and neither ``level`` nor ``n_clusters``, :func:`auto_partition` fits
landscapes on a ladder of length scales around the data-driven ℓ₀ and reads the *modes* (every
basin of at least ``min_cluster_size`` points) where they are stable, else the *support* at ℓ₀
(the paper's cut, :func:`data_level`), else a count by persistence. :func:`noise_groups` turns
groups smaller than ``min_cluster_size`` into noise. Arrays in, arrays out; the validated entry
point is :func:`~._solver.gp_landscape`.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray
from sklearn.metrics import adjusted_rand_score

from ..._parallel import single_blas_thread, usable_threads
from ..._validation import FloatArray
from ._cuts import count_components, data_level_components, group_persistence, persistent_components
from ._kernel import default_kernel
from ._landscape import FlowOptions, InducingPlan, Landscape, fit_landscape, landscape_basins
from ._results import GPCountTrace

#: kernel=None, no level, no n_clusters: length scales (factors of the data-driven ℓ₀, from
#: ℓ₀/2 to 2√2 ℓ₀) at which the basins are compared, and the agreement (ARI) that makes
#: them stable (:func:`auto_partition`).
MODE_FACTORS = tuple(2.0 ** (k / 2) for k in range(-2, 4))
MODE_STABLE_ARI = 0.9
#: ... when the support is one piece, a count of clusters by persistence (:func:`_clear_count`)
#: needs its last cluster PERSISTENCE_RATIO times as persistent as the next group, and
#: PERSISTENCE_SHARE of the landscape's depth (r* − the lowest SEP variance)
PERSISTENCE_RATIO = 3.0
PERSISTENCE_SHARE = 0.1
#: ... and, when the support at r* is one piece, the agreement that lets the best-persisting
#: modes be the clusters instead of one.
MODE_PERSIST_ARI = 0.5
#: landscapes of the ladder fitted at once (threads; at most the usable cores): two fits in
#: two threads took 2.0 s where one after the other took 3.3 s (standardised digits, four
#: rungs), with the same basins
LADDER_THREADS = 2

#: one reading of a landscape: the fit, its points' basins, the modes (group of every SEP,
#: -1 small), the level of that cut and the number of groups of min_cluster_size points
_Reading = tuple[Landscape, NDArray[np.intp], NDArray[np.intp], float, int]
#: what auto_partition returns: the landscape kept, the basins of all training points, the
#: level, the group of every SEP and the trace of the ladder
_Partition = tuple[Landscape, NDArray[np.intp], float, NDArray[np.intp], GPCountTrace]


def auto_partition(
    X: FloatArray, X_scale: FloatArray, opts: FlowOptions, plan: InducingPlan | None,
    min_cluster_size: int,
) -> _Partition:
    """``kernel=None`` with neither ``level`` nor ``n_clusters``: landscape, SEP groups and
    the :class:`~._results.GPCountTrace` of the landscapes read.

    Two readings of a landscape give clusters, and no one of them is right on all data:

    * **support** (the paper, eq. 4.3): the components of the level set at r*, kept apart
      where their saddle lies below every training point (``data_level``). Right on
      shapes whose points lie along low-variance ridges (rings, moons, spirals): a ridge
      has many SEPs along it, joined below r*. Wrong on blobs: the support at r* of
      touching or high-dimensional blobs is one piece (the paper's own 10-D Gaussians with
      the default ℓ: 1 cluster, ARI 0.00; four 8-D blobs: 450 + 150 points, ARI 0.33).
    * **modes**: every basin of at least ``min_cluster_size`` points is a cluster, tiny
      basins joining the neighbour they open into (:func:`~._cuts.count_components` with
      no count). Right on blobs (those two sets: ARI 1.00), wrong on ridges (rings: 28
      arcs).

    The rule tells them apart by what the modes do as the length scale grows by √2
    (``MODE_FACTORS``, from ℓ₀/2 up): the basins of blobs stay the same clusters (same
    count, ARI ≥ ``MODE_STABLE_ARI`` between the two partitions), while the arcs of a ridge
    keep joining one another (rings 28 → 23 → 18 → 11, spirals 50 → 40 → 29 → 21). The
    first (shortest) length scale whose modes (at least two clusters) are stable at the
    next one gives the modes (never more than √(n/2) clusters: a ridge's arcs at a step
    finer than √2 are stable too, 7 arcs on the paper's two moons at 2^(1/4)); when none
    is, the support at ℓ₀ (the paper's cut). When that support is one piece (or more than
    √(n/2) pieces, no count of clusters): the count of clusters the persistence of the
    basins' groups at ℓ₀ gives clearly
    (:func:`_clear_count`), else the best-persisting modes (ARI ≥ ``MODE_PERSIST_ARI`` with
    the next length scale's, in at most √(n/2) clusters). Measured on the 14 shapes and
    blobs and 23 real sets of ``benchmarks/results/gp_default_rule.md``: the support is
    kept on every ridge set, the modes are taken on every blob set.

    The ladder starts two steps below ℓ₀, a 90th percentile of neighbour distances that can
    be longer than the clusters are apart: commercial oils (modeldata ``oils``, 96 points)
    have 5 stable modes at ℓ₀/2 (ARI 0.80), 4 unstable ones from ℓ₀ up (the support: 3
    clusters, 0.23). On the 23 real sets of ``benchmarks/bench_real.py`` and the 14 of
    ``benchmarks/bench_gp_default.py`` six real sets gained (oils, diabetes 0.37 → 0.56,
    ais 0.79 → 0.85, possum 0.81 → 0.85, bdims 0.81 → 0.84, cancer 0.75 → 0.77), nothing
    else changed: a ridge has only more arcs below ℓ₀. The fallbacks read ℓ₀ and longer
    only (olive oils' 14 modes at ℓ₀/√2 agree at 0.94 with ℓ₀'s 9: ARI 0.49).

    The persistence count is for ridges whose support noise joins: scikit-learn's moons
    with noise 0.1 at 1,000 to 5,000 points gave 14 to 30 arcs (the best-persisting
    modes, ARI 0.07-0.15), and give the two moons (ARI 1.00); the persistence of the
    younger moon is 0.29-0.77 of the landscape's depth, 4-9 times the next group's. On 27
    single Gaussian blobs (2-5-D, 200-1,500 points) and the 19 other sets nothing changed.
    The two thresholds were set by looking at those moons and blobs (a blob's spurious
    groups: at most 0.095 of the depth; one inducing blob 2.9 times the next group).
    """
    # the landscapes are fitted LADDER_THREADS at a time, each on one BLAS thread (set once
    # for the whole ladder, so that the fits' own one-thread sections never race); on one
    # core one at a time, none ahead of need
    n_threads = min(LADDER_THREADS, usable_threads())
    if n_threads == 1:
        return _read_ladder(X, X_scale, opts, plan, min_cluster_size, None)
    with single_blas_thread(), ThreadPoolExecutor(n_threads) as pool:
        try:
            return _read_ladder(X, X_scale, opts, plan, min_cluster_size, pool)
        finally:  # a rung fitted ahead and not needed is not started
            pool.shutdown(wait=True, cancel_futures=True)


def _read_ladder(
    X: FloatArray, X_scale: FloatArray, opts: FlowOptions, plan: InducingPlan | None,
    min_cluster_size: int, pool: ThreadPoolExecutor | None,
) -> _Partition:
    """:func:`auto_partition` with its landscapes fitted on ``pool`` (None: here, when
    needed)."""

    def fit_at(factor: float) -> _Reading:
        fit = fit_landscape(default_kernel(X_scale, factor), X, opts, plan)
        own = fit.flow.assignment
        modes, n_big, cut = count_components(fit.Z, fit.edges, own, fit.S.shape[0],
                                             min_cluster_size, fit.sep_var)
        return fit, own, modes, cut, n_big

    made: dict[float, Future[_Reading]] = {}
    done: dict[float, _Reading] = {}

    def start(factor: float) -> None:
        if pool is not None and factor not in made:
            made[factor] = pool.submit(fit_at, factor)

    def reading(factor: float) -> _Reading:
        if factor not in done:
            # the rung above is nearly always read next: it is fitted meanwhile
            start(factor)
            start(min((f for f in MODE_FACTORS if f > factor), default=factor))
            done[factor] = made[factor].result() if pool is not None else fit_at(factor)
        return done[factor]

    # the readings are compared on the points whose flows shape the landscape (all of them,
    # or the inducing subsample); every other point is assigned once, in the fit kept
    ladder = [f for f in MODE_FACTORS if f >= 1.0]
    below = sorted((f for f in MODE_FACTORS if f < 1.0), reverse=True)
    start(ladder[0])
    start(ladder[1])  # read on every set but those with a stable reading below ℓ₀

    def too_many(factor: float) -> bool:  # more than √(n/2) modes: a ridge's arcs
        return reading(factor)[4] > np.sqrt(reading(factor)[1].size / 2)

    # below ℓ₀ only while the modes could still be read: a shorter length scale only splits
    # a ridge's arcs further (rings 28 modes at ℓ₀, 32 at ℓ₀/2), so none is fitted there
    if not too_many(1.0):
        for factor in below:  # fitted together (ℓ₀/2 is wasted only if ℓ₀/√2 has arcs)
            start(factor)
    for factor in below:
        if too_many(ladder[0]):
            break
        ladder.insert(0, factor)
    agreement: list[tuple[float, float]] = []  # (ARI with the next fit's modes, factor)
    compared: dict[float, float] = {}  # every agreement computed, for the trace

    def traced(found: tuple[Landscape, NDArray[np.intp], float, NDArray[np.intp]],
               how: str, factor: float) -> _Partition:
        return (*found, _trace(done, compared, how, factor))
    k = 0
    while k < len(ladder) - 1:
        _, p_own, p_modes, _, p_big = reading(ladder[k])
        if p_big < 2:  # no modes: a longer ℓ only merges more; below ℓ₀, on to ℓ₀
            if ladder[k] >= 1.0:
                break
            k = ladder.index(1.0)
            continue
        _, own, modes, _, n_big = reading(ladder[k + 1])
        if not too_many(ladder[k]):
            agree = adjusted_rand_score(p_modes[p_own], modes[own])
            compared[ladder[k]] = agree
            if p_big == n_big and agree >= MODE_STABLE_ARI:
                return traced(_modes(reading(ladder[k]), X, opts), "modes", ladder[k])
            if ladder[k] >= 1.0:  # the fallback below reads ℓ₀ and longer only
                agreement.append((agree, ladder[k]))
        k += 1
    ell0 = reading(1.0)  # the paper's cut: the support at ℓ₀
    fit = ell0[0]
    basins = landscape_basins(fit, X, opts)
    cut, groups = data_level(fit, basins, plan, min_cluster_size)
    counts = np.bincount(groups[basins])
    own = ell0[1]
    if 2 <= np.sum(counts >= min_cluster_size) <= np.sqrt(own.size / 2):
        return traced((fit, basins, cut, groups), "support", 1.0)
    # the support is one piece, or split past √(n/2) pieces (a landscape too fine for its
    # inducing points: 20,000 10-D blobs had a basin at 290 of the 300 and gave 202
    # clusters, ARI 0.05): a count the persistences give clearly (noisy ridges; those
    # blobs: 5 at ℓ₀, ARI 1.00), else the best-persisting modes
    k = _clear_count(fit, own, min_cluster_size)
    if k >= 2:
        modes, n_big, level = persistent_components(fit.Z, fit.edges, own, k,
                                                    min_cluster_size, fit.sep_var)
        return traced(_modes((fit, own, modes, level, n_big), X, opts), "persistence", 1.0)
    best = max(agreement, default=(0.0, 1.0))
    if best[0] >= MODE_PERSIST_ARI:
        # no modes are stable and no count is clear: the modes that persist best
        # (standardised olive oils, 8-D: the support gives 571 + 1 points, ARI 0.00; the
        # modes at 1.41 ℓ₀ agree at 0.86 with the next ones: 6 clusters, ARI 0.80). One
        # Gaussian blob (200 points, 2 to 10-D, 4 seeds) never persists above 0.44: it
        # stays one cluster, with the warning. Readings into more than √(n/2) clusters (the
        # textbook rule of thumb for a count) are not candidates: they are the arcs of a
        # ridge (scikit-learn's moons with noise 0.1 at 20,000 points, inducing: the support
        # is one piece and about 78 arcs persist at 0.7; the persistence count above now
        # gives the two moons, ARI 1.00, 3 s).
        return traced(_modes(reading(best[1]), X, opts), "persisting modes", best[1])
    return traced((fit, basins, cut, groups), "support", 1.0)


def _trace(
    done: dict[float, _Reading], compared: dict[float, float], reading: str, factor: float
) -> GPCountTrace:
    """The :class:`~._results.GPCountTrace` of the landscapes read (``done``), with the
    agreements computed (``compared``, by the shorter length scale of each pair)."""
    factors = sorted(done)
    return GPCountTrace(
        factors=np.asarray(factors, dtype=np.float64),
        length_scales=np.array([done[f][0].ell for f in factors], dtype=np.float64),
        n_modes=np.array([done[f][4] for f in factors], dtype=np.intp),
        agreement=np.array([compared.get(f, np.nan) for f in factors], dtype=np.float64),
        reading=reading, factor=float(factor),
    )


def _clear_count(fit: Landscape, basins: NDArray[np.intp], min_cluster_size: int) -> int:
    """The count of clusters the persistences of ``fit`` give clearly, or 1.

    With the persistences p₁ ≥ p₂ ≥ … of :func:`~._cuts.group_persistence` (p after the
    last is 0), k clusters are clear when p_{k−1} ≥ ``PERSISTENCE_RATIO`` · p_k and p_{k−1}
    ≥ ``PERSISTENCE_SHARE`` × the depth; of several such k, the largest ratio.
    """
    pers = group_persistence(fit.Z, fit.edges, basins, fit.sep_var, min_cluster_size)
    if pers.size == 0:
        return 1
    nxt = np.r_[pers[1:], 0.0]
    depth = fit.r_star - float(fit.sep_var.min())
    clear = (pers >= PERSISTENCE_RATIO * nxt) & (pers >= PERSISTENCE_SHARE * depth)
    if not clear.any():
        return 1
    ratio = np.where(clear, pers / np.maximum(nxt, 1e-300), -np.inf)
    return int(np.argmax(ratio)) + 2


def _modes(
    found: tuple[Landscape, NDArray[np.intp], NDArray[np.intp], float, int],
    X: FloatArray, opts: FlowOptions,
) -> tuple[Landscape, NDArray[np.intp], float, NDArray[np.intp]]:
    """The modes partition of one fit with the basins of all training points, its groups
    left small (-1) each a group of its own (noise by size, in ``noise_groups``)."""
    fit, _, modes, cut, _ = found
    small = modes < 0
    modes = modes.copy()
    modes[small] = modes.max() + 1 + np.arange(int(small.sum()))
    return fit, landscape_basins(fit, X, opts), cut, modes


def data_level(
    fit: Landscape, basins: NDArray[np.intp], plan: InducingPlan | None, min_cluster_size: int
) -> tuple[float, NDArray[np.intp]]:
    """``level=None``: the level and the SEP groups chosen from the data.

    The level is r* over the points of basins with at least ``min_cluster_size`` points: one
    outlier in its own basin does not define the support (standardised penguins: an
    isolated point at σ² = 1.508 lifted r* above the saddle, 1.491, between the Gentoo
    penguins and the others; without it r* = 1.461). The groups are
    :func:`~._cuts.data_level_components` at that level.
    """
    own = basins if plan is None else basins[plan.subsample]
    v = fit.point_variance  # of the points that shape the landscape, computed once in the fit
    size = np.bincount(own, minlength=fit.S.shape[0])
    inside = size[own] >= min_cluster_size
    level = float(v[inside].max()) if inside.any() else fit.r_star
    return level, data_level_components(fit.Z, fit.edges, level, own, v, min_cluster_size)


def noise_groups(
    groups: NDArray[np.intp], basins: NDArray[np.intp], min_cluster_size: int
) -> NDArray[np.intp]:
    """``groups`` with every group of fewer than ``min_cluster_size`` training points set to
    -1 (noise, as HDBSCAN labels points outside its clusters)."""
    counts = np.bincount(groups[basins], minlength=int(groups.max()) + 1)
    return np.where(counts[groups] >= min_cluster_size, groups, -1).astype(np.intp)
