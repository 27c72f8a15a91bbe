"""Training points assigned by steps to lower training points (``approximation="inducing"``).

Every training point outside the subsample steps to a lower training point by a checked
segment (:func:`step_to_lower_neighbours`) and takes the SEP its steps end at
(:func:`follow_steps`); the rest go to :func:`~._assign.assign_to_equilibria`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from sklearn.neighbors import NearestNeighbors

from ..._validation import FloatArray
from ._assign import CHECK_SPACING, N_CANDIDATES, N_CHECK_POINTS, _below
from ._variance import VarianceFunction

#: nearest training points searched for a lower one to step to
#: (:func:`step_to_lower_neighbours`).
N_NEIGHBOURS = 8
#: points whose steps are looked for at once (:func:`step_to_lower_neighbours`).
STEP_BLOCK = 2**14
#: most features for which the training points step to each other (scikit-learn's bound
#: for a tree search in ``NearestNeighbors``).
TREE_MAX_FEATURES = 15
#: a segment's far end, a lower training point, passes its check unevaluated when its known
#: σ² is this many prior variances κ under the bound (round-off of σ² is far smaller)
_END_MARGIN = 1e-9


def step_to_lower_neighbours(
    model: VarianceFunction,
    X: FloatArray,
    variance: FloatArray,
    todo: NDArray[np.intp],
    neighbours: NearestNeighbors,
    *,
    length_scale: float,
    variance_scale: float,
    tol: float,
    n_check_points: int = N_CHECK_POINTS,
) -> NDArray[np.intp]:
    """For every point ``X[todo]``, a lower training point it reaches by a checked segment
    (-1 where there is none).

    Of its ``N_NEIGHBOURS`` nearest rows of ``X``, those lower than it (by σ², then index: no
    cycles) are tried nearest first, at most ``N_CANDIDATES``; the first whose segment keeps
    σ² at most the point's own plus ``tol × variance_scale`` is its step.

    Parameters
    ----------
    model : VarianceFunction
        The landscape.
    X : ndarray of shape (n_samples, n_features)
        The training points.
    variance : ndarray of shape (n_samples,)
        σ² at every training point.
    todo : ndarray of int
        The points that need a step.
    neighbours : sklearn.neighbors.NearestNeighbors
        Fitted on ``X``.
    length_scale, variance_scale, tol : float
        As in :func:`~._assign.assign_to_equilibria`.
    n_check_points : int, default=8
        As in :func:`~._assign.assign_to_equilibria`.

    Returns
    -------
    ndarray of shape (todo.size,)
        The row of ``X`` each point steps to, or -1.
    """
    step = np.full(todo.size, -1, dtype=np.intp)
    for s in range(0, todo.size, STEP_BLOCK):  # the checked points: block × 8 × d numbers
        step[s : s + STEP_BLOCK] = _steps(model, X, variance, todo[s : s + STEP_BLOCK],
                                          neighbours, tol * variance_scale,
                                          CHECK_SPACING * length_scale, n_check_points)
    return step


def _steps(model: VarianceFunction, X: FloatArray, variance: FloatArray,
           todo: NDArray[np.intp], neighbours: NearestNeighbors, slack: float, spacing: float,
           n_check_points: int) -> NDArray[np.intp]:
    """:func:`step_to_lower_neighbours` for one block of points."""
    step = np.full(todo.size, -1, dtype=np.intp)
    k = min(N_NEIGHBOURS + 1, X.shape[0])  # the point itself is among them
    dist, nb = neighbours.kneighbors(X[todo], n_neighbors=k)
    v = variance[todo][:, None]
    lower = (variance[nb] < v) | ((variance[nb] == v) & (nb < todo[:, None]))
    dist = np.where(lower, dist, np.inf)
    order = np.argsort(dist, axis=1, kind="stable")
    bound = variance[todo] + slack
    left = np.arange(todo.size)
    for c in range(min(N_CANDIDATES, k)):
        left = left[np.isfinite(dist[left, order[left, c]])]
        if left.size == 0:
            break
        y = nb[left, order[left, c]]
        ok = _below_to_lower(model, X[todo[left]], X[y], variance[y], bound[left],
                             n_check_points, spacing)
        step[left[ok]] = y[ok]
        left = left[~ok]
    return step


def _below_to_lower(model: VarianceFunction, Z: FloatArray, T: FloatArray, vT: FloatArray,
                    bound: FloatArray, n_points: int, spacing: float) -> NDArray[np.bool_]:
    """:func:`~._assign._below` for segments that end at a training point ``T[i]`` whose
    σ², ``vT[i]``, is known: the points of each segment but its far end are evaluated.

    The far end is the last checked point of a segment (``t = 1``, and the only one of a
    segment shorter than the spacing), and it is lower than the start, so under the bound
    with the slack to spare: its check passes without evaluating σ² there again. Where the
    known σ² is within ``_END_MARGIN`` × κ of the bound (no slack, ``tol=0``), round-off could
    decide, and the segment is checked as :func:`~._assign._below` checks it. The other
    points are those of ``_below`` (a segment's count of points alike), so are the answers
    (all 91 ``bench_auto`` sets: ``benchmarks/check_gp_unchanged.py``), from about half the
    σ² evaluations (14,686 → 6,762 on 10,000 moons: ``benchmarks/results/gp_speed.md``).
    """
    ok = np.empty(Z.shape[0], dtype=bool)
    kappa = np.asarray(model.kernel.pairwise_diag(T), dtype=np.float64)
    known = vT + _END_MARGIN * np.abs(kappa) <= bound
    if not known.all():
        rest = np.flatnonzero(~known)
        ok[rest] = _below(model, Z[rest], T[rest], bound[rest], n_points, spacing)
    sel_known = np.flatnonzero(known)
    Z, T, bound = Z[sel_known], T[sel_known], bound[sel_known]
    # the counts of points of _below: ceil(length / spacing), 1 to n_points
    length = np.linalg.norm(T - Z, axis=1)
    need = np.clip(np.ceil(length / spacing), 1, n_points).astype(np.intp)
    done = np.ones(sel_known.size, dtype=bool)
    for r in np.unique(need):
        if r == 1:
            continue  # the far end alone: known
        sel = np.flatnonzero(need == r)
        ts = np.arange(1, r) / r  # the far end (t = 1) left out
        A, D = Z[sel], T[sel] - Z[sel]
        Q = (A[:, None, :] + ts[None, :, None] * D[:, None, :]).reshape(-1, Z.shape[1])
        v = model.variance(Q).reshape(sel.size, r - 1)
        done[sel] = v.max(axis=1) <= bound[sel]
    ok[sel_known] = done
    return ok


def follow_steps(step: NDArray[np.intp], basins: NDArray[np.intp]) -> NDArray[np.intp]:
    """The SEP of every point: its own (``basins``, -1 where unknown), or that of the point
    its steps (``step``, -1: none) end at.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._steps import follow_steps
    >>> follow_steps(np.array([-1, 0, 1, -1]), np.array([5, -1, -1, 7]))
    array([5, 5, 5, 7])
    """
    root = np.where(step >= 0, step, np.arange(step.size))
    while True:  # pointer jumping: the paths halve at every pass
        nxt = root[root]
        if np.array_equal(nxt, root):
            break
        root = nxt
    out = basins[root]
    if np.any(out < 0):
        raise RuntimeError("a step path ends at a point whose SEP is unknown")
    return out
