"""One fit of the GP variance landscape: model, SEPs and the saddle-level hierarchy.

One step of :func:`~._solver.gp_landscape` (one kernel), shared by both of its paths:

* ``approximation="exact"``: the exact variance (eq. 3.1), every training point flowed to its
  SEP (eq. 4.2);
* ``approximation="inducing"``: the DTC/FITC variance of :mod:`~._inducing` with the
  inducing points of an :class:`InducingPlan`; only the plan's subsample is flowed to the
  end (the SEPs); the other points are assigned later by
  :func:`~._assign.assign_to_equilibria` (:func:`landscape_basins`).

Then, in both, the segment checks between the SEPs (eq. 4.3 as corrected in errata 1) and
their single-linkage hierarchy (errata 3).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.neighbors import NearestNeighbors

from ..._validation import FloatArray
from ...kernels import Kernel
from ._assign import assign_to_equilibria, flow_assign
from ._flow import FlowResult, flow_to_equilibria
from ._graph import candidate_pairs, segment_levels, single_linkage
from ._inducing import InducingForm, auto_n_landmarks, farthest_first, fit_inducing_model
from ._kernel import kernel_length_scale
from ._steps import TREE_MAX_FEATURES, follow_steps, step_to_lower_neighbours
from ._variance import VarianceFunction, fit_variance_model

#: the inducing-point form used by GPClustering(approximation="inducing"): FITC (its
#: per-point noise correction keeps the variance at data points far from U closer to the
#: exact one; both forms are exact at U = X and tested).
INDUCING_FORM: InducingForm = "fitc"
#: approximation="inducing": subsample points flowed together (batch_size overrides it).
FLOW_CHUNK = 4096
#: :func:`landscape_basins` with a pool: points to assign per thread, at least.
SPLIT_AT_LEAST = 1024


@dataclass
class InducingPlan:
    """The random choices of an inducing-point fit, made once per ``fit``.

    Attributes
    ----------
    U : ndarray of shape (m, n_features)
        Inducing points.
    subsample : ndarray of shape (s,)
        Sorted indices of the training points whose full flows give the SEPs.
    weight : float, default=1.0
        What every training point counts in the variance (``s / n`` with ``kernel=None``:
        the landscape of the subsample, whose ℓ₀ it is, with the noise of all points).
    low : int or None, default=None
        When set, the count of ``U`` followed the length scale
        (:func:`~._inducing.auto_n_landmarks`, at least ``low``), and a
        landscape at a longer length scale uses fewer of them (``at_length_scale``).

    See Also
    --------
    GPLandscape : Its ``plan`` (None for the exact method).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._landscape import InducingPlan
    >>> plan = InducingPlan(U=np.array([[0.0, 0.0], [1.0, 1.0]]), subsample=np.arange(4))
    >>> plan.U.shape[0], plan.subsample.size, plan.weight
    (2, 4, 1.0)
    """

    U: FloatArray
    subsample: NDArray[np.intp]
    weight: float = 1.0
    low: int | None = None

    def at_length_scale(self, X: FloatArray, length_scale: float) -> InducingPlan:
        """The plan for a landscape at ``length_scale``.

        With a count that follows the length scale (``low`` set), the inducing points are a
        farthest-point cover of ``U`` by as many as
        :func:`~._inducing.auto_n_landmarks` gives for the subsample there:
        fewer at a longer length scale, never more than ``U``. Otherwise this plan.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The training points (the plan's ``subsample`` indexes them).
        length_scale : float
            The length scale of the landscape (> 0).

        Returns
        -------
        InducingPlan
            The same subsample and weight; ``U`` a subset of this plan's.

        Examples
        --------
        >>> import numpy as np
        >>> from kernel_patterns.cluster.gp._landscape import InducingPlan
        >>> X = np.linspace(0, 100, 201).reshape(-1, 1)
        >>> plan = InducingPlan(U=X[::4], subsample=np.arange(201), low=5)
        >>> len(plan.U), len(plan.at_length_scale(X, 20.0).U)
        (51, 9)
        """
        if self.low is None:
            return self
        m = auto_n_landmarks(X[self.subsample], length_scale, low=min(self.low, len(self.U)),
                             high=len(self.U))
        if m >= len(self.U):
            return self
        return replace(self, U=self.U[farthest_first(self.U, m)])


@dataclass
class FlowOptions:
    """Options of the flows and the segment checks (the estimator's parameters).

    Parameters
    ----------
    tol : float
        Convergence test of the flows (``GPClustering(tol=...)``).
    max_iter : int
        Largest number of descent iterations.
    merge_radius : float
        In length scales: converged points this close to a SEP join it.
    n_segment_points : int
        Points checked on each segment between two SEPs.
    assign_steps : int, default=10
        Descent steps of the short flow that assigns new points.
    batch_size : int or None, default=None
        Points per batch of that assignment (None: :func:`default_batch_size`).

    See Also
    --------
    GPLandscape : Its ``options``.

    Examples
    --------
    >>> from kernel_patterns.cluster.gp._landscape import FlowOptions
    >>> opts = FlowOptions(tol=1e-4, max_iter=500, merge_radius=0.1, n_segment_points=20)
    >>> opts.assign_steps, opts.batch_size
    (10, None)
    """

    tol: float
    max_iter: int
    merge_radius: float
    n_segment_points: int
    assign_steps: int = 10
    batch_size: int | None = None


@dataclass
class Landscape:
    """One fit of the variance landscape (no level chosen yet)."""

    model: VarianceFunction
    r_star: float
    ell: float
    flow: FlowResult
    S: FloatArray
    Z: FloatArray
    sep_var: FloatArray
    edges: NDArray[np.intp]
    #: σ² of the points flowed to the end (all of them, or the inducing subsample); r* is
    #: its largest value
    point_variance: FloatArray
    plan: InducingPlan | None = None
    #: σ² of every training point, once :func:`landscape_basins` has computed it (inducing
    #: points in few features), else None
    all_variance: FloatArray | None = None

    @property
    def training_variance(self) -> FloatArray | None:
        """σ² of every training point where known: ``point_variance`` when every point
        was flowed, else ``all_variance``."""
        return self.point_variance if self.plan is None else self.all_variance

    @property
    def noise(self) -> float:
        """The noise variance v2 of the landscape's kernel (0 for a kernel without one)."""
        return float(self.model.kernel.diagonal_noise())


@dataclass(frozen=True)
class Rung:
    """One landscape of a length-scale ladder, read into groups of SEPs.

    Attributes
    ----------
    fit : Landscape
    modes : ndarray of shape (n_equilibria,)
        Group of every SEP (-1: in a group of fewer than ``min_cluster_size`` points).
    n_modes : int
        Groups of at least ``min_cluster_size`` points.
    level : float
        The level of that cut.
    """

    fit: Landscape
    modes: NDArray[np.intp]
    n_modes: int
    level: float

    @property
    def own(self) -> NDArray[np.intp]:
        """The SEP of every point that shapes the landscape (all, or the subsample)."""
        return self.fit.flow.assignment


def fit_landscape(
    kernel: Kernel, X: FloatArray, opts: FlowOptions, plan: InducingPlan | None = None
) -> Landscape:
    """Variance model (eq. 3.1 exact, or inducing), flow to SEPs (eq. 4.2), hierarchy."""
    start = None
    if plan is None:
        exact = fit_variance_model(kernel, X)
        start = exact.at_training_points()  # σ², ∇σ² at X without the GEMM with C⁻¹
        model: VarianceFunction = exact
        X_flow = X
    else:
        model = fit_inducing_model(kernel, X, plan.U, form=INDUCING_FORM, weight=plan.weight)
        X_flow = X[plan.subsample]
    chunk = X_flow.shape[0] if plan is None else max(opts.batch_size or FLOW_CHUNK, 1)
    if start is None and X_flow.shape[0] <= chunk:
        # one chunk: the flow's first σ², ∇σ² (the same blocks) give r* too, the σ² of
        # the subsample computed once, not twice
        start = model.value_and_gradient(X_flow)
    # r* (the support level) is the largest variance over the points that shape the landscape:
    # all of them (exact, the paper's definition), or the subsample whose flows give the SEPs
    # (inducing). Over all of very many points r* is set by the rarest outliers: with a short
    # length scale it nears the prior variance and the support joins every cluster
    # (benchmarks/results/gp_design_notes.md). Points outside the subsample's support are
    # still assigned, by the short flow to their SEP.
    point_variance = model.variance(X_flow) if start is None else start[0]
    r_star = float(point_variance.max())
    ell = kernel_length_scale(kernel, X)
    flow = _chunked_flow(model, X_flow, chunk, start, length_scale=ell,
                         variance_scale=max(r_star, 1e-300), tol=opts.tol,
                         max_iter=opts.max_iter, merge_radius=opts.merge_radius)
    S = flow.equilibria
    I, J = candidate_pairs(S)
    w = segment_levels(model, S, I, J, n_points=opts.n_segment_points, lazy=True)
    Z, edges = single_linkage(S.shape[0], I, J, w)
    return Landscape(model, r_star, ell, flow, S, Z, model.variance(S), edges, point_variance,
                     plan)


def _chunked_flow(
    model: VarianceFunction, X: FloatArray, chunk: int,
    start: tuple[FloatArray, FloatArray] | None = None, **kw: float
) -> FlowResult:
    """:func:`~._flow.flow_to_equilibria` over ``chunk`` points at a time, the SEPs found
    so far passed on as ``known`` (bounds the per-iteration temporaries by
    ``chunk × n_equilibria``; one chunk is exactly one call, with ``start`` passed on)."""
    if X.shape[0] <= chunk:
        return flow_to_equilibria(model, X, start=start, **kw)  # type: ignore[arg-type]
    S: FloatArray | None = None
    parts, ends, n_iter, n_unconv = [], [], 0, 0
    for s in range(0, X.shape[0], chunk):
        f = flow_to_equilibria(model, X[s : s + chunk], known=S, **kw)  # type: ignore[arg-type]
        S = f.equilibria
        parts.append(f.assignment)
        ends.append(f.endpoints)
        n_iter, n_unconv = max(n_iter, f.n_iter), n_unconv + f.n_unconverged
    assert S is not None
    return FlowResult(equilibria=S, assignment=np.concatenate(parts),
                      endpoints=np.vstack(ends), n_iter=n_iter, n_unconverged=n_unconv)


def landscape_basins(
    fit: Landscape, X: FloatArray, opts: FlowOptions, pool: Executor | None = None
) -> NDArray[np.intp]:
    """Index of the SEP of every training point.

    Exact: where its own flow went. Inducing: the subsample's flows; every other point steps
    to a lower training point by a checked segment
    (:func:`~._steps.step_to_lower_neighbours`, in at most ``TREE_MAX_FEATURES``
    dimensions, where the neighbour search is a tree) and takes the SEP its steps end at;
    the points with no step are assigned by :func:`~._assign.assign_to_equilibria` (short
    flow). In more dimensions every other point takes the SEP of its nearest subsample
    point (:func:`nearest_flowed`). With a ``pool`` (the ladder's, whose threads each run
    one BLAS thread), half of the points are computed on it meanwhile (every point's result
    is its own: the same basins).
    """
    if fit.plan is None:
        return fit.flow.assignment
    n = X.shape[0]
    basins = np.full(n, -1, dtype=np.intp)
    sub = fit.plan.subsample
    basins[sub] = fit.flow.assignment
    rest = np.ones(n, dtype=bool)
    rest[sub] = False
    idx = np.flatnonzero(rest)
    step = np.full(n, -1, dtype=np.intp)
    if idx.size and X.shape[1] > TREE_MAX_FEATURES:
        # no step to a lower neighbour in many dimensions: the nearest flowed point's SEP
        basins[idx] = nearest_flowed(X[sub], fit.flow.assignment, X[idx])
        return basins
    if idx.size:
        variance = np.empty(n)
        variance[sub] = fit.point_variance
        variance[idx] = _in_halves(pool, lambda part: fit.model.variance(X[part]), idx)
        fit.all_variance = variance
        neighbours = NearestNeighbors().fit(X)
        kwargs = assign_kwargs(fit.ell, fit.r_star, opts)
        step[idx] = _in_halves(pool, lambda part: step_to_lower_neighbours(
            fit.model, X, variance, part, neighbours, length_scale=kwargs["length_scale"],
            variance_scale=kwargs["variance_scale"], tol=kwargs["tol"]), idx)
        idx = idx[step[idx] < 0]
    if idx.size:
        basins[idx] = _in_halves(pool, lambda part: assign_points(
            fit.model, fit.S, fit.ell, fit.r_star, X[part], opts, inducing=True), idx)
    return follow_steps(step, basins)


def nearest_flowed(
    flowed: FloatArray, flowed_basins: NDArray[np.intp], X: FloatArray
) -> NDArray[np.intp]:
    """The SEP of the nearest flowed point (Euclidean) of every row of ``X``.

    The inducing path's ``predict``, and its fit in more than ``TREE_MAX_FEATURES``
    dimensions. There the points lie above the saddles between clusters, and a segment
    check at a point's own variance cannot tell which of them its flow reaches. The
    nearest point whose full flow is known agrees with the point's own flow more often
    than the checks of :func:`~._assign.assign_to_equilibria`, in few dimensions too
    (``benchmarks/results/gp_design_notes.md``). A flowed point is its own nearest, so it
    keeps its SEP.
    """
    from sklearn.neighbors import NearestNeighbors

    search = NearestNeighbors(n_neighbors=1, algorithm="brute").fit(flowed)
    return flowed_basins[search.kneighbors(X, return_distance=False)[:, 0]]


def _in_halves(pool: Executor | None, run: Callable[[NDArray[np.intp]], NDArray[Any]],
               idx: NDArray[np.intp]) -> NDArray[Any]:
    """``run(idx)``, its second half on ``pool`` meanwhile when there is one and ``idx`` is
    long enough (``SPLIT_AT_LEAST`` per half)."""
    if pool is None or idx.size < 2 * SPLIT_AT_LEAST:
        return run(idx)
    half = pool.submit(run, idx[idx.size // 2 :])
    first = run(idx[: idx.size // 2])
    return np.concatenate([first, half.result()])


def assign_kwargs(length_scale: float, r_star: float, opts: FlowOptions) -> dict[str, Any]:
    """Keyword arguments of :func:`~._assign.assign_to_equilibria` for a fit with length
    scale ``length_scale``, support level ``r_star`` and options ``opts`` (what
    ``GPClustering.assign_params`` returns to a driver that assigns partitions elsewhere)."""
    return {
        "length_scale": length_scale,
        "variance_scale": max(r_star, 1e-300),
        "n_steps": opts.assign_steps,
        "merge_radius": opts.merge_radius,
        "tol": opts.tol,
        "max_iter": opts.max_iter,
        "batch_size": opts.batch_size,
    }


def assign_points(
    model: VarianceFunction,
    S: FloatArray,
    length_scale: float,
    r_star: float,
    X: FloatArray,
    opts: FlowOptions,
    inducing: bool,
    flowed: tuple[FloatArray, NDArray[np.intp]] | None = None,
) -> NDArray[np.intp]:
    """The one predict path: the SEP (row of ``S``) of every row of ``X``.

    Inducing: given ``flowed`` (the subsample's points and SEPs), the SEP of the nearest
    of them (:func:`nearest_flowed`); else :func:`~._assign.assign_to_equilibria`
    (segment checks and a short flow).
    Exact: the full flow of :func:`~._assign.flow_assign`, every SEP compared for a point
    that stops elsewhere.
    """
    if inducing and flowed is not None:
        return nearest_flowed(flowed[0], flowed[1], X)
    if inducing:
        return assign_to_equilibria(model, X, S,
                                    **assign_kwargs(length_scale, r_star, opts)).basins
    return flow_assign(model, X, S, length_scale=length_scale,
                       variance_scale=max(r_star, 1e-300), tol=opts.tol,
                       max_iter=opts.max_iter, merge_radius=opts.merge_radius,
                       n_points=opts.n_segment_points)
