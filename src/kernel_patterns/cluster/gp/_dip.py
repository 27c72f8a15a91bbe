"""Hartigan's dip test of one mode (Hartigan & Hartigan, "The dip test of unimodality",
Ann. Statist. 1985), the test :func:`~._unimodal.mode_count_test` asks first.

The dip is the distance from the empirical distribution function to the nearest unimodal
one, computed by Hartigan's algorithm (Applied Statistics AS 217, 1985). Its p-value comes
from uniform samples of as many values: the uniform is the least favourable unimodal
distribution for the dip, so the test is calibrated on flat densities, where Silverman's
smoothed bootstrap is liberal, and conservative on every other unimodal one. Arrays in,
arrays out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from ..._validation import FloatArray, check_matrix


def _column(values: Any, n_bootstrap: int = 1) -> FloatArray:
    column = check_matrix(values, "values", dtype=np.float64, min_samples=2, allow_1d=True)
    if column.shape[1] != 1:
        raise ValueError(f"values must be 1-D; got shape {np.shape(values)}.")
    if n_bootstrap < 1:
        raise ValueError(f"n_bootstrap must be at least 1; got {n_bootstrap}.")
    return column[:, 0]


def _hull_links(x: FloatArray) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """For every sorted value, the previous vertex of the greatest convex minorant of the
    points before it (``mn``) and the next vertex of the least concave majorant after it
    (``mj``), as in Hartigan's algorithm (indices into ``x``)."""
    n = x.size
    mn = np.zeros(n, dtype=np.intp)
    for j in range(1, n):
        mn[j] = j - 1
        while True:
            a = mn[j]
            b = mn[a]
            if a == 0 or (x[j] - x[a]) * (a - b) < (x[a] - x[b]) * (j - a):
                break
            mn[j] = b
    mj = np.full(n, n - 1, dtype=np.intp)
    for k in range(n - 2, -1, -1):
        mj[k] = k + 1
        while True:
            a = mj[k]
            b = mj[a]
            if a == n - 1 or (x[k] - x[a]) * (a - b) < (x[a] - x[b]) * (k - a):
                break
            mj[k] = b
    return mn, mj


def _largest_gap(x: FloatArray, gcm: list[int], lcm: list[int]) -> tuple[float, int, int]:
    """The largest distance (in points) between the convex minorant ``gcm`` (vertices from
    high down to low) and the concave majorant ``lcm`` (from low up to high) of ``x[low:
    high + 1]``, and the vertices of each where it is reached."""
    l_gcm, l_lcm = len(gcm) - 1, len(lcm) - 1
    ig, ih, ix, iv = l_gcm, l_lcm, l_gcm - 1, 1
    d = 0.0
    while True:
        g, c = gcm[ix], lcm[iv]
        if g > c:  # the concave vertex c lies under the convex segment ending at g
            g1 = gcm[ix + 1]
            dx = (c - g1 + 1) - (x[c] - x[g1]) * (g - g1) / (x[g] - x[g1])
            iv += 1
            if dx >= d:
                d, ig, ih = dx, ix + 1, iv - 1
        else:  # the convex vertex g lies under the concave segment starting before it
            c1 = lcm[iv - 1]
            dx = (x[g] - x[c1]) * (c - c1) / (x[c] - x[c1]) - (g - c1 - 1)
            ix -= 1
            if dx >= d:
                d, ig, ih = dx, ix + 1, iv
        ix, iv = max(ix, 0), min(iv, l_lcm)
        if gcm[ix] == lcm[iv]:
            return d, ig, ih


def _fit_distance(x: FloatArray, vertices: list[int], start: int, convex: bool) -> float:
    """The largest distance (in points) between the ECDF and the minorant (``convex``) or
    majorant through ``vertices[start:]``."""
    worst = 0.0
    for j in range(start, len(vertices) - 1):
        jb, je = (vertices[j + 1], vertices[j]) if convex else (vertices[j], vertices[j + 1])
        top = 1.0
        if je - jb > 1 and x[je] != x[jb]:
            steps = np.arange(jb, je + 1)
            along = (x[steps] - x[jb]) * ((je - jb) / (x[je] - x[jb]))
            gap = (steps - jb + 1) - along if convex else along - (steps - jb - 1)
            top = max(top, float(gap.max()))
        worst = max(worst, top)
    return worst


def dip_statistic(values: FloatArray) -> float:
    """Hartigan's dip: the distance from the empirical distribution function to the nearest
    unimodal one (Hartigan & Hartigan, "The dip test of unimodality", Ann. Statist. 1985).

    Computed by Hartigan's algorithm (Applied Statistics AS 217, 1985): the modal interval
    shrinks from the whole sample while the convex minorant left of it and the concave
    majorant right of it stay within the dip found. 0 for a sample of one value, at most
    1/4 (two equal point masses).

    Parameters
    ----------
    values : array-like of shape (n_values,)
        The sample (finite, at least two values).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import dip_statistic
    >>> dip_statistic(np.r_[np.zeros(10), np.ones(10)])
    0.25
    >>> dip_statistic(np.linspace(0, 1, 101)) < 0.01
    True
    """
    return _sorted_dip(np.sort(_column(values)))


def _sorted_dip(x: FloatArray) -> float:
    """:func:`dip_statistic` of validated values sorted ascending (no checks: the uniform
    samples of :func:`dip_test` need none)."""
    n = x.size
    if x[0] == x[-1]:
        return 0.0
    mn, mj = _hull_links(x)
    low, high = 0, n - 1
    dip = 0.0
    while True:
        gcm = [high]
        while gcm[-1] > low:
            gcm.append(int(mn[gcm[-1]]))
        lcm = [low]
        while lcm[-1] < high:
            lcm.append(int(mj[lcm[-1]]))
        if len(gcm) > 2 or len(lcm) > 2:
            d, ig, ih = _largest_gap(x, gcm, lcm)
        else:
            d, ig, ih = 0.0, len(gcm) - 1, len(lcm) - 1
        if d < dip:
            break
        dip = max(dip, _fit_distance(x, gcm, ig, True), _fit_distance(x, lcm, ih, False))
        if low == gcm[ig] and high == lcm[ih]:
            break
        low, high = gcm[ig], lcm[ih]
    return dip / (2 * n)


def dip_test(
    values: FloatArray, random_state: Any = None, n_samples: int = 200
) -> tuple[float, float]:
    """Hartigan's dip test of one mode, its p-value from uniform samples.

    The uniform is the least favourable unimodal distribution for the dip (Hartigan &
    Hartigan 1985): the p-value is the share of ``n_samples`` uniform samples of as many
    values whose dip is at least the data's (``(m + 1) / (B + 1)``). It is calibrated on
    flat densities and conservative on every other unimodal one, where Silverman's test
    (:func:`silverman_test`) is liberal on flat ones.

    Parameters
    ----------
    values : array-like of shape (n_values,)
        The sample (finite, at least two values).
    random_state : int, RandomState instance or None, default=None
        The uniform samples.
    n_samples : int, default=200
        Uniform samples.

    Returns
    -------
    dip : float
        :func:`dip_statistic` of the values.
    pvalue : float

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import dip_test
    >>> rng = np.random.RandomState(0)
    >>> bool(dip_test(rng.uniform(size=500), random_state=0)[1] > 0.05)
    True
    >>> two = np.r_[rng.normal(0, 1, 250), rng.normal(4, 1, 250)]
    >>> bool(dip_test(two, random_state=0)[1] < 0.01)
    True
    """
    values = _column(values, n_samples)
    dip = _sorted_dip(np.sort(values))
    rng = check_random_state(random_state)
    wider = sum(_sorted_dip(np.sort(rng.uniform(size=values.size))) >= dip
                for _ in range(n_samples))
    return dip, (wider + 1) / (n_samples + 1)
