"""The one solver of GP variance clustering, :func:`gp_landscape`: the inducing plan (the
random choices, made once), the kernel (given, or data-driven with the length-scale search
for ``n_clusters``), one landscape fit per kernel tried, then the basins of all training
points and their clusters, at the level given, for ``n_clusters``, by the count rule
(:func:`~._readings.auto_partition`) or, with a kernel, at the support. Clusters smaller
than ``min_cluster_size`` are noise (-1); the chosen clusters are written into the tree
(:func:`~._tree.fitted_tree`).
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from numbers import Integral, Real
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from ..._tails import (
    apply_to,
    centring_for_fit,
    to_input_units,
    transform_for_fit,
)
from ..._validation import FloatArray, check_magnitude, check_matrix, check_n_clusters
from ..._warnings import user_stacklevel
from ...kernels import DEFAULT_N_LANDMARKS, Kernel, Precomputed
from ._cuts import (
    components_at,
    level_for_n_clusters,
    persistent_components,
)
from ._doubt import warn_degenerate
from ._inducing import Landmarks, auto_n_landmarks, choose_inducing_points
from ._kernel import auto_length_scale, kernel_at, kernel_length_scale
from ._ladder import Ladder, factors_between
from ._landscape import FlowOptions, InducingPlan, Landscape, Rung, fit_landscape, landscape_basins
from ._line import Line, line_partition, principal_axis
from ._readings import auto_partition, data_level, floor_rule_applies, noise_groups
from ._results import GPHierarchy, GPLandscape, relabel
from ._tree import fitted_tree
from ._unimodal import MIN_ROWS

#: approximation="inducing", n_landmarks=None: the inducing points follow the length scale
#: (auto_n_landmarks), at least kernels.DEFAULT_N_LANDMARKS and at most MAX_N_COMPONENTS (and N).
MAX_N_COMPONENTS = 1000
#: approximation="inducing": points flowed to the end (the SEPs) when subsample is None.
DEFAULT_SUBSAMPLE = 2000
#: approximation="auto": exact up to this many points, inducing points beyond.
AUTO_EXACT_MAX = 1000
#: kernel=None with n_clusters: the length scale is shrunk down the ladder
#: (:data:`~._ladder.FACTORS`) from ℓ₀ to at most this factor of it.
SHRINK_TO = 0.25
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
    check_magnitude(Xv, "X")
    if level is not None and n_clusters is not None:
        raise ValueError("give level or n_clusters, not both.")
    if n_clusters is not None:
        check_n_clusters(n_clusters, Xv.shape[0])
    # heavy-tailed features Gaussianised (kernel=None): the landscape, its SEPs and every
    # query live in the transformed space; the SEPs are also reported in the input's units
    transform = transform_for_fit(Xv, feature_transform, data_driven=kernel is None)
    gaussianised = transform is not None
    if not gaussianised and (kernel is None or kernel.stationary):
        transform = centring_for_fit(Xv)  # far from the origin: the same landscape, centred
    X_input, Xv = Xv, apply_to(transform, Xv)
    if kernel is not None:
        check_gp_kernel(kernel)
        kernel = kernel.for_training_data(Xv)  # e.g. RBF(gamma="scale") from the training data
    trace = None  # the ladder read, when the count is the data's (auto_partition)
    opts = FlowOptions(
        tol=tol, max_iter=max_iter, merge_radius=merge_radius,
        n_segment_points=n_segment_points, assign_steps=assign_steps, batch_size=batch_size,
    )
    exact = approximation == "exact" or (approximation == "auto"
                                         and Xv.shape[0] <= AUTO_EXACT_MAX)
    rng = check_random_state(random_state)  # drawn from only with inducing points
    sub = None if exact else _subsample(Xv.shape[0], subsample, rng)
    # the data-driven length scale follows the points that shape the landscape: all of them
    # (exact), or the subsample whose flows give the SEPs (inducing): the 5th-neighbour
    # distance of very many points is far below what the inducing points resolve, and the
    # FITC variance at that length scale is flat (one cluster; see
    # benchmarks/results/gp_design_notes.md)
    Xl = Xv if sub is None else Xv[sub]
    # the landscape's length scale: ℓ₀ (kernel=None; one neighbour search per fit), or the
    # kernel's
    ell = auto_length_scale(Xl) if kernel is None else kernel_length_scale(kernel, Xl)
    if kernel is None:  # points too close for float64 (1/ℓ₀² overflows): the error, first
        kernel_at(ell)
    plan = None if sub is None else _plan(Xv, sub, kernel, ell, n_landmarks, landmarks, rng)
    # data on a line (kernel=None, no level): counted along it by line_partition
    line = _on_line(X_input, transform, sub, ell) if kernel is None and level is None else None
    # kernel=None, no level, not on a line: the count rule. With n_clusters=k its clusters
    # where it finds k itself (GPClustering(n_clusters=k) is GPClustering() there), else the
    # length-scale search, on the landscapes the rule fitted where it reaches them
    part = None
    if kernel is None and level is None and line is None:
        # data uniform on their box have no structure; any others may be a shoulder, which
        # is asked only where every reading gives one cluster
        gathered = floor_rule_applies(Xl, random_state)
        part = auto_partition(Xv, Xl, ell, opts, plan, min_cluster_size, gathered,
                              split_shoulders=gathered, random_state=random_state)
        groups = noise_groups(part.groups, part.basins, min_cluster_size, plan)
        point_groups = groups[part.basins]
        found = np.unique(point_groups[point_groups >= 0]).size
    if part is not None and (n_clusters is None or found == n_clusters):
        fit, basins, cut = part.fit, part.basins, part.level
        trace = part.trace if n_clusters is None else None
    elif n_clusters is not None:
        k = int(n_clusters)
        min_count = _min_count(min_cluster_size, Xl.shape[0], k)
        if line is not None:  # on a line: cut at the k - 1 valleys of largest dip
            # (valleys, not a chain's ends: min_cluster_size is the least part)
            fit, groups, cut, _ = line_partition(
                Xv, ell, line, opts, plan, min_cluster_size, random_state, n_parts=k,
                shortfall=count_shortfall(Xl, k, min_cluster_size))
        elif kernel is None:
            searched = _search_length_scale(Xv, ell, k, opts, plan, min_count,
                                            None if part is None else part.fits)
            fit, groups, cut = searched.fit, searched.modes, searched.level
        else:
            fit = fit_landscape(kernel, Xv, opts, plan)
            if k > fit.S.shape[0]:  # the message of the plain cut: too few SEPs at this l
                level_for_n_clusters(fit.Z[:, 2], fit.sep_var, k)
            groups, n_big, cut = persistent_components(fit.Z, fit.edges, fit.flow.assignment,
                                                       k, min_count, fit.sep_var, fit.noise)
            if n_big < k:
                _warn_count(k, n_big, f"at length scale {fit.ell:.3g}", min_count, Xl)
        basins = landscape_basins(fit, Xv, opts)
        if line is not None:  # a part's SEPs can have fewer points in their basins than it
            groups = _noise_on_line(groups, basins, min_cluster_size, plan, k)
    elif line is not None:
        fit, groups, cut, trace = line_partition(Xv, ell, line, opts, plan,
                                                 min_cluster_size, random_state)
        basins = landscape_basins(fit, Xv, opts)
        groups = noise_groups(groups, basins, min_cluster_size, plan)
    else:
        fit = fit_landscape(kernel_at(ell) if kernel is None else kernel, Xv, opts, plan)
        basins = landscape_basins(fit, Xv, opts)
        if level is None:
            cut, groups = data_level(fit, basins, plan, min_cluster_size,
                                     floor_rule_applies(Xl, random_state))
        else:
            cut = float(level)
            groups = components_at(fit.Z, fit.S.shape[0], cut)
        groups = noise_groups(groups, basins, min_cluster_size, plan)
    # the clusters chosen written into the tree, so that its cut at the level is them
    tree, cut = fitted_tree(fit.Z, fit.edges, groups, cut)
    sep_labels, labels = relabel(groups, basins)
    if n_clusters is None:
        # as many inducing points as data are the data: no more to ask for (exact variance)
        m = None if plan is None or plan.U.shape[0] >= Xv.shape[0] else plan.U.shape[0]
        warn_degenerate(labels, fit.ell, min_cluster_size, m,
                         None if gaussianised else Xv, trace,
                         all_equal=not np.ptp(Xv, axis=0).any())
    land = GPLandscape(
        kernel=fit.model.kernel, model=fit.model, length_scale=fit.ell,
        max_variance=fit.r_star, level=cut, equilibria=fit.S,
        equilibrium_variance=fit.sep_var, equilibrium_labels=sep_labels,
        hierarchy=GPHierarchy(tree, fit.sep_var, cut, sep_labels, fit.Z), basins=basins,
        labels=labels,
        n_iter=fit.flow.n_iter, n_unconverged=fit.flow.n_unconverged, options=opts, plan=plan,
        transform=transform,
        input_equilibria=to_input_units(transform, fit.S, Xv, X_input),
        flowed=None if plan is None else Xl,  # the subsample's points, copied once above
        min_cluster_size=min_cluster_size, training_variance=fit.training_variance,
    )
    if trace is not None:  # the count found, and the deepest split of its condensed tree
        deep = land.condensed_tree().deepest_split(fit.noise, 1.0 if plan is None else plan.weight)
        land.count_trace = replace(trace, n_clusters=land.n_clusters, deepest_split=deep)
    return land


def _min_count(min_cluster_size: int, n: int, k: int) -> int:
    """The fewest points of a cluster when ``k`` are asked of ``n``: at least a tenth of the
    mean cluster size. The saddle hierarchy is a single linkage, whose top cut on touching
    blobs splits off a chain end instead of the blobs
    (benchmarks/results/gp_design_notes.md)."""
    return max(min_cluster_size, n // (10 * k))


def _noise_on_line(
    groups: NDArray[np.intp], basins: NDArray[np.intp], min_cluster_size: int,
    plan: InducingPlan | None, n_clusters: int,
) -> NDArray[np.intp]:
    """Data on a line with ``n_clusters``: the groups of :func:`~._line.line_partition`
    whose SEPs' basins hold fewer than ``min_cluster_size`` training points made noise (the
    parts are cut at that size, but a SEP's basin can reach across a cut), with a warning
    when there are any."""
    kept = noise_groups(groups, basins, min_cluster_size, plan)
    n_dropped = np.unique(groups).size - np.unique(kept[kept >= 0]).size
    if n_dropped:
        warnings.warn(
            f"GPClustering found {np.unique(groups).size - n_dropped} cluster(s) of at least "
            f"{min_cluster_size} points (min_cluster_size) along the line of the data, fewer "
            f"than n_clusters={n_clusters}: the basins of the stable equilibrium points of "
            f"{n_dropped} of the parts cut hold fewer points, and are noise (-1). Give a "
            "kernel with a shorter length scale (kernel=GPCovariance(l=...), l = 1/length²), "
            "a smaller min_cluster_size or fewer n_clusters.", UserWarning,
            stacklevel=user_stacklevel())
    return kept


def _on_line(
    X_input: FloatArray, transform: Any, sub: NDArray[np.intp] | None, ell0: float
) -> Line | None:
    """The line the training points lie on, in the input's units, or None. ``ell0``: ℓ₀ of
    the points that shape the landscape (``sub``: the subsample, or None for all), in the
    landscape's space, which is the input's without a heavy-tail ``transform``."""
    Xs = X_input if sub is None else X_input[sub]
    if Xs.shape[0] < MIN_ROWS:
        return None
    # ℓ₀ in the input's units (one feature lies on its line whatever the length scale)
    ell = ell0 if transform is None or X_input.shape[1] == 1 else auto_length_scale(Xs)
    axis = principal_axis(X_input, ell)
    return None if axis is None else Line(X_input, axis, transform)


def _search_length_scale(
    X: FloatArray, ell0: float, n_clusters: int, opts: FlowOptions,
    plan: InducingPlan | None, min_cluster_size: int,
    fitted: dict[float, Landscape] | None = None,
) -> Rung:
    """kernel=None with n_clusters: the data-driven length scale ``ell0``, shrunk
    step by step down the ladder to ``SHRINK_TO`` ℓ₀ (at most 6 fits) until the hierarchy
    holds ``n_clusters`` groups of at least ``min_cluster_size`` points, the most persistent ones
    (:func:`~._cuts.persistent_components`).

    When no length scale tried gets there, a warning names what to change and the fit with
    the most such groups (the longest ℓ among ties) is returned.
    """

    def persistent(fit: Landscape) -> tuple[NDArray[np.intp], int, float]:
        return persistent_components(fit.Z, fit.edges, fit.flow.assignment, n_clusters,
                                     min_cluster_size, fit.sep_var, fit.noise)

    rungs = Ladder(X, ell0, opts, plan, persistent)
    for factor, fit in (fitted or {}).items():  # landscapes the count rule fitted: read again
        rungs.done[factor] = Rung(fit, *persistent(fit))
    shrinking = factors_between(1.0, SHRINK_TO)
    best: Rung | None = None
    for k, factor in enumerate(shrinking):
        found = rungs.rung(factor)
        if found.n_modes >= n_clusters:
            if k > 0 and found.fit.S.shape[0] > n_clusters:
                # more basins than clusters: one bisection step back towards the last (too
                # long) ℓ, kept if it still gives n_clusters (fewer spurious basins)
                back = rungs.rung(float(np.sqrt(factor * shrinking[k - 1])))
                if back.n_modes >= n_clusters:
                    found = back
            return found
        if best is None or found.n_modes > best.n_modes:
            best = found
    assert best is not None
    _warn_count(n_clusters, best.n_modes, f"at any length scale from {rungs.ell0:.3g} down "
                f"to {rungs.ell0 * SHRINK_TO:.3g} (kernel=None)", min_cluster_size,
                X if plan is None else X[plan.subsample])
    return best


def count_shortfall(X: FloatArray, n_clusters: int, min_size: int) -> str:
    """Why no landscape of the points ``X`` (those that shape it) can hold ``n_clusters``
    clusters of at least ``min_size`` points, with what to change, or ``""``: too few points,
    or fewer distinct points than clusters.

    Examples
    --------
    >>> count_shortfall(np.zeros((8, 1)), 2, 5).split(".")[0]
    'the 8 points are too few for 2 clusters of at least 5'
    >>> count_shortfall(np.repeat([[0.0], [1.0]], 50, axis=0), 3, 5).split(".")[0]
    'the 100 points are 2 distinct points, fewer than the clusters asked'
    >>> count_shortfall(np.arange(20.0).reshape(-1, 1), 3, 5)
    ''
    """
    n = X.shape[0]
    if n < n_clusters * min_size:
        return (f"the {n} points are too few for {n_clusters} cluster"
                f"{'s' if n_clusters > 1 else ''} of at least {min_size}. Give a smaller "
                "min_cluster_size" + (" or fewer n_clusters." if n_clusters > 1 else "."))
    distinct = np.unique(X, axis=0).shape[0]
    if distinct < n_clusters:
        return (f"the {n} points are {distinct} distinct point{'s' if distinct > 1 else ''}, "
                "fewer than the clusters asked. Give fewer n_clusters.")
    return ""


def _warn_count(
    n_clusters: int, n_found: int, where: str, min_cluster_size: int, X: FloatArray
) -> None:
    """The warning of an ``n_clusters`` fit that found fewer clusters; ``X``: the points
    that shape the landscape, which may be too few for any landscape
    (:func:`count_shortfall`)."""
    why = count_shortfall(X, n_clusters, min_cluster_size) or (
        "the variance landscape has too few basins. Give a kernel with a shorter length "
        "scale (kernel=GPCovariance(l=...), l = 1/length²), a smaller min_cluster_size or "
        "fewer n_clusters.")
    warnings.warn(
        f"GPClustering found {n_found} cluster(s) of at least {min_cluster_size} points "
        f"(min_cluster_size, or a tenth of the mean cluster size) {where}, fewer than "
        f"n_clusters={n_clusters}: {why}",
        UserWarning, stacklevel=user_stacklevel(),
    )


def _subsample(n: int, subsample: int | None, rng: np.random.RandomState) -> NDArray[np.intp]:
    """approximation="inducing": the points whose flows give the SEPs (``subsample`` of the
    ``n``, or all of them), sorted; the first random choice of the fit."""
    s = DEFAULT_SUBSAMPLE if subsample is None else int(subsample)
    if s >= n:
        return np.arange(n, dtype=np.intp)
    return np.sort(rng.choice(n, s, replace=False)).astype(np.intp)


def _plan(
    X: FloatArray, sub: NDArray[np.intp], kernel: Kernel | None, ell: float,
    n_landmarks: int | None, landmarks: Landmarks, rng: np.random.RandomState,
) -> InducingPlan:
    """approximation="inducing": the inducing points (the fit's second random choice) and
    the subsample ``sub`` (:func:`_subsample`).

    With ``n_landmarks=None`` the count follows the landscape's length scale ``ell``
    (:func:`~._inducing.auto_n_landmarks`): the data-driven ℓ₀ of the subsample
    (``kernel=None``), or the given kernel's; with ``kernel=None`` every point counts
    ``s / n`` in the variance (the plan's ``weight``), so that a landscape read from 1,000
    points and from 100,000 points of a distribution is the same landscape."""
    n = X.shape[0]
    low = None
    if n_landmarks is None:
        low = min(DEFAULT_N_LANDMARKS, n)
        m = auto_n_landmarks(X[sub], ell, low=low, high=MAX_N_COMPONENTS)
    else:
        m = int(n_landmarks)
    U = choose_inducing_points(X, m, landmarks, rng)
    # kernel=None: ℓ₀ is the subsample's, and so is the count of points within it: every
    # point counts s / n, so that the landscape is the same at every n > s
    weight = sub.size / n if kernel is None else 1.0
    return InducingPlan(U=U, subsample=sub, weight=weight, low=low)
