"""``kernel-patterns cluster INPUT [--method ...]``: cluster a user's table, write a report.

Without ``--method`` the method is GP variance clustering (``gp``), which finds the count
itself; the closing line, ``summary.json`` and ``report.html`` say which method ran, whether
it was the default, and why the clusters are as many as they are (GP: the count trace, the
landscapes read at several length scales; the others: ``--n-clusters`` or their default 8).
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

import numpy as np

from .. import metrics, plotting
from .._validation import check_n_clusters
from ..cluster import GPClustering, KernelKMeans, SoftKernelKMeans, SpectralClustering
from . import _common as common
from . import _dask
from ._io import staged_output
from ._registry import UsageError, register
from ._report import ReportSection, ReportTable

log = logging.getLogger("kernel_patterns")

METHODS: dict[str, type[Any]] = {
    "gp": GPClustering,
    "kernel-kmeans": KernelKMeans,
    "soft-kernel-kmeans": SoftKernelKMeans,
    "spectral": SpectralClustering,
}
#: the method without ``--method``: GP clustering finds the count itself
DEFAULT_METHOD = "gp"


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="CSV, TSV or Parquet file, one row per point")
    p.add_argument("--method", choices=sorted(METHODS), default=None,
                   help=f"clustering method (default {DEFAULT_METHOD}: GP variance clustering, "
                   "which finds the count of clusters itself)")
    p.add_argument("--n-clusters", type=int, help="number of clusters: for gp, the N most "
                   "persistent groups of its hierarchy instead of the count it finds; for the "
                   "k-means and spectral methods the count (default 8, as scikit-learn)")
    common.add_input_arguments(p)
    _dask.add_scheduler_argument(p)


def score(y_true: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """RE, CE, FScore (eq. 5.1–5.4), clustering accuracy and ARI against the ground truth."""
    from sklearn.metrics import adjusted_rand_score

    return {
        "reference_error": metrics.reference_error(y_true, labels),
        "cluster_error": metrics.cluster_error(y_true, labels),
        "f_score": metrics.f_score(y_true, labels),
        "accuracy": metrics.clustering_accuracy(y_true, labels),
        "adjusted_rand_index": float(adjusted_rand_score(y_true, labels)),
    }


def view_2d(X: np.ndarray, est: Any) -> tuple[np.ndarray, str]:
    """The points in 2-D: as they are, or a KernelMDS view with the estimator's kernel."""
    if X.shape[1] == 2:
        return X, "features"
    if X.shape[1] == 1:
        return np.c_[X[:, 0], np.zeros(len(X))], "feature (1-D)"
    from ..embed import KernelMDS
    from ..kernels import make_kernel

    kernel = getattr(est, "kernel_", None) or est.get_params().get("kernel")
    transform = getattr(est, "feature_transform_", None)  # GP's kernel_ lives behind it
    if transform is not None:
        X = transform.transform(X)
    try:
        k = make_kernel(kernel, est.get_params().get("kernel_params"))
        return KernelMDS(n_components=2, kernel=k).fit_transform(X), "KernelMDS view"
    except (ValueError, TypeError) as exc:  # e.g. a kernel that needs fitting first
        log.info("KernelMDS view not available (%s); using PCA", exc)
        from sklearn.decomposition import PCA

        return PCA(n_components=2).fit_transform(X), "PCA view"


def cluster_figures(
    tmp: Path, X: np.ndarray, labels: np.ndarray, est: Any,
    truth: np.ndarray | None = None, truth_name: str | None = None,
) -> dict[Path, str]:
    """The figures (each with a caption): the clusters with a legend, beside the truth when
    given; for GP the variance landscape (2-D) and the dendrogram of its hierarchy."""
    from .._mpl import pyplot

    figs: dict[Path, str] = {}
    V, how = view_2d(X, est)
    gp = est if isinstance(est, GPClustering) else None
    centers = gp.equilibria_ if gp is not None and how == "features" else None
    k = len(np.unique(labels[labels != -1]))
    found = f"{type(est).__name__}: {k} clusters ({how})"
    if truth is None:
        ax = plotting.plot_clusters(V, labels, centers=centers, title=found, legend=True,
                                    legend_title="cluster (points)")
        caption = f"clusters.png: {found}, legend of cluster sizes"
    else:
        fig, (left, right) = pyplot().subplots(1, 2, figsize=(12, 4.8))
        plotting.plot_clusters(V, labels, ax=left, centers=centers, title=found, legend=True,
                               legend_title="cluster (points)")
        plotting.plot_clusters(V, truth, ax=right, title=f"truth: '{truth_name}'",
                               legend=True, legend_title=f"{truth_name} (points)")
        fig.tight_layout()
        ax = left
        caption = (f"clusters.png: left, {found}, legend of cluster sizes; right, the same "
                   f"points coloured by the truth '{truth_name}'")
    if np.any(labels == -1):
        caption += f"; {int(np.sum(labels == -1))} noise points (label -1) as grey crosses"
    figs[plotting.save_figure(ax, tmp / "clusters.png")] = caption
    if gp is not None:  # the GP result objects draw the landscape and the hierarchy
        if X.shape[1] == 2:
            ax = plotting.plot_variance_landscape(gp, X, labels=labels,
                                                  title="GP variance landscape σ²(x)")
            figs[plotting.save_figure(ax, tmp / "variance_landscape.png")] = (
                "variance_landscape.png: σ² of the fitted GP, the level contour (solid), "
                "stable equilibrium points (red crosses)")
        if gp.count_trace_ is not None:
            figs[plotting.save_figure(gp.count_trace_.plot(), tmp / "count_trace.png")] = (
                "count_trace.png: the modes of the GP landscape at every length scale read "
                "for the count, the agreement of each step (blue) and the one kept (circled)")
        if len(gp.hierarchy_):
            figs[plotting.save_figure(_dendrogram(gp), tmp / "hierarchy.png")] = (
                "hierarchy.png: equilibrium points merging at their saddle levels; the dashed "
                "line is the level the clusters are cut at")
    return figs


def _dendrogram(gp: GPClustering) -> Any:
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


def _fixed(args: argparse.Namespace, n_rows: int) -> dict[str, Any]:
    fixed = {}
    if args.n_clusters is not None:
        if args.n_clusters < 1:
            raise UsageError(f"--n-clusters must be >= 1; got {args.n_clusters}")
        try:  # the estimators' own check, worded for the command line
            check_n_clusters(args.n_clusters, n_rows)
        except ValueError:
            raise UsageError(f"--n-clusters {args.n_clusters} is more than the "
                             f"{n_rows} rows") from None
        fixed["n_clusters"] = args.n_clusters
    return fixed


def _reading(trace: Any, k: int) -> str:
    """Why GPClustering() found ``k`` clusters, from its count trace, in one clause."""
    i = trace.kept
    ell = float(trace.length_scales[i])
    n_read = len(trace.length_scales)
    a = trace.agreement[i]
    agree = "" if np.isnan(a) else f", agreement {a:.2f}"
    if trace.reading == "excess of mass":
        why = (f"the {k} clusters of greatest excess of mass in the variance's cluster tree at "
               f"length scale {ell:.3g}, every split deeper than the noise of the density")
        if not np.isnan(a):
            why += f"; the same clusters at the next length scale{agree}"
    elif trace.reading == "modes":
        why = (f"its {int(trace.n_modes[i])} modes at length scale {ell:.3g} stay the same "
               f"clusters at the next length scale read{agree}")
    else:  # "support"
        why = (f"the support of the GP at the data's length scale {ell:.3g} is {k} "
               f"piece{'' if k == 1 else 's'}")
    return f"{why} ({n_read} length scale{'' if n_read == 1 else 's'} read: the count trace)"


def count_reason(est: Any, k: int, n_clusters: int | None) -> str:
    """Why the fitted ``est`` gave ``k`` clusters, in the words of the command line.

    Parameters
    ----------
    est : fitted clustering estimator
    k : int
        Clusters in its labels (noise not counted).
    n_clusters : int or None
        ``--n-clusters``, when given.

    Returns
    -------
    reason : str
        One clause, e.g. "found by GP clustering: its 3 modes at length scale 0.3 stay the
        same clusters at the next length scale read, agreement 0.97 (4 length scales read:
        the count trace)" or "KernelKMeans's default n_clusters=8 (...)".
    """
    if isinstance(est, GPClustering):
        if n_clusters is not None:
            return (f"--n-clusters {n_clusters}: the {n_clusters} most persistent groups of "
                    "the GP hierarchy")
        trace = getattr(est, "count_trace_", None)
        if trace is not None:
            return "found by GP clustering: " + _reading(trace, k)
        return f"found by GP clustering: the given kernel's support at level {est.level_:.4g}"
    asked = int(est.get_params()["n_clusters"])
    if n_clusters is not None:
        why = f"--n-clusters {asked}"
    else:
        why = (f"{type(est).__name__}'s default n_clusters={asked} (as scikit-learn's; "
               "--n-clusters sets it; --method gp finds the count)")
    if k != asked:
        why += f"; {k} of them are not empty"
    return why


def _method(args: argparse.Namespace) -> str:
    """``--method``, else the default (recorded in ``args.method_given``)."""
    args.method_given = args.method is not None
    if args.method is None:
        args.method = DEFAULT_METHOD
    return str(args.method)


def _closing(args: argparse.Namespace) -> str:
    """The method as the closing line names it: "gp (the default method)" or "spectral"."""
    return f"{args.method}{'' if args.method_given else ' (the default method)'}"


def _method_line(args: argparse.Namespace, est: Any) -> str:
    default = "" if args.method_given else "; the default method, --method chooses another"
    return f"{args.method} ({type(est).__name__}{default})"


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    _method(args)
    out = common.output_folder(args, args.input, f"{args.method}-clusters")
    timer = common.Timer()
    with _dask.on_scheduler(args) as where:
        if where:
            dtable, Xd = _dask.read_input(args, timer, args.label_column)
            est = common.build_estimator(METHODS[args.method], args,
                                         _fixed(args, dtable.n_rows))
            reason = _dask.nystrom_reason(est, args, dtable.n_rows)
            if reason is not None:
                return _run_nystrom(args, out, timer, dtable, Xd, est, where, reason)
            table = _dask.gather_input(args, timer, args.label_column)
            X = table.X
        else:
            table, _, X = common.read_input(args, args.input, timer, args.label_column)
            est = common.build_estimator(METHODS[args.method], args, _fixed(args, X.shape[0]))
        with staged_output(out, args.force) as tmp:
            with timer("fit"):
                fitted, notes = common.noting_warnings("cluster", lambda: est.fit_predict(X))
                labels = np.asarray(fitted)
            frame = pd.DataFrame({table.id_name: table.ids, "label": labels})
            resp = getattr(est, "responsibilities_", None)
            if resp is not None:
                for k in range(resp.shape[1]):
                    frame[f"p_{k}"] = resp[:, k]
            frame.to_csv(tmp / "labels.csv", index=False)
            with timer("figures"):
                figs = cluster_figures(tmp, X, labels, est, table.labels, table.label_name)
            result: dict[str, Any] = {**where}
            for attr in ("level_", "inertia_", "n_iter_"):
                if hasattr(est, attr):
                    result[attr.rstrip("_")] = float(getattr(est, attr))
            trace = getattr(est, "count_trace_", None)  # GP: why this count
            if trace is not None:
                result["count_trace"] = _trace_summary(trace)
            if notes:
                result["warnings"] = notes
            _report(tmp, args, table, est, labels, table.labels, result, timer, figs)
    print(f"{_closing(args)}: {_found(result)}, {result['why_this_count']}; wrote {out}/")
    return 0


def _report(tmp: Path, args: argparse.Namespace, table: Any, est: Any, labels: np.ndarray,
            truth: np.ndarray | None, result: dict[str, Any], timer: common.Timer,
            figs: dict[Path, str]) -> None:
    """summary.json and report.html: the cluster count and sizes first in ``result``."""
    # noise (label -1, GP clustering's points outside every cluster) is not a cluster
    k = len(np.unique(labels[labels >= 0]))
    merged: dict[str, Any] = {
        "method": _method_line(args, est), "n_clusters": k,
        "why_this_count": count_reason(est, k, args.n_clusters),
        "cluster_sizes": common.sizes(labels)}
    if np.any(labels < 0):
        merged["n_noise"] = int(np.sum(labels < 0))
    merged.update(result)
    result.clear()
    result.update(merged)
    summary = common.make_summary("cluster", args, args.input, table, est, result, timer)
    summary["method_given"] = bool(args.method_given)
    if truth is not None:
        summary["scores"] = score(truth, labels)
    shown = {key: v for key, v in result.items()
             if key not in ("cluster_sizes", "count_trace", "warnings")}
    sections = [ReportSection("Result", rows=shown)]
    if "scores" in summary:
        sections.append(ReportSection("Scores against " + str(table.label_name),
                                      rows=summary["scores"]))
    sections.append(_sizes_section(labels))
    if "count_trace" in result:
        sections.append(_trace_section(result, figs))
    common.finish(tmp, f"kernel-patterns cluster: {args.method} on {Path(args.input).name}",
                  summary, list(figs), sections, captions=figs)


def _sizes_section(labels: np.ndarray) -> ReportSection:
    """Cluster sizes as a table: cluster, points, share (noise last, as 'noise')."""
    vals, counts = np.unique(labels, return_counts=True)
    order = [i for i in range(len(vals)) if vals[i] >= 0] + [
        i for i in range(len(vals)) if vals[i] < 0]
    rows = [["noise (-1)" if vals[i] < 0 else int(vals[i]), int(counts[i]),
             f"{100 * counts[i] / len(labels):.1f} %"] for i in order]
    rows.append(["all", len(labels), "100.0 %"])
    return ReportSection("Cluster sizes", tables=[ReportTable(["cluster", "points", "share"],
                                                              rows)])


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
    return ReportSection(f"Why {result['n_clusters']} clusters", text=result["why_this_count"],
                         tables=[table], figures=png)


def _found(result: dict[str, Any]) -> str:
    """"3 clusters", "1 cluster" or "2 clusters and 32 noise points" for the closing line."""
    k, noise = result["n_clusters"], result.get("n_noise", 0)
    return (f"{k} cluster{'' if k == 1 else 's'}"
            + (f" and {noise} noise point{'' if noise == 1 else 's'}" if noise else ""))


#: rows of the figures drawn for a Nyström fit on a scheduler (a uniform sample).
FIGURE_ROWS = 5_000


def _run_nystrom(args: argparse.Namespace, out: Path, timer: common.Timer, dtable: Any,
                 Xd: Any, est: Any, where: dict[str, Any], reason: str) -> int:
    """Nyström kernel k-means on the workers' Dask array; labels written partition by
    partition; the figures from a uniform sample of at most FIGURE_ROWS rows."""
    from ..distributed import nystrom_kmeans
    from . import _dask_io

    n = dtable.n_rows
    _dask.note(args, f"distributed.nystrom_kmeans on the workers, the data stays there: {reason}")
    kwargs = _dask.nystrom_kwargs(est, n)
    with staged_output(out, args.force) as tmp:
        with timer("fit"):
            res = nystrom_kmeans(Xd, est.n_clusters, client=_dask.client(), **kwargs)
        with timer("write"):
            labels, truth = _dask_io.write_labels(_dask.client(), dtable, res.labels,
                                                  tmp / "labels.csv")
        with timer("figures"):
            rng = np.random.RandomState(args.random_state)
            idx = np.sort(rng.choice(n, size=min(n, FIGURE_ROWS), replace=False))
            Xs = np.asarray(_dask.client().compute(Xd[idx]).result())
            figs = cluster_figures(tmp, Xs, labels[idx], est,
                                   None if truth is None else truth[idx], dtable.label_name)
            if len(idx) < n:
                figs = {f: c + f" ({len(idx)} of the {n} rows, drawn uniformly)"
                        for f, c in figs.items()}
        result: dict[str, Any] = {
            **where, "fit": "distributed.nystrom_kmeans on the workers",
            "nystrom": kwargs | {"kernel": repr(kwargs["kernel"])},
            "inertia": float(res.inertia), "n_iter": int(res.n_iter),
        }
        _report(tmp, args, dtable, est, labels, truth, result, timer, figs)
    print(f"{_closing(args)}: {_found(result)}, {result['why_this_count']}; wrote {out}/")
    return 0


register("cluster", "cluster a CSV/TSV/Parquet file (labels, summary, figures, report)",
         _args, _run)
