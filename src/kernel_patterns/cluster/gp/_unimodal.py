"""Whether data have one mode: the tests behind the shoulder and the modes above a split.

:func:`unimodal_split_test` projects one half of the points on G-means' direction (the
difference of the two-means means of the other half; Hamerly & Elkan, NIPS 2003) and applies
Silverman's test (JRSS B 1981) with modes counted in the central 95 % (Hall & York 2001).
:func:`mode_count_test` counts the modes of one feature: one mode by Hartigan's dip test,
then k = 2, 3, ... by Silverman's test of k modes. Arrays in, arrays out.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.signal import fftconvolve
from scipy.stats import norm
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from ..._parallel import limit_threads
from ..._validation import FloatArray, check_matrix
from ._dip import TAIL, _column, _level, dip_test
from ._graph import segment_levels
from ._landscape import Landscape
from ._selection import SIGNIFICANCE

#: the fewest rows :func:`unimodal_split_test` reads: two halves of at least four points
MIN_ROWS = 8
#: bins of the kernel density estimate (binned, by FFT convolution)
GRID = 1024
#: halvings of the bandwidth interval in the search for the critical bandwidth
BISECTIONS = 24


@dataclass(frozen=True)
class UnimodalSplitTest:
    """What :func:`unimodal_split_test` returns: Silverman's ``critical_bandwidth`` of the
    held-out projections (in their standard deviations), the bootstrap ``pvalue`` (small: more
    than one mode) and the two-means ``centres`` (2, n_features), whose difference is the
    direction."""

    critical_bandwidth: float
    pvalue: float
    centres: NDArray[np.float64]


def _n_modes(values: FloatArray, bandwidth: float, inner: tuple[float, float]) -> int:
    """Modes inside ``inner`` of the binned Gaussian kernel density estimate (at least 1)."""
    pad = 5.0 * bandwidth
    lo, hi = min(values.min(), inner[0]) - pad, max(values.max(), inner[1]) + pad
    counts, edges = np.histogram(values, bins=GRID, range=(lo, hi))
    step = edges[1] - edges[0]
    half = int(min(GRID, np.ceil(pad / step)))
    kernel = np.exp(-0.5 * (np.arange(-half, half + 1) * step / bandwidth) ** 2)
    density = fftconvolve(counts.astype(np.float64), kernel, mode="same")
    rise = np.diff(density)
    rise[np.abs(rise) <= 1e-9 * density.max()] = 0.0  # FFT round-off is not a slope
    moving = np.flatnonzero(rise)
    sign = np.sign(rise[moving])
    peaks = moving[1:][(sign[:-1] > 0) & (sign[1:] < 0)]  # the bin where it turns down
    where = 0.5 * (edges[peaks] + edges[peaks + 1])
    return max(1, int(np.sum((where >= inner[0]) & (where <= inner[1]))))


def _critical_bandwidth(
    values: FloatArray, k: int, inner: tuple[float, float], lo: float, hi: float
) -> float:
    """The least bandwidth in ``[lo, hi]`` at which the estimate has at most ``k`` modes in
    ``inner``, by bisection (the count does not grow with the bandwidth).
    """
    if _n_modes(values, hi, inner) > k:  # pragma: no cover - a range-wide kernel is one bump
        return hi
    for _ in range(BISECTIONS):
        mid = float(np.sqrt(lo * hi))
        if _n_modes(values, mid, inner) > k:
            lo = mid
        else:
            hi = mid
    return hi


def _bootstrap_pvalue(
    values: FloatArray, h: float, k: int, inner: tuple[float, float],
    rng: np.random.RandomState, n_bootstrap: int,
) -> float:
    """The share of smoothed bootstrap samples (from the estimate at ``h``, rescaled to the
    data's variance) with more than ``k`` modes at ``h``: ``(m + 1) / (B + 1)``.
    """
    spread = float(values.std())
    mean, scale = values.mean(), np.sqrt(1.0 + h * h / spread**2)
    more = 0
    for _ in range(n_bootstrap):
        drawn = values[rng.randint(0, values.size, values.size)]
        sample = mean + (drawn - mean + h * rng.standard_normal(values.size)) / scale
        more += _n_modes(sample, h, inner) > k
    return (more + 1) / (n_bootstrap + 1)


def silverman_test(
    values: FloatArray, random_state: Any = None, n_bootstrap: int = 200
) -> tuple[float, float]:
    """Silverman's test of one mode, modes counted in the central 95 % (Hall & York 2001).

    Returns (critical bandwidth in the sample's standard deviations, 0 for equal values;
    p-value ``(k + 1) / (B + 1)`` of bootstrap samples ``ȳ + (y* − ȳ + h ε) / √(1 + h² / s²)``
    with more than one mode at ``h``)."""
    values = _column(values, n_bootstrap)
    spread = float(values.std())
    if spread == 0.0:
        return 0.0, 1.0
    inner = _inner(values)
    h = _critical_bandwidth(values, 1, inner, 1e-3 * spread, float(np.ptp(values)))
    pvalue = _bootstrap_pvalue(values, h, 1, inner, check_random_state(random_state),
                               n_bootstrap)
    return h / spread, pvalue


@dataclass(frozen=True)
class ModeCount:
    """What :func:`mode_count_test` returns: ``n_modes`` (the least k not rejected, or
    ``max_modes``), the ``critical_bandwidths`` for 1, 2, ... modes (in the values' units) and the
    ``pvalues`` of the tests made (the dip test's for one mode)."""

    n_modes: int
    critical_bandwidths: FloatArray
    pvalues: FloatArray


def mode_count_test(
    values: FloatArray, random_state: Any = None, alpha: float | None = None,
    max_modes: int | None = None, n_bootstrap: int = 200,
) -> ModeCount:
    """The number of modes of one feature: one by :func:`dip_test` (uniform reference), then
    k = 2, 3, ... by Silverman's test of k modes (central 95 %), up to the first k not rejected
    at ``alpha`` (None: Φ(−2)) or ``max_modes`` (None: ``√(n/2)``)."""
    values = _column(values, n_bootstrap)
    alpha = _level(alpha)
    top = max(1, int(np.sqrt(values.size / 2))) if max_modes is None else int(max_modes)
    if top < 1:
        raise ValueError(f"max_modes must be at least 1; got {max_modes}.")
    spread = float(values.std())
    if spread == 0.0:
        return ModeCount(1, np.zeros(1), np.ones(1))
    rng = check_random_state(random_state)
    inner = _inner(values)
    lo, hi = 1e-3 * spread, float(np.ptp(values))
    bandwidths: list[float] = []
    pvalues: list[float] = []
    for k in range(1, top + 1):
        hi = _critical_bandwidth(values, k, inner, lo, hi)  # h_k ≤ h_{k-1}
        bandwidths.append(hi)
        if k == 1:  # one mode: the dip, calibrated on the flattest unimodal density
            pvalues.append(dip_test(values, rng, n_bootstrap)[1])
        else:
            pvalues.append(_bootstrap_pvalue(values, hi, k, inner, rng, n_bootstrap))
        if pvalues[-1] >= alpha:
            break
    return ModeCount(n_modes=len(pvalues) if pvalues[-1] >= alpha else top,
                     critical_bandwidths=np.asarray(bandwidths),
                     pvalues=np.asarray(pvalues))


def _inner(values: FloatArray) -> tuple[float, float]:
    """The central ``1 − 2 TAIL`` of the values, where modes are counted."""
    lo, hi = np.quantile(values, [TAIL, 1.0 - TAIL])
    return float(lo), float(hi)


def unimodal_split_test(X: FloatArray, random_state: Any = None) -> UnimodalSplitTest:
    """The test that ``X`` (at least ``MIN_ROWS`` rows) has one mode along G-means' direction.

    Rows shuffled and halved; two-means (10 starts) on the first half gives the direction, and
    the second half's projections go to :func:`silverman_test`."""
    X = check_matrix(X, "X", dtype=np.float64, min_samples=MIN_ROWS)
    n = X.shape[0]
    rng = check_random_state(random_state)
    order = rng.permutation(n)
    first, second = order[: n // 2], order[n // 2:]
    km = KMeans(n_clusters=2, n_init=10, random_state=rng.randint(np.iinfo(np.int32).max))
    with limit_threads(1, "openmp"), warnings.catch_warnings():
        # one thread: faster on half a subsample; fewer than two distinct rows give equal
        # centres, whose projections are one value (p-value 1)
        warnings.simplefilter("ignore", ConvergenceWarning)
        centres = km.fit(X[first]).cluster_centers_
    h, pvalue = silverman_test(X[second] @ (centres[1] - centres[0]), rng)
    return UnimodalSplitTest(critical_bandwidth=h, pvalue=pvalue, centres=centres)


def some_group_has_two_modes(
    X: FloatArray, coarse: NDArray[np.intp], fine: NDArray[np.intp], min_size: int,
    alpha: float, random_state: Any = None,
) -> bool:
    """Whether a group of ``coarse`` that ``fine`` splits has two modes itself.

    Every group of ``coarse`` holding at least two of ``fine``'s groups of ``min_size`` rows
    (negative ``fine`` labels: noise) and at least ``MIN_ROWS`` rows is tested by
    :func:`unimodal_split_test`; yes when the least p-value is below ``alpha`` divided by the
    number tested (Bonferroni).
    """
    tested = []
    for g in np.unique(coarse):
        inside = coarse == g
        sizes = np.bincount(fine[inside & (fine >= 0)])
        if np.sum(sizes >= min_size) >= 2 and inside.sum() >= MIN_ROWS:
            tested.append(unimodal_split_test(X[inside], random_state).pvalue)
    return bool(tested) and min(tested) < alpha / len(tested)


def shoulder(X: FloatArray, fit: Landscape, n_points: int, random_state: Any) -> bool:
    """Whether ``X`` (the points that shape ``fit``) is two groups within one piece of the
    support: two modes by :func:`unimodal_split_test` at level ``norm.sf(SIGNIFICANCE)``, and
    the segment between its two means within the support (σ² ≤ r* at ``n_points`` points,
    :func:`~._graph.segment_levels`). No for fewer than ``MIN_ROWS`` points.
    """
    if X.shape[0] < MIN_ROWS:
        return False
    test = unimodal_split_test(X, random_state)
    if test.pvalue >= norm.sf(SIGNIFICANCE):
        return False
    one = np.array([0])
    level = segment_levels(fit.model, test.centres, one, one + 1, n_points=n_points,
                           refine=False)
    return bool(level[0] <= fit.r_star)
