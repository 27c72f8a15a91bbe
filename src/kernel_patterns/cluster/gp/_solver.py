"""The one solver of GP variance clustering: :func:`gp_landscape`.

It runs the whole method of Kim & Lee (2007) on validated data and returns a
:class:`~._results.GPLandscape`:

1. the random choices of ``approximation="inducing"`` (inducing points, the subsample whose
   flows give the SEPs), made once;
2. the kernel: the one given, or with ``kernel=None`` the data-driven
   :func:`~._kernel.default_kernel`, and with ``n_clusters`` too the length-scale search
   (``AUTO_SHRINK``) until the landscape has a level that gives ``n_clusters`` clusters;
3. one landscape fit per kernel tried (:func:`~._landscape.fit_landscape`: variance model,
   flow of every point to its SEP, segment checks, single-linkage hierarchy);
4. the basins of all training points and the clusters: at the level given, at the level for
   ``n_clusters``, with ``kernel=None`` and neither of them the support or the modes of
   the landscape, whichever the data bear out (``_auto_partition``), or, with a kernel and
   neither, the support chosen from the data (``_data_level``: r* over the
   points of basins of at least ``min_cluster_size`` points, with
   :func:`~._cuts.data_level_components` keeping apart groups whose saddle is below every
   training point); clusters smaller than ``min_cluster_size`` are noise (-1), and a fit
   with fewer than two clusters warns, naming what to change.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.metrics import adjusted_rand_score
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from ..._tails import (
    TAIL_KURTOSIS,
    apply_to,
    median_excess_kurtosis,
    to_input_units,
    transform_for_fit,
)
from ..._validation import FloatArray, check_matrix, check_n_clusters
from ...kernels import Kernel, Precomputed
from ._cuts import (
    components_at,
    count_components,
    data_level_components,
    group_persistence,
    level_for_n_clusters,
    persistent_components,
)
from ._inducing import Landmarks, choose_inducing_points
from ._kernel import AUTO_SHRINK, auto_length_scale, default_kernel
from ._landscape import FlowOptions, InducingPlan, Landscape, fit_landscape, landscape_basins
from ._results import GPHierarchy, GPLandscape, relabel

#: approximation="inducing": inducing points when n_landmarks is None (at most N).
DEFAULT_N_COMPONENTS = 300
#: approximation="inducing": points flowed to the end (the SEPs) when subsample is None.
DEFAULT_SUBSAMPLE = 2000
#: approximation="auto": exact up to this many points, inducing points beyond.
AUTO_EXACT_MAX = 1000
#: kernel=None, no level, no n_clusters: length scales (factors of the data-driven ℓ₀, from
#: ℓ₀/2 to 2√2 ℓ₀) at which the basins are compared, and the agreement (ARI) that makes
#: them stable (:func:`_auto_partition`).
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

#: constraints of the options :func:`gp_landscape` and :class:`GPClustering` share.
GP_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "level": [Interval(Real, 0, None, closed="neither"), None],
    "n_clusters": [Interval(Integral, 1, None, closed="left"), None],
    "n_segment_points": [Interval(Integral, 1, None, closed="left")],
    "merge_radius": [Interval(Real, 0, None, closed="neither")],
    "tol": [Interval(Real, 0, None, closed="neither")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "approximation": [StrOptions({"auto", "exact", "inducing"})],
    "min_cluster_size": [Interval(Integral, 1, None, closed="left")],
    "feature_transform": [StrOptions({"auto", "yeo-johnson"}), None],
    "n_landmarks": [Interval(Integral, 1, None, closed="left"), None],
    "landmarks": [StrOptions({"kmeans", "kmeans++", "uniform"})],
    "subsample": [Interval(Integral, 2, None, closed="left"), None],
    "assign_steps": [Interval(Integral, 0, None, closed="left")],
    "batch_size": [Interval(Integral, 1, None, closed="left"), None],
    "random_state": ["random_state"],
}


def check_gp_kernel(kernel: Kernel) -> Kernel:
    """``kernel`` if GP clustering can use it (differentiable, coordinates), else an error."""
    if isinstance(kernel, Precomputed):
        raise ValueError(
            "GPClustering needs the coordinates of the points (it moves them down the "
            "variance gradient); kernel='precomputed' is not supported."
        )
    if not kernel.differentiable:
        raise ValueError(
            f"GPClustering needs a differentiable kernel (GPCovariance, RBF); "
            f"{type(kernel).__name__} has no gradient."
        )
    return kernel


@validate_params(
    {"X": ["array-like"], "kernel": [Kernel, None], **GP_PARAMETER_CONSTRAINTS},
    prefer_skip_nested_validation=True,
)
def gp_landscape(
    X: ArrayLike,
    kernel: Kernel | None = None,
    *,
    level: float | None = None,
    n_clusters: int | None = None,
    n_segment_points: int = 20,
    merge_radius: float = 0.1,
    tol: float = 1e-4,
    max_iter: int = 500,
    approximation: Literal["auto", "exact", "inducing"] = "auto",
    n_landmarks: int | None = None,
    landmarks: Landmarks = "kmeans",
    subsample: int | None = None,
    assign_steps: int = 10,
    batch_size: int | None = None,
    min_cluster_size: int = 5,
    feature_transform: Literal["auto", "yeo-johnson"] | None = "auto",
    random_state: Any = None,
) -> GPLandscape:
    """GP variance clustering of ``X``: the landscape, its SEPs, hierarchy, level and labels.

    The function behind :class:`~kernel_patterns.GPClustering`, whose docstring explains
    every parameter; use it directly for a result object without an estimator.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training points (at least 2; not modified).
    kernel : Kernel or None, default=None
        A differentiable covariance; None chooses an isotropic
        :class:`~kernel_patterns.kernels.GPCovariance` from the data
        (:func:`~kernel_patterns.cluster.gp.default_kernel`).
    level, n_clusters, n_segment_points, merge_radius, tol, max_iter, approximation, \
n_landmarks, landmarks, subsample, assign_steps, batch_size, min_cluster_size, \
feature_transform, random_state
        As in :class:`~kernel_patterns.GPClustering`.

    Returns
    -------
    GPLandscape

    Examples
    --------
    >>> from kernel_patterns import datasets
    >>> from kernel_patterns.cluster.gp import gp_landscape
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X, _ = datasets.make_rings(random_state=0)
    >>> land = gp_landscape(datasets.scale_unit_interval(X),
    ...                     GPCovariance(v0=1, v1=10, v2=1, l=400))
    >>> land.n_clusters, land.hierarchy.n_equilibria >= 2
    (2, True)
    """
    Xv = check_matrix(X, "X", dtype=np.float64, min_samples=2, copy=True)
    if level is not None and n_clusters is not None:
        raise ValueError("give level or n_clusters, not both.")
    if n_clusters is not None:
        check_n_clusters(n_clusters, Xv.shape[0])
    # heavy-tailed features Gaussianised (kernel=None): the landscape, its SEPs and every
    # query live in the transformed space; the SEPs are also reported in the input's units
    transform = transform_for_fit(Xv, feature_transform, data_driven=kernel is None)
    Xv = apply_to(transform, Xv)
    if kernel is not None:
        check_gp_kernel(kernel)
        kernel = kernel.with_data_scale(Xv)  # e.g. RBF(gamma="scale") from the training data
    opts = FlowOptions(
        tol=tol, max_iter=max_iter, merge_radius=merge_radius,
        n_segment_points=n_segment_points, assign_steps=assign_steps, batch_size=batch_size,
    )
    plan = _plan(Xv, approximation, n_landmarks, landmarks, subsample, random_state)
    # the data-driven length scale follows the points that shape the landscape: all of them
    # (exact), or the subsample whose flows give the SEPs (inducing): the 5th-neighbour
    # distance of 200,000 points is far below what 300 inducing points resolve, and the
    # FITC variance at that length scale is flat (one cluster)
    Xl = Xv if plan is None else Xv[plan.subsample]
    if n_clusters is not None:
        k = int(n_clusters)
        # a requested cluster holds at least a tenth of the mean cluster size: the saddle
        # hierarchy is a single linkage, whose top cut on touching blobs splits off a chain
        # end (393 + 7 points, ARI 0.00) instead of the two blobs (192 + 208, ARI 0.59)
        min_count = max(min_cluster_size, Xl.shape[0] // (10 * k))
        if kernel is None:
            fit, groups, cut = _search_length_scale(Xv, Xl, k, opts, plan, min_count)
        else:
            fit = fit_landscape(kernel, Xv, opts, plan)
            if k > fit.S.shape[0]:  # the message of the plain cut: too few SEPs at this l
                level_for_n_clusters(fit.Z[:, 2], fit.sep_var, k)
            groups, n_big, cut = persistent_components(fit.Z, fit.edges, fit.flow.assignment,
                                                       k, min_count, fit.sep_var)
            if n_big < k:
                _warn_count(k, n_big, f"at length scale {fit.ell:.3g}", min_count)
        basins = landscape_basins(fit, Xv, opts)
    elif kernel is None and level is None:
        fit, basins, cut, groups = _auto_partition(Xv, Xl, opts, plan, min_cluster_size)
        groups = _noise_groups(groups, basins, min_cluster_size)
    else:
        fit = fit_landscape(default_kernel(Xl) if kernel is None else kernel, Xv, opts, plan)
        basins = landscape_basins(fit, Xv, opts)
        if level is None:
            cut, groups = _data_level(fit, basins, plan, min_cluster_size)
        else:
            cut = float(level)
            groups = components_at(fit.Z, fit.S.shape[0], cut)
        groups = _noise_groups(groups, basins, min_cluster_size)
    sep_labels, labels = relabel(groups, basins)
    if n_clusters is None:
        _warn_degenerate(labels, fit.ell, min_cluster_size,
                         None if plan is None else plan.U.shape[0],
                         Xv if transform is None else None)
    return GPLandscape(
        kernel=fit.model.kernel, model=fit.model, length_scale=fit.ell,
        max_variance=fit.r_star, level=cut, equilibria=fit.S,
        equilibrium_variance=fit.sep_var, equilibrium_labels=sep_labels,
        hierarchy=GPHierarchy(fit.Z, fit.sep_var, cut), basins=basins, labels=labels,
        n_iter=fit.flow.n_iter, n_unconverged=fit.flow.n_unconverged, options=opts, plan=plan,
        transform=transform,
        input_equilibria=to_input_units(transform, fit.S, Xv),
    )


def _search_length_scale(
    X: FloatArray, X_scale: FloatArray, n_clusters: int, opts: FlowOptions,
    plan: InducingPlan | None, min_cluster_size: int,
) -> tuple[Landscape, NDArray[np.intp], float]:
    """kernel=None with n_clusters: the data-driven length scale ℓ₀ (from ``X_scale``), shrunk
    step by step (``AUTO_SHRINK``, at most 6 fits) until the hierarchy holds ``n_clusters``
    groups of at least ``min_cluster_size`` points, the most persistent ones
    (:func:`~._cuts.persistent_components`).

    When no length scale tried gets there, a warning names what to change and the fit with
    the most such groups (the longest ℓ among ties) is returned.
    """

    def attempt(factor: float) -> tuple[Landscape, NDArray[np.intp], int, float]:
        fit = fit_landscape(default_kernel(X_scale, factor), X, opts, plan)
        groups, n_big, cut = persistent_components(fit.Z, fit.edges, fit.flow.assignment,
                                                   n_clusters, min_cluster_size, fit.sep_var)
        return fit, groups, n_big, cut

    best: tuple[Landscape, NDArray[np.intp], int, float] | None = None
    for k, factor in enumerate(AUTO_SHRINK):
        found = attempt(factor)
        if found[2] >= n_clusters:
            if k > 0 and found[0].S.shape[0] > n_clusters:
                # more basins than clusters: one bisection step back towards the last (too
                # long) ℓ, kept if it still gives n_clusters (fewer spurious basins)
                back = attempt(float(np.sqrt(factor * AUTO_SHRINK[k - 1])))
                if back[2] >= n_clusters:
                    found = back
            return found[0], found[1], found[3]
        if best is None or found[2] > best[2]:
            best = found
    assert best is not None
    ell0 = auto_length_scale(X_scale)
    _warn_count(n_clusters, best[2], f"at any length scale from {ell0:.3g} down to "
                f"{ell0 * AUTO_SHRINK[-1]:.3g} (kernel=None)", min_cluster_size)
    return best[0], best[1], best[3]


def _warn_count(n_clusters: int, n_found: int, where: str, min_cluster_size: int) -> None:
    warnings.warn(
        f"GPClustering found {n_found} cluster(s) of at least {min_cluster_size} points "
        f"(min_cluster_size, or a tenth of the mean cluster size) {where}, fewer than "
        f"n_clusters={n_clusters}: the variance "
        "landscape has too few basins. Give a kernel with a shorter length scale "
        "(kernel=GPCovariance(l=...), l = 1/length²), a smaller min_cluster_size or fewer "
        "n_clusters.",
        UserWarning, stacklevel=4,
    )


def _auto_partition(
    X: FloatArray, X_scale: FloatArray, opts: FlowOptions, plan: InducingPlan | None,
    min_cluster_size: int,
) -> tuple[Landscape, NDArray[np.intp], float, NDArray[np.intp]]:
    """``kernel=None`` with neither ``level`` nor ``n_clusters``: landscape and SEP groups.

    Two readings of a landscape give clusters, and no one of them is right on all data:

    * **support** (the paper, eq. 4.3): the components of the level set at r*, kept apart
      where their saddle lies below every training point (``_data_level``). Right on
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
    is, the support at ℓ₀ (the paper's cut). When that support is one piece: the count of
    clusters the persistence of the basins' groups at ℓ₀ gives clearly
    (:func:`_clear_count`), else the best-persisting modes (ARI ≥ ``MODE_PERSIST_ARI`` with
    the next length scale's, in at most √(n/2) clusters). Measured on 21 sets
    (``benchmarks/results/gp_default_rule.md``): the support is kept on every ridge set,
    the modes are taken on every blob set.

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
    # the readings are compared on the points whose flows shape the landscape (all of them,
    # or the inducing subsample); every other point is assigned once, in the fit kept
    fits: list[tuple[Landscape, NDArray[np.intp], NDArray[np.intp], float, int]] = []
    agreement: list[tuple[float, int]] = []  # (ARI with the next fit's modes, fit index)
    at: list[float] = []  # the factor of every fit
    for factor in MODE_FACTORS:
        if fits and fits[-1][4] < 2:  # the last fit found no modes: a longer ℓ only merges
            if factor > 1.0:
                break
            if factor < 1.0:
                continue  # on to ℓ₀, whose support is read in any case
        fit = fit_landscape(default_kernel(X_scale, factor), X, opts, plan)
        own = fit.flow.assignment
        modes, n_big, cut = count_components(fit.Z, fit.edges, own, fit.S.shape[0],
                                             min_cluster_size, fit.sep_var)
        fits.append((fit, own, modes, cut, n_big))
        at.append(factor)
        if len(fits) >= 2:  # a fit after one without modes makes no pair (p_big < 2)
            _, p_own, p_modes, _, p_big = fits[-2]
            agree = adjusted_rand_score(p_modes[p_own], modes[own])
            if 2 <= p_big <= np.sqrt(p_own.size / 2):  # at most √(n/2) clusters
                if p_big == n_big and agree >= MODE_STABLE_ARI:
                    return _modes(fits[-2], X, opts)
                if at[-2] >= 1.0:  # the fallback below reads ℓ₀ and longer only
                    agreement.append((agree, len(fits) - 2))
    ell0 = at.index(1.0)  # the fit whose support is the paper's cut
    fit = fits[ell0][0]
    basins = landscape_basins(fit, X, opts)
    cut, groups = _data_level(fit, basins, plan, min_cluster_size)
    counts = np.bincount(groups[basins])
    if np.sum(counts >= min_cluster_size) >= 2:
        return fit, basins, cut, groups
    # the support is one piece: a count the persistences give clearly (noisy ridges)
    own = fits[ell0][1]
    k = _clear_count(fit, own, min_cluster_size)
    if k >= 2:
        modes, n_big, level = persistent_components(fit.Z, fit.edges, own, k,
                                                    min_cluster_size, fit.sep_var)
        return _modes((fit, own, modes, level, n_big), X, opts)
    best = max(agreement, default=(0.0, 0))
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
        return _modes(fits[best[1]], X, opts)
    return fit, basins, cut, groups


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
    left small (-1) each a group of its own (noise by size, in ``_noise_groups``)."""
    fit, _, modes, cut, _ = found
    small = modes < 0
    modes = modes.copy()
    modes[small] = modes.max() + 1 + np.arange(int(small.sum()))
    return fit, landscape_basins(fit, X, opts), cut, modes


def _data_level(
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


def _noise_groups(
    groups: NDArray[np.intp], basins: NDArray[np.intp], min_cluster_size: int
) -> NDArray[np.intp]:
    """``groups`` with every group of fewer than ``min_cluster_size`` training points set to
    -1 (noise, as HDBSCAN labels points outside its clusters)."""
    counts = np.bincount(groups[basins], minlength=int(groups.max()) + 1)
    return np.where(counts[groups] >= min_cluster_size, groups, -1).astype(np.intp)


def _warn_degenerate(
    labels: NDArray[np.intp], length_scale: float, min_cluster_size: int,
    n_inducing: int | None = None, untransformed: FloatArray | None = None,
) -> None:
    """A warning naming what to change when the fit found fewer than two clusters.

    ``untransformed``: the features, when no ``feature_transform`` was fitted; the warning
    then gives their median excess kurtosis and names ``feature_transform='yeo-johnson'``
    (standardised Pima data, 0.93, just under ``TAIL_KURTOSIS``: one cluster, ARI 0.01;
    transformed, 2 clusters, 0.15)."""
    n_found = int(labels.max()) + 1
    if n_found >= 2:
        return
    what = "every point is noise" if n_found == 0 else "one cluster"
    # inducing points too coarse for the length scale blur the landscape: 3,000 of
    # scikit-learn's moons give one cluster with 300 inducing points, two with 600
    more = ("" if n_inducing is None else
            f"more inducing points (n_landmarks, now {n_inducing}) or approximation='exact', ")
    tails = ("" if untransformed is None else
             " If the features are heavy-tailed (the median feature's excess kurtosis is "
             f"{median_excess_kurtosis(untransformed):.2f}; feature_transform='auto' acts "
             f"above {TAIL_KURTOSIS:g}), try feature_transform='yeo-johnson'.")
    warnings.warn(
        f"GPClustering found {what} (length scale {length_scale:.3g}): the variance "
        f"landscape has no split the data can see. Give {more}a kernel with a shorter "
        "length scale (kernel=GPCovariance(l=...), l = 1/length²), a smaller "
        f"min_cluster_size (now {min_cluster_size}), a level, or n_clusters.{tails}",
        UserWarning, stacklevel=3,
    )


def _plan(
    X: FloatArray, approximation: str, n_landmarks: int | None, landmarks: Landmarks,
    subsample: int | None, random_state: Any,
) -> InducingPlan | None:
    """The inducing points and the subsample (all random choices of the fit), or None."""
    if approximation == "exact" or (approximation == "auto" and X.shape[0] <= AUTO_EXACT_MAX):
        return None
    rng = check_random_state(random_state)
    n = X.shape[0]
    m = DEFAULT_N_COMPONENTS if n_landmarks is None else int(n_landmarks)
    U = choose_inducing_points(X, m, landmarks, rng)
    s = DEFAULT_SUBSAMPLE if subsample is None else int(subsample)
    if s >= n:
        sub = np.arange(n, dtype=np.intp)
    else:
        sub = np.sort(rng.choice(n, s, replace=False)).astype(np.intp)
    return InducingPlan(U=U, subsample=sub)
