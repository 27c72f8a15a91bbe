"""Assign many points to known stable equilibrium points (SEPs) by segment checks and a short flow.

:func:`assign_to_equilibria` assigns each point, block by block, in three stages:

1. **segment check**: the point takes the first of its ``N_CANDIDATES`` nearest SEPs whose
   segment to it keeps σ² at or below σ²(x) (+ ``tol`` × the variance scale);
2. **short flow**: the others make ``n_steps`` Armijo descent steps (or stop within
   ``capture × merge_radius`` of a SEP), then the same check runs from where they stopped,
   still against σ² at the start;
3. **fallback**: the rest flow on (:func:`flow_assign`, at most ``FALLBACK_ITER`` iterations).

A passed check puts x and its SEP in one connected part of ``{σ² ≤ σ²(x)}``, so x gets the
exact method's cluster at every level ≥ σ²(x), r* included; ``labels_at`` a lower level
may differ. Temporaries per batch stay under ``BLOCK_BYTES``. Arrays in, arrays out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..._validation import FloatArray
from ._flow import _MAX_STEP, armijo_step, flow_to_equilibria
from ._graph import segment_levels
from ._variance import VarianceFunction

#: bytes allowed for the largest per-batch temporaries of :func:`assign_to_equilibria`
#: (:func:`default_batch_size` keeps one batch under it).
BLOCK_BYTES = 64 * 2**20
#: known SEPs compared by segment checks for a point whose full flow ends elsewhere.
N_FALLBACK_SEPS = 10
#: largest number of descent iterations of the fallback flow.
FALLBACK_ITER = 100
#: largest gap between checked points on a segment, in length scales.
CHECK_SPACING = 0.125
#: nearest SEPs tried by the segment check after the short flow.
N_CANDIDATES = 4
#: largest number of points checked on a segment (``n_check_points``).
N_CHECK_POINTS = 8


@dataclass
class Assignment:
    """Result of :func:`assign_to_equilibria`.

    Attributes
    ----------
    basins : ndarray of shape (n_points,)
        Index of the SEP (row of ``equilibria``) each point is assigned to.
    n_fallback : int
        Points that failed the basin check and were flowed to the end.

    See Also
    --------
    assign_to_equilibria : Returns it (its example shows one).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import Assignment
    >>> out = Assignment(basins=np.array([0, 1, 1]), n_fallback=0)
    >>> np.bincount(out.basins)  # points per SEP
    array([1, 2])
    """

    basins: NDArray[np.intp]
    n_fallback: int


def default_batch_size(n_landmarks: int, n_equilibria: int, n_check_points: int) -> int:
    """Points per batch (at least 1) so that the per-batch temporaries stay under
    ``BLOCK_BYTES``."""
    width = max(n_landmarks, n_equilibria, 1) * (n_check_points + 1) * 8
    return int(np.clip(BLOCK_BYTES // width, 64, 16_384))


def assign_to_equilibria(
    model: VarianceFunction,
    X: FloatArray,
    equilibria: FloatArray,
    *,
    length_scale: float,
    variance_scale: float,
    n_steps: int = 10,
    n_check_points: int = N_CHECK_POINTS,
    merge_radius: float = 0.1,
    capture: float = 2.0,
    tol: float = 1e-4,
    max_iter: int = 500,
    batch_size: int | None = None,
) -> Assignment:
    """Assign every row of ``X`` to one of ``equilibria`` (short flow, basin check, fallback).

    Parameters
    ----------
    model : GPVarianceModel or InducingVarianceModel
        Anything with ``variance(Q)`` and ``value_and_gradient(Q)``.
    X : ndarray of shape (n_points, n_features)
        Points to assign (not modified).
    equilibria : ndarray of shape (n_equilibria, n_features)
        The known SEPs (at least one).
    length_scale, variance_scale : float
        Units of distance and of σ², as in :func:`~._flow.flow_to_equilibria`.
    n_steps : int, default=10
        Descent steps of the short flow.
    n_check_points : int, default=8
        Largest number of points checked on a segment from a point (or the end of its short
        flow) to a SEP: one every ``CHECK_SPACING`` length scales, the SEP included.
    merge_radius, capture : float
        A point within ``capture · merge_radius`` length scales of a SEP takes it.
    tol : float
        Slack of the segment check (× ``variance_scale``) and convergence of the fallback flow.
    max_iter : int
        Iterations of the fallback flow (at most ``FALLBACK_ITER``).
    batch_size : int, default=None
        Points per batch (None: as many as keep its temporaries under 64 MiB).

    Returns
    -------
    Assignment

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import assign_to_equilibria, fit_variance_model
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> seps = np.array([[0.1, 0.13], [3.1, 2.97]])  # the SEPs of this landscape
    >>> new = np.array([[0.05, 0.05], [3.05, 3.0]])
    >>> assign_to_equilibria(model, new, seps, length_scale=1.0, variance_scale=1.3).basins
    array([0, 1])
    """
    S = np.asarray(equilibria, dtype=np.float64)
    p = S.shape[0]
    n = X.shape[0]
    U = getattr(model, "U", None)  # the inducing points: each kernel row is m wide
    m = int(U.shape[0]) if U is not None else p
    b = batch_size or default_batch_size(m, p, n_check_points)
    basins = np.empty(n, dtype=np.intp)
    failed: list[NDArray[np.intp]] = []
    sq_S = np.einsum("ij,ij->i", S, S)
    k = min(N_CANDIDATES, p)
    slack = tol * variance_scale
    spacing = CHECK_SPACING * length_scale
    for s in range(0, n, b):
        xb = X[s : s + b]
        bound = model.variance(xb) + slack
        # 1. the segment check from the starting point itself (most points pass: no flow)
        todo = _check(model, xb, S, sq_S, bound, k, n_check_points, basins[s : s + b],
                      np.arange(xb.shape[0]), spacing)
        if todo.size == 0:
            continue
        # 2. short flow of the others, then the segment check from where they stopped
        z, _, done = _short_flow(model, xb[todo], S, sq_S, length_scale=length_scale,
                                 n_steps=n_steps, radius=capture * merge_radius * length_scale)
        zb = np.empty_like(xb)
        zb[todo] = z
        todo = _check(model, zb, S, sq_S, bound, k, n_check_points, basins[s : s + b],
                      todo, spacing, captured=done)
        failed.append(s + todo)
    bad = np.concatenate(failed) if failed else np.empty(0, dtype=np.intp)
    for s in range(0, bad.size, b):
        part = bad[s : s + b]
        basins[part] = flow_assign(model, X[part], S, length_scale=length_scale,
                                   variance_scale=variance_scale, tol=tol,
                                   max_iter=min(max_iter, FALLBACK_ITER),
                                   merge_radius=merge_radius, capture=capture,
                                   n_points=max(n_check_points, 2), n_nearest=N_FALLBACK_SEPS)
    return Assignment(basins=basins, n_fallback=int(bad.size))


def _check(
    model: VarianceFunction,
    Z: FloatArray,
    S: FloatArray,
    sq_S: FloatArray,
    bound: FloatArray,
    k: int,
    n_check_points: int,
    out: NDArray[np.intp],
    todo: NDArray[np.intp],
    spacing: float,
    captured: NDArray[np.bool_] | None = None,
) -> NDArray[np.intp]:
    """Segment checks of ``Z[todo]`` against its ``k`` nearest SEPs, nearest first.

    Writes the SEP of every point that passes (or is ``captured``) into ``out``; returns the
    points that failed every check.
    """
    p = S.shape[0]
    z = Z[todo]
    d2 = sq_S[None, :] - 2.0 * (z @ S.T)
    if k < p:
        cand = np.argpartition(d2, k - 1, axis=1)[:, :k]
    else:
        cand = np.tile(np.arange(p), (z.shape[0], 1))
    cand = np.take_along_axis(cand, np.argsort(np.take_along_axis(d2, cand, 1), 1), 1)
    out[todo] = cand[:, 0]
    left = np.arange(todo.size) if captured is None else np.flatnonzero(~captured)
    for c in range(k):
        if left.size == 0:
            break
        ok = _below(model, z[left], S[cand[left, c]], bound[todo[left]], n_check_points,
                    spacing)
        out[todo[left[ok]]] = cand[left[ok], c]
        left = left[~ok]
    return todo[left]


def _short_flow(
    model: VarianceFunction,
    X0: FloatArray,
    S: FloatArray,
    sq_S: FloatArray,
    *,
    length_scale: float,
    n_steps: int,
    radius: float,
) -> tuple[FloatArray, FloatArray, NDArray[np.bool_]]:
    """``n_steps`` batched Armijo steps: end points, σ² at the *start* and the captured mask."""
    x = np.array(X0, dtype=np.float64, copy=True)
    f, g = model.value_and_gradient(x)
    f0 = f.copy()
    gnorm = np.linalg.norm(g, axis=1)
    max_step = _MAX_STEP * length_scale
    t = max_step / np.maximum(gnorm, 1e-300)
    done = np.zeros(x.shape[0], dtype=bool)
    for _ in range(n_steps):
        idx = np.flatnonzero(~done)
        if idx.size == 0:
            break
        xi = x[idx]
        d2 = np.einsum("ij,ij->i", xi, xi)[:, None] - 2.0 * (xi @ S.T) + sq_S[None, :]
        near = d2.min(axis=1) <= radius**2
        done[idx[near]] = True
        idx = idx[~near & (gnorm[idx] > 0)]
        if idx.size == 0:
            break
        armijo_step(model, x, f, g, gnorm, t, idx, max_step)
    return x, f0, done


def _below(
    model: VarianceFunction,
    Z: FloatArray,
    T: FloatArray,
    bound: FloatArray,
    n_points: int,
    spacing: float,
) -> NDArray[np.bool_]:
    """Whether σ² on the segment from each ``Z[i]`` to ``T[i]`` stays ≤ ``bound[i]``,
    checked at ``ceil(length / spacing)`` points (far end included, at most ``n_points``).
    """
    length = np.linalg.norm(T - Z, axis=1)
    need = np.clip(np.ceil(length / spacing), 1, n_points).astype(np.intp)
    ok = np.empty(Z.shape[0], dtype=bool)
    for r in np.unique(need):
        sel = np.flatnonzero(need == r)
        ts = np.arange(1, r + 1) / r  # includes the SEP itself (t = 1)
        A, D = Z[sel], T[sel] - Z[sel]
        Q = (A[:, None, :] + ts[None, :, None] * D[:, None, :]).reshape(-1, Z.shape[1])
        v = model.variance(Q).reshape(sel.size, r)
        ok[sel] = v.max(axis=1) <= bound[sel]
    return ok


def flow_assign(
    model: VarianceFunction,
    X: FloatArray,
    S: FloatArray,
    *,
    length_scale: float,
    variance_scale: float,
    tol: float,
    max_iter: int,
    merge_radius: float,
    n_points: int,
    capture: float = 2.0,
    n_nearest: int | None = None,
) -> NDArray[np.intp]:
    """The SEP (row of ``S``) of every row of ``X`` by its full flow (Corollary 1).

    A flow that stops off ``S`` takes, among its ``n_nearest`` nearest SEPs (None: all), the one
    whose segment from its end has the lowest largest σ². The exact method's ``predict`` and the
    fallback of :func:`assign_to_equilibria`."""
    p = S.shape[0]
    flow = flow_to_equilibria(
        model, X, length_scale=length_scale, variance_scale=variance_scale, tol=tol,
        max_iter=max_iter, merge_radius=merge_radius, known=S, share_new=False,
        capture=capture,
    )
    sep = flow.assignment.copy()
    new = np.flatnonzero(sep >= p)
    if new.size:
        E = flow.equilibria[sep[new]]
        if n_nearest is None or n_nearest >= p:
            cand = np.broadcast_to(np.arange(p), (new.size, p))
        else:
            sq_S = np.einsum("ij,ij->i", S, S)
            d2 = sq_S[None, :] - 2.0 * (E @ S.T)
            cand = np.argsort(d2, axis=1)[:, :n_nearest]  # (n_new, k) nearest known SEPs
        k = cand.shape[1]
        I = np.repeat(np.arange(new.size), k)
        J = new.size + cand.ravel()
        w = segment_levels(model, np.vstack([E, S]), I, J, n_points=n_points, refine=False)
        sep[new] = cand[np.arange(new.size), np.argmin(w.reshape(new.size, k), axis=1)]
    return sep
