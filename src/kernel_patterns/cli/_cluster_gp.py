"""GP clustering's adapter for ``kernel-patterns cluster`` (``--method gp``, the default).

It reads GPClustering's public fitted attributes only: ``equilibria_`` (marked on the
cluster figure), ``count_trace_`` (why this count: the landscapes read at several length
scales), ``landscape_`` (the condensed tree of hierarchy.png), ``level_`` and ``n_clusters_``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import plotting
from ._cluster_method import ClusterMethod
from ._report import ReportSection, ReportTable


def _count_picture(gp: Any) -> Any:
    """The picture of the count: the condensed tree, the fitted clusters outlined, and, when
    GPClustering found the count itself, the modes per length scale read beside it."""
    from .._mpl import pyplot

    trace = getattr(gp, "count_trace_", None)
    fig, axs = pyplot().subplots(1, 1 if trace is None else 2, squeeze=False,
                                 figsize=(5.5 if trace is None else 11.5, 4.5))
    gp.landscape_.plot_condensed_tree(ax=axs[0, 0], title=f"GP clusters: {gp.n_clusters_} "
                                      f"at level {gp.level_:.4g} (condensed tree)")
    if trace is not None:
        trace.plot(ax=axs[0, 1], title="modes per length scale (blue: agreement)")
        if trace.reason:
            fig.suptitle(trace.reason, fontsize="small", wrap=True)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.12, top=0.8, wspace=0.3)
    return fig


def _trace_summary(trace: Any) -> dict[str, Any]:
    """GPClustering's ``count_trace_`` for summary.json: the reading kept, the step of the
    rule that decided and, per length scale read, its modes and their agreement with the
    next (null: not compared)."""
    return {
        "reading": trace.reading,
        "step": trace.step,
        "length_scale": float(trace.length_scales[trace.kept]),
        "ladder": [
            {"length_scale": float(ell), "n_modes": int(n),
             "agreement": None if np.isnan(a) else round(float(a), 4)}
            for ell, n, a in zip(trace.length_scales, trace.n_modes, trace.agreement,
                                 strict=True)
        ],
    }


def _trace_section(result: dict[str, Any], figs: dict[Path, str]) -> ReportSection:
    """The GP count trace as a table (length scale, modes, agreement, kept) beside
    hierarchy.png (the condensed tree and the ladder)."""
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
    png = [f for f in figs if f.name == "hierarchy.png"]
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
        figs[plotting.save_figure(_count_picture(est), tmp / "hierarchy.png")] = (
            "hierarchy.png: the condensed tree of the fit (each cluster as wide as its points, "
            "the fitted clusters filled and outlined, the level dashed)"
            + ("; beside it the modes of the GP landscape at every length scale read for the "
               "count, the agreement of each step (blue), the landscape kept (circled) and the "
               "fit's clusters (star)" if trace is not None else ""))
        return figs

    def sections(self, result: dict[str, Any], figs: dict[Path, str]) -> list[ReportSection]:
        return [_trace_section(result, figs)] if "count_trace" in result else []

    def count_reason(self, est: Any, k: int, n_clusters: int | None) -> str:
        if n_clusters is not None:
            return (f"--n-clusters {n_clusters}: the {n_clusters} most persistent groups of "
                    "the GP hierarchy")
        trace = getattr(est, "count_trace_", None)
        if trace is not None:
            n_read = len(trace.length_scales)
            return (f"found by GP clustering: {trace.reason} ({n_read} length scale"
                    f"{'' if n_read == 1 else 's'} read: the count trace)")
        return f"found by GP clustering: the given kernel's support at level {est.level_:.4g}"
