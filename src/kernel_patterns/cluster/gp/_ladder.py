"""The one ladder of length scales that ``kernel=None`` climbs.

Both readings of a landscape without a kernel try several length scales, factors of the
data-driven ℓ₀ (:func:`~._kernel.auto_length_scale`): the count of clusters
(:func:`~._readings.auto_partition`) reads the rungs around ℓ₀, the ``n_clusters`` search
(:func:`~._solver.gp_landscape`) shrinks ℓ from ℓ₀ down. :class:`Ladder` is the rungs they
share: one factor list (:data:`FACTORS`), every landscape fitted once and read into groups
of SEPs by the caller's rule, the training points' basins assigned once, and the rung above
one asked for (and not started before) fitted meanwhile on a thread pool when one is given
(:func:`ladder_pool`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np
from numpy.typing import NDArray

from ..._parallel import cancelled_by, single_blas_thread, usable_threads
from ..._validation import FloatArray
from ._kernel import kernel_at
from ._landscape import FlowOptions, InducingPlan, Landscape, Rung, fit_landscape, landscape_basins

#: the rungs, as factors of the data-driven ℓ₀: √2 steps from ℓ₀/4 to 4 ℓ₀, two octaves
#: each side.
FACTORS = tuple(2.0 ** (k / 2) for k in range(-4, 5))
#: landscapes of the ladder fitted at once (threads; at most the usable cores).
LADDER_THREADS = 2

#: how a rung's landscape is read: its groups of SEPs, how many are large, the level.
Reader = Callable[[Landscape], tuple[NDArray[np.intp], int, float]]


def factors_between(low: float, high: float) -> list[float]:
    """The factors of :data:`FACTORS` from ``low`` to ``high`` (both included), in the
    order of the bounds: ascending when ``low <= high``, else descending.

    Examples
    --------
    >>> from kernel_patterns.cluster.gp._ladder import factors_between
    >>> [round(f, 3) for f in factors_between(1.0, 0.5)]
    [1.0, 0.707, 0.5]
    """
    lo, hi = min(low, high), max(low, high)
    inside = [f for f in FACTORS if lo <= f <= hi]
    return inside if low <= high else inside[::-1]


def step_up(factor: float) -> float:
    """The next factor of :data:`FACTORS` above ``factor`` (``factor`` at the top)."""
    return min((f for f in FACTORS if f > factor), default=factor)


class LadderPool(ThreadPoolExecutor):
    """The threads of a ladder's fits, with the event set when the ladder is done
    (``closing``): a rung fitted ahead of need stops at its next variance evaluation
    (:func:`~kernel_patterns._parallel.cancelled_by`)."""

    def __init__(self, n_threads: int) -> None:
        super().__init__(n_threads)
        self.closing = threading.Event()


@contextmanager
def ladder_pool() -> Iterator[LadderPool | None]:
    """A pool of ``LADDER_THREADS`` threads (at most the usable cores) for a ladder's fits,
    each on one BLAS thread (set once for the whole ladder, so that the fits' own
    one-thread sections never race); None on one core. A rung started and not needed is
    cancelled on exit: one not begun is dropped, one being fitted stops."""
    n_threads = min(LADDER_THREADS, usable_threads())
    if n_threads == 1:
        yield None
        return
    with single_blas_thread(), LadderPool(n_threads) as pool:
        try:
            yield pool
        finally:
            pool.closing.set()
            pool.shutdown(wait=True, cancel_futures=True)


class Ladder:
    """The landscapes at factors of ℓ₀, each fitted once and read by ``read``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training points.
    ell0 : float
        The data-driven ℓ₀ (:func:`~._kernel.auto_length_scale` of the points that shape
        the landscape: all, or the inducing subsample).
    opts : FlowOptions
    plan : InducingPlan or None
    read : callable
        A landscape's groups of SEPs, the number of large ones and the level of the cut.
    pool : LadderPool or None, default=None
        Fits rungs ahead of need (:func:`ladder_pool`); None: each when asked for.
    """

    def __init__(self, X: FloatArray, ell0: float, opts: FlowOptions,
                 plan: InducingPlan | None, read: Reader,
                 pool: LadderPool | None = None) -> None:
        self._X, self._opts, self._plan = X, opts, plan
        #: the data-driven ℓ₀ every rung is a factor of
        self.ell0 = ell0
        self._read, self._pool = read, pool
        self._made: dict[float, Future[Rung]] = {}
        self.done: dict[float, Rung] = {}
        self._basins: dict[float, NDArray[np.intp]] = {}

    def _fit(self, factor: float) -> Rung:
        ell = factor * self.ell0
        plan = None if self._plan is None else self._plan.at_length_scale(self._X, ell)
        fit = fit_landscape(kernel_at(ell), self._X, self._opts, plan)
        return Rung(fit, *self._read(fit))

    def _fit_ahead(self, closing: threading.Event, factor: float) -> Rung:
        """:meth:`_fit` on the pool, stopped when the ladder is done (``closing``)."""
        with cancelled_by(closing):
            return self._fit(factor)

    def start(self, factor: float) -> None:
        """Fit the rung at ``factor`` on the pool, ahead of need (nothing without one)."""
        if self._pool is not None and factor not in self._made and factor not in self.done:
            self._made[factor] = self._pool.submit(self._fit_ahead, self._pool.closing, factor)

    def rung(self, factor: float) -> Rung:
        """The rung at ``factor``; when it was not started before, the one above it is
        started meanwhile (the readings climb: it is usually read next).

        A rung started ahead of need starts none itself: on the toy grid at 10,000 points
        7 of 8 fits read ℓ₀ and √2 ℓ₀ only, and a rung at 2 ℓ₀ started when √2 ℓ₀ was read
        took a core from the basins' assignment, to be cancelled or dropped unread
        (``benchmarks/results/gp_speed.md``).
        """
        if factor not in self.done:
            ahead = factor in self._made
            self.start(factor)
            if not ahead:
                self.start(step_up(factor))
            made = self._made.get(factor)
            self.done[factor] = made.result() if made is not None else self._fit(factor)
        return self.done[factor]

    def basins(self, factor: float) -> NDArray[np.intp]:
        """The SEP of every training point in the rung at ``factor``, assigned once."""
        if factor not in self._basins:
            self._basins[factor] = landscape_basins(self.rung(factor).fit, self._X,
                                                    self._opts, self._pool)
        return self._basins[factor]
