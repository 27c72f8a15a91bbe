"""Samples of the dip's null distribution: the uniform's, or those of a unimodal density
shaped like the data at their mode (Cheng & Hall, JRSS B 1998).

For large samples the dip's null distribution depends on the density only through
``c = |f''(m)| / f(m)³`` at its mode ``m`` (0 for a flat top). The reference of shape ``c``
is the uniform at 0, a symmetric beta below 2π, the normal at 2π and a Student t above.
Arrays in, arrays out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.signal import fftconvolve
from scipy.special import gammaln

from ..._validation import FloatArray

#: c of the normal density (any scale): the reference switches from beta to Student t here
NORMAL_C = 2.0 * np.pi
#: standard errors of f'' taken off the estimate of c (a lower bound: a flat top stays flat)
C_MARGIN = 3.0
#: bandwidths between the mode read and an end of the range: a mode at an end is a jump,
#: whose smoothed curvature is the kernel's, not the density's
EDGE = 3.0
#: the fewest degrees of freedom of the Student t reference (the peakiest one used)
MIN_DOF = 0.5
#: the least bandwidth, relative to the values' magnitude: values that differ by less are
#: round-off of one value, and a narrower kernel cannot be binned in float64
RESOLUTION = 1e-12
#: ∫ φ''(u)² du of the Gaussian kernel, in the variance of the f'' estimate
_R_PHI2 = 3.0 / (8.0 * np.sqrt(np.pi))


def beta_c(beta: float) -> float:
    """``c`` of the density ``∝ (1 − x²)^beta`` on [−1, 1] (0 for the uniform, to 2π)."""
    peak = np.exp(gammaln(beta + 1.5) - gammaln(beta + 1.0)) / np.sqrt(np.pi)
    return float(2.0 * beta / peak**2)


def student_c(dof: float) -> float:
    """``c`` of Student's t density with ``dof`` degrees of freedom (2π as dof → ∞)."""
    peak = np.exp(gammaln(0.5 * (dof + 1.0)) - gammaln(0.5 * dof)) / np.sqrt(dof * np.pi)
    return float((dof + 1.0) / (dof * peak**2))


def reference_samples(c: float, rng: np.random.RandomState, n_values: int,
                      n_samples: int) -> Iterator[FloatArray]:
    """``n_samples`` samples of ``n_values`` values, one at a time, of the reference density
    of shape constant ``c`` (uniform, beta, normal or Student t; the t never peakier than
    ``MIN_DOF`` degrees of freedom).
    """
    draw: Callable[[], Any]
    if c <= 0.0:
        draw = partial(rng.uniform, size=n_values)
    elif c < NORMAL_C * (1.0 - 1e-6):
        beta = brentq(lambda b: beta_c(b) - c, 0.0, 1e8)
        draw = partial(rng.beta, beta + 1.0, beta + 1.0, size=n_values)
    elif c <= NORMAL_C * (1.0 + 1e-6):
        draw = partial(rng.standard_normal, size=n_values)
    else:
        dof = MIN_DOF if c >= student_c(MIN_DOF) else brentq(
            lambda v: student_c(v) - c, MIN_DOF, 1e8)
        draw = partial(rng.standard_t, dof, size=n_values)
    for _ in range(n_samples):
        yield np.asarray(draw(), dtype=np.float64)  # numpy's stubs type a sized draw float


def shape_constant(values: FloatArray, rng: np.random.RandomState) -> float:
    """A cautious estimate of ``c = |f''(m)| / f(m)³`` at the mode of the values' density.

    The values are halved at random; one half's kernel density estimate (normal-reference
    bandwidth) finds the mode, at least ``EDGE`` bandwidths inside the range, and the other
    half's estimates of ``f`` and ``f''`` are read there, each way round and averaged.
    ``C_MARGIN`` standard errors are taken off ``|f''|``. 0 when the range is too short.
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    q1, q3 = np.quantile(x, [0.25, 0.75])
    spread = min(float(np.std(x, ddof=1)), (q3 - q1) / 1.349) or float(np.std(x, ddof=1))
    half = n // 2
    if not spread > 0.0 or half < 2:
        return 0.0
    # c is scale-free (f''/f³): read in units of the spread, where h⁵ cannot underflow (1-D
    # data spread below ~1e-62 divided by zero)
    x = (x - float(np.median(x))) / spread
    spread = 1.0
    h = resolved(0.9 * spread * half**-0.2, x)
    low, high = float(x.min()) + EDGE * h, float(x.max()) - EDGE * h
    if low >= high:
        return 0.0
    order = rng.permutation(n)
    halves = (x[order[:half]], x[order[half:]])
    f_at, f2_at, se2 = 0.0, 0.0, 0.0
    for finder, reader in ((0, 1), (1, 0)):
        m = _highest_point(halves[finder], h, low, high)
        u = (m - halves[reader]) / h
        phi = np.exp(-0.5 * u * u) / np.sqrt(2.0 * np.pi)
        size = halves[reader].size
        f = float(phi.sum()) / (size * h)
        f_at += 0.5 * f
        f2_at += 0.5 * float(((u * u - 1.0) * phi).sum()) / (size * h**3)
        se2 += 0.25 * f * _R_PHI2 / (size * h**5)
    bend = -f2_at - C_MARGIN * np.sqrt(se2)
    return float(max(bend, 0.0) / f_at**3) if f_at > 0.0 else 0.0


def resolved(h: float, x: FloatArray) -> float:
    """The bandwidth ``h``, at least ``RESOLUTION`` times the values' magnitude."""
    return max(h, RESOLUTION * float(np.max(np.abs(x))))


def binned_density(x: FloatArray, h: float, low: float, high: float, bins: int,
                   reach: float) -> tuple[FloatArray, FloatArray]:
    """The unnormalised Gaussian kernel density estimate of ``x`` at the centres of ``bins``
    equal bins over [low, high] (FFT, kernel cut at ``reach`` bandwidths): centres, estimate.
    """
    counts, edges = np.histogram(x, bins=bins, range=(low, high))
    step = edges[1] - edges[0]
    half = int(min(bins, np.ceil(reach * h / step)))
    kernel = np.exp(-0.5 * (np.arange(-half, half + 1) * step / h) ** 2)
    density = fftconvolve(counts.astype(np.float64), kernel, mode="same")
    return 0.5 * (edges[:-1] + edges[1:]), density


def _highest_point(x: FloatArray, h: float, low: float, high: float) -> float:
    """The highest point in [low, high] of the kernel density estimate of ``x`` (bandwidth
    ``h``), binned at about h / 4 (at most 2¹⁶ bins).
    """
    lo, hi = float(x.min()) - 4.0 * h, float(x.max()) + 4.0 * h
    bins = int(min(2**16, max(256, np.ceil(4.0 * (hi - lo) / h))))
    centres, density = binned_density(x, h, lo, hi, bins, 4.0)
    inside = np.flatnonzero((centres >= low) & (centres <= high))
    if inside.size == 0:
        return 0.5 * (low + high)
    return float(centres[inside[np.argmax(density[inside])]])
