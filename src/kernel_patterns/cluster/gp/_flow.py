"""Batched descent of the GP variance to its stable equilibrium points (eq. 4.2).

The gradient system ``dx/dt = −∇σ²(x)`` (eq. 4.2) carries every point to a local minimum of σ²
(a stable equilibrium point, SEP; errata 2: stable means a minimum of σ², found by descent with
the closed-form gradient). Instead of integrating one trajectory at a time, all points move
together: one batched variance/gradient evaluation per iteration for every still-active point,
a per-point step size (grown after a successful step, halved on an Armijo failure, capped at a
fraction of the kernel length scale so a step cannot jump over a cluster boundary), and two
ways to stop a point early:

* it has converged (gradient norm × length scale ≤ ``tol`` × variance scale, or its step has
  collapsed below round-off), and then joins the nearest SEP within ``merge_radius`` or
  becomes a new SEP;
* it has come within ``capture × merge_radius`` of a SEP found before (so close to a minimum
  it is in that SEP's basin; ``capture`` defaults to 2);

and a third way to stop following its own path: it has come within ``coalesce ×
merge_radius`` of a place another point has passed (in the last ``TRAIL_WINDOW`` steps, its
start, or now), lower on σ² and moving the same way there, and it then follows that point to
its end.

``merge_radius`` is measured in units of the kernel length scale, never by rounding
coordinates to a grid (which is scale-dependent).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from ..._progress import start_progress
from ..._validation import FloatArray
from ._variance import VarianceFunction

_ARMIJO = 1e-4
_MAX_STEP = 0.25  # largest step, in length scales
#: a point this many merge radii from another's trail follows it (``flow_to_equilibria``)
COALESCE = 3.0
#: ... when their descent directions agree this well (cosine): near a basin boundary the two
#: directions part, and a point following another across it would lose its own SEP
ALIGNED = 0.99
#: steps of the trail kept (besides the starts and the current places): a short window saves
#: nearly as many kernel rows as the whole trail (benchmarks/results/gp_design_notes.md)
TRAIL_WINDOW = 4
#: trajectories coalesce up to this many features, searched with a k-d tree over the trail;
#: above, they do not: there a k-d tree costs more than the steps it saves
#: (benchmarks/results/gp_design_notes.md)
_TREE_DIMS = 8


def _coalesce(
    x: FloatArray, f: FloatArray, g: FloatArray, idx: NDArray[np.intp], r: float,
    follows: NDArray[np.intp], active: NDArray[np.bool_],
    trail: tuple[FloatArray, FloatArray, FloatArray, NDArray[np.intp]], k: int = 16,
) -> NDArray[np.intp]:
    """Stop every active point that is within ``r`` of a place another point has passed
    (``trail``: positions, σ², gradients and owners) lower on σ² than it is now, moving the
    same way there (gradient cosine ≥ ``ALIGNED``); it will end where that point ends
    (``follows``). Of the ``k`` places
    nearest to it, the nearest that qualifies is taken. Returns the points still moving.

    A point only follows one that is strictly lower on σ², and trajectories only descend,
    so the one followed ends lower than the follower: no cycle can form, and chains are
    resolved at the end of the flow.
    """
    tx, tf, tg, owner = trail
    k = min(k, tx.shape[0])
    dist, nb = cKDTree(tx).query(x[idx], k=k, distance_upper_bound=r)
    dist, nb = dist.reshape(idx.size, k), nb.reshape(idx.size, k)
    found = np.isfinite(dist)
    row, col = np.nonzero(found)
    j = nb[row, col]
    a, b = g[idx[row]], tg[j]
    cos = np.einsum("ij,ij->i", a, b) / np.maximum(
        np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-300)
    ok = (owner[j] != idx[row]) & (tf[j] < f[idx[row]]) & (cos >= ALIGNED)
    row, j = row[ok], j[ok]  # row-major: each follower's nearest qualifying place first
    if row.size == 0:
        return idx
    first = np.r_[True, row[1:] != row[:-1]]
    me, them = row[first], owner[j[first]]
    follows[idx[me]] = them
    active[idx[me]] = False
    moving = np.ones(idx.size, dtype=bool)
    moving[me] = False
    return idx[moving]


def armijo_step(
    model: VarianceFunction,
    x: FloatArray,
    f: FloatArray,
    g: FloatArray,
    gnorm: FloatArray,
    t: FloatArray,
    idx: NDArray[np.intp],
    max_step: float,
) -> NDArray[np.intp]:
    """One batched steepest-descent step with Armijo acceptance for the points ``idx``.

    The step of point i is ``min(t_i, max_step / ‖g_i‖)``; accepted points move (``x``, ``f``,
    ``g``, ``gnorm`` updated in place) and take as their next trial step ``t`` the
    Barzilai-Borwein step ``s·s / s·y`` of this move (at least half the step just taken;
    twice it where the curvature along the move is not positive), rejected ones stay and
    halve it. Returns the rejected indices. The Barzilai-Borwein step follows the curvature
    along the move, where a doubled step zig-zags across the narrow valleys of a landscape
    in many dimensions (``benchmarks/results/gp_design_notes.md``).
    """
    step = np.minimum(t[idx], max_step / np.maximum(gnorm[idx], 1e-300))
    trial = x[idx] - step[:, None] * g[idx]
    ft, gt = model.value_and_gradient(trial)
    ok = ft <= f[idx] - _ARMIJO * step * gnorm[idx] ** 2
    acc, rej = idx[ok], idx[~ok]
    # Barzilai-Borwein trial step for the next iteration of an accepted point: the secant
    # s·s / s·y of its last move (s = step · g_old, y = g_new − g_old), used when the
    # curvature along the move is positive, else twice the accepted step
    s_vec = -step[ok, None] * g[acc]
    y_vec = gt[ok] - g[acc]
    sy = np.einsum("ij,ij->i", s_vec, y_vec)
    ss = np.einsum("ij,ij->i", s_vec, s_vec)
    bb = np.where(sy > 0, ss / np.where(sy > 0, sy, 1.0), 2.0 * step[ok])
    x[acc], f[acc], g[acc] = trial[ok], ft[ok], gt[ok]
    gnorm[acc] = np.linalg.norm(gt[ok], axis=1)
    t[acc] = np.maximum(bb, 0.5 * step[ok])
    t[rej] = 0.5 * step[~ok]
    return rej


@dataclass
class FlowResult:
    """Where the points went.

    Attributes
    ----------
    equilibria : ndarray of shape (n_equilibria, n_features)
        The SEPs (known ones first, in the order given, then new ones in order of discovery).
    assignment : ndarray of shape (n_points,)
        Index into ``equilibria`` of the SEP each point reached.
    endpoints : ndarray of shape (n_points, n_features)
        Where each trajectory stopped.
    n_iter : int
        Descent iterations run.
    n_unconverged : int
        Points stopped by ``max_iter`` before meeting the convergence test.

    See Also
    --------
    flow_to_equilibria : Returns it (its example shows one).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import FlowResult
    >>> res = FlowResult(equilibria=np.array([[0.0, 0.0], [3.0, 3.0]]),
    ...                  assignment=np.array([0, 1, 1]), endpoints=np.zeros((3, 2)),
    ...                  n_iter=12, n_unconverged=0)
    >>> res.equilibria[res.assignment][:, 0]  # the SEP each point reached
    array([0., 3., 3.])
    """

    equilibria: FloatArray
    assignment: NDArray[np.intp]
    endpoints: FloatArray
    n_iter: int
    n_unconverged: int


def flow_to_equilibria(
    model: VarianceFunction,
    X0: FloatArray,
    *,
    length_scale: float,
    variance_scale: float,
    tol: float = 1e-4,
    max_iter: int = 500,
    merge_radius: float = 0.1,
    known: FloatArray | None = None,
    share_new: bool = True,
    capture: float = 2.0,
    start: tuple[FloatArray, FloatArray] | None = None,
    coalesce: float = COALESCE,
) -> FlowResult:
    """Move every row of ``X0`` downhill on σ² until it reaches a SEP (eq. 4.2).

    Parameters
    ----------
    model : GPVarianceModel or InducingVarianceModel
    X0 : ndarray of shape (n_points, n_features)
        Starting points (not modified).
    length_scale : float
        The kernel's length scale: the unit of steps, radii and the gradient test.
    variance_scale : float
        The unit of variance for the gradient test (the level r*).
    tol : float
        A point has converged when ``‖∇σ²‖ · length_scale ≤ tol · variance_scale``.
    max_iter : int
        Largest number of descent iterations.
    merge_radius : float
        In length scales: converged points this close to a SEP join it, and active points
        this close to a SEP stop there.
    known : ndarray of shape (n_known, n_features), default=None
        SEPs found before (used by ``predict``): points reaching them stop early.
    capture : float, default=2.0
        Active points within ``capture · merge_radius`` length scales of a SEP stop there.
    share_new : bool, default=True
        Whether SEPs found during this call capture other points. ``predict`` passes False so
        that every new point's answer is independent of the other points in the batch.
    start : (values, gradients), default=None
        σ² and ∇σ² at ``X0`` when already known (the exact fit's
        :meth:`~._variance.GPVarianceModel.at_training_points`); computed when None.
    coalesce : float, default=3.0
        A moving point closer than ``coalesce · merge_radius`` length scales to a place
        another point has passed (its start, its places in the last ``TRAIL_WINDOW`` steps,
        or where it is now), lower on σ² and
        with descent directions agreeing there (cosine ≥ 0.99), stops and ends where that
        point ends (its endpoint and SEP). Trajectories run together down the valleys, and
        a point that reaches a valley later finds another's path there, so far fewer kernel
        rows are evaluated, with the same labels and SEPs. Two points that close and moving
        alike lie in one basin unless a basin boundary passes between them; the direction
        test keeps a follower from crossing one and losing a small basin's SEP that the
        support needs (measurements: ``benchmarks/results/gp_design_notes.md``).
        0 flows every point alone. Off when ``share_new`` is False (each point's
        answer its own) and in more than 8 features (``_TREE_DIMS``: a k-d tree there is
        slower than the steps it saves).

    Examples
    --------
    Two blobs: every point flows to the variance minimum of its own blob.

    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import fit_variance_model, flow_to_equilibria
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> res = flow_to_equilibria(model, X, length_scale=1.0, variance_scale=1.3)
    >>> np.round(res.equilibria, 1)
    array([[0.1, 0.1],
           [3.1, 3. ]])
    >>> res.assignment
    array([0, 0, 0, 1, 1, 1])
    """
    n, d = X0.shape
    radius = merge_radius * length_scale
    gtol = tol * variance_scale / length_scale
    max_step = _MAX_STEP * length_scale
    seps: list[FloatArray] = [] if known is None else [s.copy() for s in known]
    n_known = len(seps)
    x = np.array(X0, dtype=np.float64, copy=True)
    if start is None:
        f, g = model.value_and_gradient(x)
    else:
        f, g = np.array(start[0], dtype=np.float64), np.array(start[1], dtype=np.float64)
    gnorm = np.linalg.norm(g, axis=1)
    t = max_step / np.maximum(gnorm, 1e-300)  # first trial step: a full max_step
    assignment = np.full(n, -1, dtype=np.intp)
    follows = np.full(n, -1, dtype=np.intp)
    active = np.ones(n, dtype=bool)
    converged = np.zeros(n, dtype=bool)

    def settle(points: NDArray[np.intp]) -> None:
        # Converged points join the nearest SEP within the radius or become new SEPs.
        for i in points:
            n_shared = len(seps) if share_new else n_known
            if n_shared:
                S = np.asarray(seps[:n_shared])
                dist = np.linalg.norm(S - x[i], axis=1)
                j = int(np.argmin(dist))
                if dist[j] <= radius:
                    assignment[i] = j
                    continue
            seps.append(x[i].copy())
            assignment[i] = len(seps) - 1

    # places passed in the last TRAIL_WINDOW steps, for the k-d tree of _coalesce (in
    # more than _TREE_DIMS dimensions no coalescing: a k-d tree there is slow)
    keep_trail = d <= _TREE_DIMS
    start_x, start_f, start_g = x.copy(), f.copy(), g.copy()
    trail_x: list[FloatArray] = []
    trail_f: list[FloatArray] = []
    trail_g: list[FloatArray] = []
    trail_o: list[NDArray[np.intp]] = []
    n_iter = 0
    bar = start_progress(max_iter, "flow to equilibria")
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - n_iter is reported
        bar.update(1)
        idx = np.flatnonzero(active)
        # 1. converged points
        done = idx[gnorm[idx] <= gtol]
        if done.size:
            converged[done] = True
            active[done] = False
            settle(done)
        # 2. points that entered a known SEP's neighbourhood
        idx = np.flatnonzero(active)
        n_shared = len(seps) if share_new else n_known
        if idx.size and n_shared:
            S = np.asarray(seps[:n_shared])
            d2 = (
                np.einsum("ij,ij->i", x[idx], x[idx])[:, None]
                - 2.0 * x[idx] @ S.T
                + np.einsum("ij,ij->i", S, S)[None, :]
            )
            j = np.argmin(d2, axis=1)
            near = d2[np.arange(idx.size), j] <= (capture * radius) ** 2
            if near.any():
                hit = idx[near]
                assignment[hit] = j[near]
                converged[hit] = True
                active[hit] = False
                idx = idx[~near]
        # 2b. trajectories that have met: the one higher up follows the other
        if coalesce > 0 and share_new and idx.size > 1 and keep_trail:
            trail = (np.concatenate([start_x, *trail_x, x[idx]]),
                     np.concatenate([start_f, *trail_f, f[idx]]),
                     np.concatenate([start_g, *trail_g, g[idx]]),
                     np.concatenate([np.arange(n), *trail_o, idx]))
            idx = _coalesce(x, f, g, idx, coalesce * radius, follows, active, trail)
        if idx.size == 0:
            break
        # 3. one Armijo-controlled step for every active point
        rej = armijo_step(model, x, f, g, gnorm, t, idx, max_step)
        if keep_trail:
            moved = np.setdiff1d(idx, rej, assume_unique=True)
            trail_x.append(x[moved])
            trail_f.append(f[moved])
            trail_g.append(g[moved])
            trail_o.append(moved)
            if len(trail_x) > TRAIL_WINDOW:
                del trail_x[0], trail_f[0], trail_g[0], trail_o[0]
        # a step that cannot decrease σ² any more, however small: a minimum up to round-off
        stuck = rej[t[rej] * gnorm[rej] <= 1e-9 * length_scale]
        if stuck.size:
            converged[stuck] = True
            active[stuck] = False
            settle(stuck)
    bar.close()
    left = np.flatnonzero(active)
    if left.size:
        settle(left)
    chased = np.flatnonzero(follows >= 0)
    if chased.size:  # a follower ends where its leader (or the leader's leader) ended
        lead = follows[chased]
        while np.any(follows[lead] >= 0):
            lead = np.where(follows[lead] >= 0, follows[lead], lead)
        assignment[chased] = assignment[lead]
        x[chased] = x[lead]
    equilibria = np.asarray(seps, dtype=np.float64).reshape(-1, d)
    return FlowResult(
        equilibria=equilibria,
        assignment=assignment,
        endpoints=x,
        n_iter=n_iter,
        n_unconverged=int(left.size),
    )
