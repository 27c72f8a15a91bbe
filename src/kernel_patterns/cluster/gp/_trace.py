"""Why ``GPClustering()`` found its count: :class:`GPCountTrace`, the landscapes read on the
ladder of length scales, the reading kept and the reason in one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..._validation import FloatArray

if TYPE_CHECKING:
    from ._dip import DipPartition


def pandas_module() -> Any:
    """pandas, for ``to_pandas()`` (an ImportError naming the extra without it)."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is in the "data" extra
        raise ImportError(
            "to_pandas() needs pandas: pip install 'kernel_patterns[data]'."
        ) from exc
    return pd


#: every step of the count rule (:func:`~._readings.auto_partition`) that can decide, in
#: its order, and the sentence it gives: ``{ell}`` the length scale kept, ``{a}`` the
#: agreement (ARI) the step compared, ``{k}`` the count, ``{n}`` the length scales read.
DECISIONS = {
    "mass": "the clusters of greatest excess of mass at length scale {ell}, each split deeper "
            "than the noise of the effective count, and the same clusters at the "
            "neighbouring length scale (agreement {a})",
    "mass, longer": "the clusters of greatest excess of mass at length scale {ell}, which "
                    "splits what the data-driven length scale does not, the same clusters "
                    "at the next length scale (agreement {a}), each joined to its neighbour "
                    "inside the support",
    "modes split a cluster": "the basins at length scale {ell}: they split a cluster of the "
                             "excess of mass that has two modes",
    "mass = modes": "the clusters of greatest excess of mass at length scale {ell} are its "
                    "basins, and the basins at the next length scale are the same clusters "
                    "(agreement {a})",
    "support": "the support of the variance at length scale {ell} is {k} pieces, each apart "
               "by more than the noise of the effective count",
    "modes below the support": "the basins at length scale {ell}, which agree more with the "
                               "basins one step shorter (agreement {a}) than with the "
                               "pieces of the support one step longer",
    "stable modes": "the basins at length scale {ell}, the same clusters at the next length "
                    "scale (agreement {a})",
    "mass, unstable": "the clusters of greatest excess of mass at length scale {ell}, each "
                      "split deeper than the noise of the effective count; no reading was "
                      "the same at two length scales",
    "mass, shorter": "the clusters of greatest excess of mass at length scale {ell}, the "
                     "same clusters one step shorter (agreement {a})",
    "family-wise": "a split of the variance's tree at length scale {ell} clears the noise "
                   "test for all its splits at once, so the data are not one group: the "
                   "clusters of greatest excess of mass below the whole",
    "shoulder": "two groups within one piece of the support (a shoulder); the basins of the "
                "two neighbouring length scales that agree best, at {ell} (agreement {a})",
    "modes stay": "the basins at length scale {ell}, the same clusters at the next length "
                  "scale (agreement {a}), where no shorter length scale's reading was stable",
    "one": "the support of the variance at length scale {ell} is one piece, and no reading "
           "of the {n} length scales read is stable",
}


@dataclass(frozen=True)
class GPCountTrace:
    """Why ``GPClustering()`` found the clusters it found: the ladder it read.

    With ``kernel=None`` and neither ``level`` nor ``n_clusters``, the count comes from
    landscapes fitted at several multiples of the data-driven length scale ℓ₀
    (:func:`~kernel_patterns.cluster.gp.auto_length_scale`). The trace lists every landscape
    read and the reading kept, so that a count that surprises can be checked and a length
    scale or ``n_clusters`` chosen from it.

    Attributes
    ----------
    factors : ndarray of shape (n_read,)
        The length scales read, as multiples of ℓ₀, ascending.
    length_scales : ndarray of shape (n_read,)
        The same in the units of the (transformed) features.
    n_modes : ndarray of shape (n_read,)
        Modes at each length scale.
    agreement : ndarray of shape (n_read,)
        Adjusted Rand index of each length scale's reading with the next one's; NaN where
        the two were not compared. A reading is stable where the count is the same and the
        agreement at least 0.9.
    reading : {"excess of mass", "modes", "support", "modes on the line"}
        The reading kept: the clusters of greatest excess of mass, stable modes, the support
        at ℓ₀, or, for data on a line, the parts of one mode each by Hartigan's dip test
        (``mode_test``).
    factor : float
        The multiple of ℓ₀ of the landscape kept.
    mode_test : DipPartition or None
        Data on a line: the partition that gave the count (its ``cuts`` and the ``pvalues``
        of the parts tested); None otherwise.
    line_axis : ndarray of shape (n_features,) or None
        Data on a line: its unit direction in the input's units (``[1.]`` for one feature);
        the cuts of ``mode_test`` are values of ``X @ line_axis``. None otherwise.
    n_clusters : int
        The clusters the fit found (-1: not recorded).
    deepest_split : float
        How deep the deepest split inside a fitted cluster is, in Poisson standard
        deviations of the effective count
        (:meth:`~kernel_patterns.cluster.gp.CondensedTree.deepest_split`); NaN when none.
    step : str
        The step of the count rule that decided (a key of ``DECISIONS``, in the rule's
        order); "" on a line.
    evidence : float
        The agreement (ARI) that step compared; NaN when it compared none.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from kernel_patterns import GPClustering
    >>> X, _ = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)
    >>> trace = GPClustering().fit(X).count_trace_
    >>> trace.reading, trace.factor  # 6 basins at ℓ₀, 3 clusters of greatest excess of mass
    ('excess of mass', 1.0)
    >>> trace.to_pandas()[["factor", "n_modes", "kept"]].round(2)
       factor  n_modes   kept
    0    1.00        6   True
    1    1.41        3  False
    """

    factors: FloatArray
    length_scales: FloatArray
    n_modes: NDArray[np.intp]
    agreement: FloatArray
    reading: str
    factor: float
    mode_test: DipPartition | None = None
    line_axis: FloatArray | None = None
    n_clusters: int = -1
    deepest_split: float = float("nan")
    step: str = ""
    evidence: float = float("nan")

    @property
    def one_feature(self) -> bool:
        """Whether the count was read on the data's one feature (``line_axis`` is
        ``[1.]``), not along a line through several."""
        return self.line_axis is not None and self.line_axis.size == 1

    @property
    def kept(self) -> int:
        """Index (into ``factors``) of the landscape the labels come from."""
        return int(np.argmin(np.abs(self.factors - self.factor)))

    @property
    def reason(self) -> str:
        """Why the fit found ``n_clusters`` clusters, in one sentence (for the excess of mass,
        with the depth of the deepest split it did not make).
        """
        why = self._why()
        if (self.reading != "excess of mass" or self.step == "family-wise"
                or np.isnan(self.deepest_split)):
            return why
        return (f"{why} The deepest split inside a cluster is {self.deepest_split:.1f} "
                "noise units deep (Poisson standard deviations of the effective count; "
                "the excess of mass splits from 2).")

    def _why(self) -> str:
        """The reading kept and the count, in one sentence."""
        k, i = self.n_clusters, self.kept
        head = f"{k} cluster{'' if k == 1 else 's'}"
        ell = float(self.length_scales[i]) if self.length_scales.size else float("nan")
        if self.mode_test is not None:
            test, where = self.mode_test, ("the one feature" if self.one_feature
                                           else "the line the data lie on")
            if test.n_modes == 1 and test.pvalues.size == 0:
                return (f"{head}: the values along {where} are too few or too alike for "
                        "Hartigan's dip test.")
            if test.n_modes == 1:
                return (f"{head}: the density along {where} has one mode by Hartigan's dip "
                        f"test (p-value {test.pvalues[0]:.2f} against more).")
            cuts = ", ".join(f"{c:.3g}" for c in test.cuts)
            return (f"{head}: the density along {where} has {test.n_modes} modes by "
                    f"Hartigan's dip test (cut at {cuts}).")
        if self.step not in DECISIONS:  # a trace made by hand, without the rule's step
            return f"{head}: the {self.reading} at length scale {ell:.3g}."
        return f"{head}: " + DECISIONS[self.step].format(
            ell=f"{ell:.3g}", a=f"{self.evidence:.2f}", k=k, n=self.factors.size) + "."

    def plot(self, ax: Any = None, *, title: str | None = None) -> Any:
        """The modes against the length scale (log axis), each step labelled with the
        agreement of its two readings and the landscape kept circled.

        Returns
        -------
        ax : matplotlib Axes
        """
        from ._plots import plot_count_trace

        return plot_count_trace(self, ax=ax, title=title)

    def to_pandas(self) -> Any:
        """One row per length scale read: ``factor``, ``length_scale``, ``n_modes``,
        ``agreement`` (with the next one) and ``kept``.
        """
        pd = pandas_module()
        return pd.DataFrame({
            "factor": self.factors, "length_scale": self.length_scales,
            "n_modes": self.n_modes, "agreement": self.agreement,
            "kept": np.arange(self.factors.size) == self.kept,
        })
