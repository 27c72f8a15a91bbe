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
        ok = _below(model, X[todo[left]], X[y], bound[left], n_check_points, spacing)
        step[left[ok]] = y[ok]
        left = left[~ok]
    return step


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
