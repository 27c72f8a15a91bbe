"""``kernel-patterns cluster INPUT --method ...``: cluster a user's table, write a report."""

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

log = logging.getLogger("kernel_patterns")

METHODS: dict[str, type[Any]] = {
    "gp": GPClustering,
    "kernel-kmeans": KernelKMeans,
    "soft-kernel-kmeans": SoftKernelKMeans,
    "spectral": SpectralClustering,
}


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="CSV, TSV or Parquet file, one row per point")
    p.add_argument("--method", required=True, choices=sorted(METHODS))
    p.add_argument("--n-clusters", type=int, help="number of clusters (default 8 for the k-means "
                   "and spectral methods, as scikit-learn; GP finds the count itself)")
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


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

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
    print(f"{args.method}: {_found(result)}; wrote {out}/")
    return 0


def _report(tmp: Path, args: argparse.Namespace, table: Any, est: Any, labels: np.ndarray,
            truth: np.ndarray | None, result: dict[str, Any], timer: common.Timer,
            figs: dict[Path, str]) -> None:
    """summary.json and report.html: the cluster count and sizes first in ``result``."""
    # noise (label -1, GP clustering's points outside every cluster) is not a cluster
    merged: dict[str, Any] = {"n_clusters": len(np.unique(labels[labels >= 0])),
                              "cluster_sizes": common.sizes(labels)}
    if np.any(labels < 0):
        merged["n_noise"] = int(np.sum(labels < 0))
    merged.update(result)
    result.clear()
    result.update(merged)
    summary = common.make_summary("cluster", args, args.input, table, est, result, timer)
    if truth is not None:
        summary["scores"] = score(truth, labels)
    sections = [("Result", result), ("Parameters", summary["parameters"])]
    if "scores" in summary:
        sections.insert(1, ("Scores against " + str(table.label_name), summary["scores"]))
    common.finish(tmp, f"kernel-patterns cluster: {args.method} on {Path(args.input).name}",
                  summary, list(figs), sections, captions=figs)


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
    print(f"{args.method}: {_found(result)}; wrote {out}/")
    return 0


register("cluster", "cluster a CSV/TSV/Parquet file (labels, summary, figures, report)",
         _args, _run)
