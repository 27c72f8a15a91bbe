"""Hartigan's dip test of one mode, and the division of one feature into parts of one mode.

The dip (Hartigan & Hartigan, Ann. Statist. 1985; algorithm AS 217) gets its p-value from
samples of a unimodal reference density: the uniform, or one shaped like the data at their
mode (:mod:`._dip_null`). :func:`dip_partition` cuts a sample until every part has one mode,
as dip-means does (Kalogeratos & Likas, NIPS 2012). Arrays in, arrays out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.stats import norm
from sklearn.utils import check_random_state

from ..._validation import FloatArray, check_matrix
from ._dip_null import binned_density, reference_samples, resolved, shape_constant
from ._selection import SIGNIFICANCE

#: the share of the values left out at each end where Silverman's tests count modes and
#: where two-means places a cut (Hall & York 2001: an outlier is a mode of its own)
TAIL = 0.025
#: bins of the kernel density estimate whose lowest point between two means is the cut
CUT_GRID = 512
#: the reference densities of the dip test's p-value (:func:`dip_test`)
CALIBRATIONS = ("uniform", "shape")


def _column(values: Any, n_draws: int = 1, name: str = "n_bootstrap") -> FloatArray:
    """The validated 1-D values of a test; ``n_draws`` is its parameter ``name``."""
    column = check_matrix(values, "values", dtype=np.float64, min_samples=2, allow_1d=True)
    if column.shape[1] != 1:
        raise ValueError(f"values must be 1-D; got shape {np.shape(values)}.")
    if n_draws < 1:
        raise ValueError(f"{name} must be at least 1; got {n_draws}.")
    return column[:, 0]


def _level(alpha: float | None) -> float:
    """The level of a test: ``alpha``, or Φ(−2) (0.023) for None."""
    alpha = float(norm.sf(SIGNIFICANCE)) if alpha is None else float(alpha)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}.")
    return alpha


def _hull_links(x: FloatArray) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """For every sorted value, the previous vertex of the greatest convex minorant before it
    (``mn``) and the next vertex of the least concave majorant after it (``mj``), as indices.
    """
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
    """The largest distance (in points) between the convex minorant ``gcm`` (vertices high to
    low) and the concave majorant ``lcm`` (low to high), and the vertices where it is reached.
    """
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
    majorant through ``vertices[start:]``.
    """
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
    """Hartigan's dip (AS 217): the distance from the empirical distribution function of
    ``values`` (finite, at least two) to the nearest unimodal one; 0 for one value, at most 1/4."""
    return _sorted_dip(np.sort(_column(values)))


def _sorted_dip(x: FloatArray) -> float:
    """:func:`dip_statistic` of validated values sorted ascending (no checks)."""
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
    values: FloatArray, random_state: Any = None, n_samples: int = 200,
    calibration: str = "uniform",
) -> tuple[float, float]:
    """Hartigan's dip test of one mode: (dip, p-value ``(m + 1) / (B + 1)``), ``m`` of the
    ``B = n_samples`` reference samples with a dip at least the data's. ``calibration``
    ``"uniform"``: the least favourable unimodal reference; ``"shape"``: a symmetric density with
    the data's ``|f''(m)| / f(m)³`` at the mode, estimated on halves (Cheng & Hall 1998)."""
    values = _column(values, n_samples, "n_samples")
    _check_calibration(calibration)
    x = np.sort(values)
    dip = _sorted_dip(x)
    rng = check_random_state(random_state)
    c = shape_constant(x, rng) if calibration == "shape" else 0.0
    wider = sum(_sorted_dip(np.sort(sample)) >= dip
                for sample in reference_samples(c, rng, x.size, n_samples))
    return dip, (wider + 1) / (n_samples + 1)


def _check_calibration(calibration: str) -> None:
    if calibration not in CALIBRATIONS:
        raise ValueError(f"calibration must be one of {CALIBRATIONS}; got {calibration!r}.")


@dataclass(frozen=True)
class DipPartition:
    """What :func:`dip_partition` returns: the ``cuts`` between the parts, ascending (part i
    holds ``cuts[i - 1] < v <= cuts[i]``), and the ``pvalues`` of the parts tested, whole first."""

    cuts: FloatArray
    pvalues: FloatArray

    @property
    def n_modes(self) -> int:
        """The number of parts, each of one mode by the dip test."""
        return int(self.cuts.size) + 1


def dip_partition(
    values: FloatArray, random_state: Any = None, alpha: float | None = None,
    min_size: int = 8, n_samples: int = 200, n_parts: int | None = None,
    calibration: str = "shape",
) -> DipPartition:
    """Divide one feature into parts of one mode each by the dip test (as dip-means does).

    A part that :func:`dip_test` rejects at ``alpha`` (None: Φ(−2)) is cut at its density's valley
    between the two means of its central 95 %, and each side tested again; parts below
    ``2 * min_size`` are not tested. With ``n_parts`` no test: the largest ``√n · dip`` is cut
    until there are ``n_parts``."""
    values = _column(values, n_samples, "n_samples")
    alpha = _level(alpha)
    _check_calibration(calibration)
    if int(min_size) != min_size or min_size < 1:
        raise ValueError(f"min_size must be a positive integer; got {min_size}.")
    if n_parts is not None and (int(n_parts) != n_parts or n_parts < 1):
        raise ValueError(f"n_parts must be a positive integer; got {n_parts}.")
    if n_parts is not None:
        return DipPartition(cuts=_cut_into(np.sort(values), int(n_parts), min_size),
                            pvalues=np.zeros(0))
    rng = check_random_state(random_state)
    cuts: list[float] = []
    pvalues: list[float] = []
    parts = [np.sort(values)]
    while parts:
        part = parts.pop()
        if part.size < 2 * min_size or part[0] == part[-1]:
            continue
        pvalues.append(dip_test(part, rng, n_samples, calibration)[1])
        if pvalues[-1] >= alpha:
            continue
        sides = _cut(part, min_size)
        if sides is None:
            continue
        cuts.append(sides[0])
        parts += [sides[2], sides[1]]
    return DipPartition(cuts=np.sort(np.asarray(cuts, dtype=np.float64)),
                        pvalues=np.asarray(pvalues, dtype=np.float64))


def _cut(part: FloatArray, min_size: int) -> tuple[float, FloatArray, FloatArray] | None:
    """The cut of sorted ``part`` at its valley and the two sides; None if a side would
    hold fewer than ``min_size`` values.
    """
    cut = _antimode(part, TAIL)
    j = int(np.searchsorted(part, cut, side="right"))
    if min(j, part.size - j) < min_size:
        return None
    return cut, part[:j], part[j:]


def _cut_into(values: FloatArray, n_parts: int, min_size: int) -> FloatArray:
    """The cuts of sorted ``values`` into ``n_parts`` parts, largest ``√n · dip`` first."""
    cuts: list[float] = []
    parts = [values]
    while len(parts) < n_parts:
        dips = [np.sqrt(part.size) * _sorted_dip(part) if part.size >= 2 * min_size else -1.0
                for part in parts]
        sides = None
        for i in np.argsort(dips)[::-1]:
            if dips[i] < 0.0:
                break
            sides = _cut(parts[i], min_size)
            if sides is not None:
                break
        if sides is None:
            break
        cuts.append(sides[0])
        parts[int(i)] = sides[1]
        parts.append(sides[2])
    return np.sort(np.asarray(cuts, dtype=np.float64))


def _two_means(x: FloatArray) -> int:
    """The split ``x[:j]``, ``x[j:]`` of sorted values with the least within-group sum of
    squares (exact two-means on a line); returns ``j``.
    """
    n = x.size
    shifted = x - x.mean()  # the sums of squares by prefix sums lose less precision
    s1, s2 = np.cumsum(shifted), np.cumsum(shifted * shifted)
    left = np.arange(1, n)
    within = (s2[left - 1] - s1[left - 1] ** 2 / left
              + (s2[-1] - s2[left - 1]) - (s1[-1] - s1[left - 1]) ** 2 / (n - left))
    return int(np.argmin(within)) + 1


def _antimode(x: FloatArray, tail: float) -> float:
    """The lowest point of the Gaussian kernel density estimate of sorted ``x`` between
    the two-means means of its central ``1 − 2 tail`` (bandwidth ``0.9 s n^(-1/5)``, ``s`` the
    pooled within-group deviation).
    """
    lo, hi = int(np.floor(tail * x.size)), int(np.ceil((1.0 - tail) * x.size))
    core = x[lo:hi] if hi - lo >= 2 and x[lo] < x[hi - 1] else x
    j = _two_means(core)
    a, b = core[:j], core[j:]
    m1, m2 = float(a.mean()), float(b.mean())
    spread = np.sqrt((np.sum((a - m1) ** 2) + np.sum((b - m2) ** 2)) / core.size)
    h = 0.9 * spread * core.size ** -0.2
    if not h > 0.0:  # two point masses: halfway
        return 0.5 * (float(a[-1]) + float(b[0]))
    h = resolved(h, x)
    centres, density = binned_density(x, h, m1 - 5.0 * h, m2 + 5.0 * h, CUT_GRID, 5.0)
    between = np.flatnonzero((centres >= m1) & (centres <= m2))
    if between.size == 0:  # the means within one bin
        return 0.5 * (m1 + m2)
    low = density[between]
    # within an empty gap the estimate is flat (FFT round-off): its middle
    lowest = between[low <= low.min() + 1e-9 * density.max()]
    return float(centres[lowest[lowest.size // 2]])
