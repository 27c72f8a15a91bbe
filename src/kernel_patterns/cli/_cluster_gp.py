"""GP clustering's adapter for ``kernel-patterns cluster`` (``--method gp``, the default).

It reads GPClustering's public fitted attributes only: ``equilibria_`` (marked on the
cluster figure), ``count_trace_`` (why this count: the landscapes read at several length
scales), ``hierarchy_``, ``landscape_``, ``level_`` and ``n_clusters_`` (the dendrogram).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import plotting
from ._cluster_method import ClusterMethod
from ._report import ReportSection, ReportTable


def _dendrogram(gp: Any) -> Any:
    """The GP hierarchy with a title and its leaves named by cluster and basin size."""
    ax = plotting.plot_hierarchy(gp, title=f"GP hierarchy: {gp.n_clusters_} clusters at "
                                 f"level {gp.level_:.4g}")
    seps = gp.landscape_.to_pandas()
    names = []
    for tick in ax.get_xticklabels():
        text = tick.get_text()
        if not text.isdigit() or int(text) >= len(seps):
            return ax  # not leaf indices (e.g. too many leaves to label): leave as drawn
        row = seps.iloc[int(text)]
        lab = int(row["label"])
        names.append(f"{'noise' if lab == -1 else f'cluster {lab}'} (n={int(row['size'])})")
    if names:
        ax.set_xticks(ax.get_xticks(), names, rotation=90, fontsize="small")
        ax.set_xlabel("stable equilibrium points: cluster (training points in the basin)")
    return ax


def _trace_summary(trace: Any) -> dict[str, Any]:
    """GPClustering's ``count_trace_`` for summary.json: the reading kept and, per length
    scale read, its modes and their agreement with the next (null: not compared)."""
    return {
        "reading": trace.reading,
        "length_scale": float(trace.length_scales[trace.kept]),
        "ladder": [
            {"length_scale": float(ell), "n_modes": int(n),
             "agreement": None if np.isnan(a) else round(float(a), 4)}
            for ell, n, a in zip(trace.length_scales, trace.n_modes, trace.agreement,
                                 strict=True)
        ],
    }


def _reading(trace: Any, k: int) -> str:
    """Why GPClustering() found ``k`` clusters, from its count trace, in one clause."""
    i = trace.kept
    ell = float(trace.length_scales[i])
    n_read = len(trace.length_scales)
    a = trace.agreement[i]
    if trace.reading == "excess of mass" and np.isnan(a) and i > 0:
        a = trace.agreement[i - 1]  # compared with the shorter length scale read before it
    agree = "" if np.isnan(a) else f", agreement {a:.2f}"
    if trace.reading == "excess of mass":
        why = (f"the {k} clusters of greatest excess of mass in the variance's cluster tree at "
               f"length scale {ell:.3g}, every split deeper than the noise of the density")
        if not np.isnan(a):
            why += f"; the same clusters at a neighbouring length scale{agree}"
    elif trace.reading == "modes" and i > 0 and trace.agreement[i - 1] > a:
        # the modes persist down more than up (a NaN agreement compares False)
        # above ℓ₀ the reading beside them is the excess of mass's, below it the support's
        other = "the excess of mass's clusters" if trace.factor > 1 else "the next one's reading"
        why = (f"its {int(trace.n_modes[i])} modes at length scale {ell:.3g} are more the "
               f"same clusters as the shorter length scale's (agreement "
               f"{trace.agreement[i - 1]:.2f}) than as {other} ({a:.2f})")
    elif trace.reading == "modes":
        why = (f"its {int(trace.n_modes[i])} modes at length scale {ell:.3g} stay the same "
               f"clusters at the next length scale read{agree}")
    elif trace.reading == "modes on the line":
        test = trace.mode_test
        values, density, line = (
            ("the one feature's values", "the one feature's density", "the one feature")
            if trace.one_feature
            else ("the values along the line the data lie on",
                  "the density along the line the data lie on", "the line the data lie on"))
        if test.n_modes == 1 and test.pvalues.size == 0:
            why = f"{values} are too few or too alike for Hartigan's dip test"
        elif test.n_modes == 1:
            why = (f"{density} has one mode by Hartigan's dip test (p-value "
                   f"{test.pvalues[0]:.2f} against more)")
        else:
            cuts = ", ".join(f"{c:.3g}" for c in test.cuts)
            why = (f"{line} divides into {test.n_modes} parts of one mode each by "
                   f"Hartigan's dip test (cut at {cuts}), which group the basins of the "
                   f"landscape at length scale {ell:.3g}")
    else:  # "support"
        why = (f"the support of the GP at the data's length scale {ell:.3g} is {k} "
               f"piece{'' if k == 1 else 's'}")
    return f"{why} ({n_read} length scale{'' if n_read == 1 else 's'} read: the count trace)"


def _trace_section(result: dict[str, Any], figs: dict[Path, str]) -> ReportSection:
    """The GP count trace as a table (length scale, modes, agreement, kept) beside
    count_trace.png."""
    trace = result["count_trace"]
    ladder = trace["ladder"]
    kept = next(i for i, step in enumerate(ladder)
                if step["length_scale"] == trace["length_scale"])
    rows = [[step["length_scale"], step["n_modes"],
             "not compared" if step["agreement"] is None else step["agreement"],
             "kept" if i == kept else ""] for i, step in enumerate(ladder)]
    table = ReportTable(["length scale", "modes", "agreement with the next", "kept"], rows,
                        caption=f"Landscapes read for the count (reading kept: "
                        f"{trace['reading']})", highlight=kept)
    png = [f for f in figs if f.name == "count_trace.png"]
    text = result["why_this_count"]
    sentence = result.get("count_sentence")
    if sentence and sentence not in text:  # said once, whether the reason already holds it
        text = f"{sentence} ({text})"
    return ReportSection(f"Why {result['n_clusters']} clusters", text=text,
                         tables=[table], figures=png)


def count_sentence(est: Any) -> str | None:
    """The one sentence a fitted GPClustering gives for its count (``count_trace_.reason``),
    when it has one.

    Examples
    --------
    >>> import types
    >>> trace = types.SimpleNamespace(reason="Two groups stand apart.")
    >>> count_sentence(types.SimpleNamespace(count_trace_=trace))
    'Two groups stand apart.'
    >>> count_sentence(object()) is None
    True
    """
    reason = getattr(getattr(est, "count_trace_", None), "reason", None)
    return reason if isinstance(reason, str) and reason.strip() else None


@dataclass(frozen=True)
class GPClusterMethod(ClusterMethod):
    """The cluster command's view of :class:`~kernel_patterns.GPClustering`: its SEPs on the
    cluster figure, the variance landscape, the count trace and the hierarchy, and the count
    trace as the reason for the count.

    Examples
    --------
    >>> from kernel_patterns import GPClustering
    >>> m = GPClusterMethod(GPClustering)
    >>> m.report, m.details
    (('level_', 'n_iter_'), ('count_trace', 'count_sentence'))
    """

    report: tuple[str, ...] = ("level_", "n_iter_")
    details: tuple[str, ...] = ("count_trace", "count_sentence")

    def result(self, est: Any) -> dict[str, Any]:
        out = super().result(est)
        trace = getattr(est, "count_trace_", None)  # why this count (None: a given kernel)
        if trace is not None:
            out["count_trace"] = _trace_summary(trace)
            sentence = count_sentence(est)
            if sentence:
                out["count_sentence"] = sentence
        return out

    def centers(self, est: Any) -> np.ndarray | None:
        return np.asarray(est.equilibria_)

    def figures(self, tmp: Path, X: np.ndarray, labels: np.ndarray,
                est: Any) -> dict[Path, str]:
        figs: dict[Path, str] = {}  # the GP result objects draw the landscape and hierarchy
        if X.shape[1] == 2:
            ax = plotting.plot_variance_landscape(est, X, labels=labels,
                                                  title="GP variance landscape σ²(x)")
            figs[plotting.save_figure(ax, tmp / "variance_landscape.png")] = (
                "variance_landscape.png: σ² of the fitted GP, the level contour (solid), "
                "stable equilibrium points (red crosses)")
        trace = getattr(est, "count_trace_", None)
        if trace is not None:
            figs[plotting.save_figure(trace.plot(), tmp / "count_trace.png")] = (
                "count_trace.png: the modes of the GP landscape at every length scale read "
                "for the count, the agreement of each step (blue) and the one kept (circled)")
        if len(est.hierarchy_):
            figs[plotting.save_figure(_dendrogram(est), tmp / "hierarchy.png")] = (
                "hierarchy.png: equilibrium points merging at their saddle levels; the dashed "
                "line is the level the clusters are cut at")
        return figs

    def sections(self, result: dict[str, Any], figs: dict[Path, str]) -> list[ReportSection]:
        return [_trace_section(result, figs)] if "count_trace" in result else []

    def count_reason(self, est: Any, k: int, n_clusters: int | None) -> str:
        if n_clusters is not None:
            return (f"--n-clusters {n_clusters}: the {n_clusters} most persistent groups of "
                    "the GP hierarchy")
        trace = getattr(est, "count_trace_", None)
        if trace is not None:
            return "found by GP clustering: " + _reading(trace, k)
        return f"found by GP clustering: the given kernel's support at level {est.level_:.4g}"
