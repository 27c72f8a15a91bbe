"""``kernel-patterns cluster INPUT [--method ...]``: cluster a user's table, write a report.

Without ``--method`` the method is GP variance clustering (``gp``), which finds the count
itself; the closing line, ``summary.json`` and ``report.html`` say which method ran, whether
it was the default, and why the clusters are as many as they are (GP: the count trace, the
landscapes read at several length scales; the others: ``--n-clusters`` or their default 8).
What is particular to a method (what to report, what to draw, why this count) is its adapter
in ``METHODS`` (``_cluster_method.ClusterMethod``; GP clustering's in ``_cluster_gp``): the
command itself treats every method alike.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

import numpy as np

from .. import _progress
from . import _common as common
from . import _dask
from ._cluster_method import ClusterMethod
from ._output import staged_output
from ._registry import UsageError, register
from ._report import ReportSection, ReportTable

log = logging.getLogger("kernel_patterns")

def _methods() -> dict[str, ClusterMethod]:
    """``METHODS``: the methods of ``--method``, each with its adapter (what the command
    reports and draws); built on first use, so that ``--help`` imports no estimator."""
    methods = globals().get("METHODS")
    if methods is None:
        from ..cluster import GPClustering, KernelKMeans, SoftKernelKMeans, SpectralClustering
        from ._cluster_gp import GPClusterMethod  # (it imports plotting: not for --help)

        methods = {
            "gp": GPClusterMethod(GPClustering),
            "kernel-kmeans": ClusterMethod(KernelKMeans, report=("inertia_", "n_iter_")),
            "soft-kernel-kmeans": ClusterMethod(SoftKernelKMeans,
                                                report=("inertia_", "n_iter_"), soft=True),
            "spectral": ClusterMethod(SpectralClustering),
        }
        globals()["METHODS"] = methods
    return methods


def __getattr__(name: str) -> Any:
    if name == "METHODS":  # the table of methods, built on first use (:func:`_methods`)
        return _methods()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _LazyChoices:
    """``--method``'s choices, read from :func:`_methods` only when a value is checked (the
    help lists :data:`METHOD_NAMES` until the table is built)."""

    def __contains__(self, name: object) -> bool:
        return name in _methods()

    def __iter__(self) -> Any:
        built = globals().get("METHODS")
        return iter(sorted(built) if built is not None else METHOD_NAMES)


#: the method names, as the help shows them (the table itself is built on first use)
METHOD_NAMES = ("gp", "kernel-kmeans", "soft-kernel-kmeans", "spectral")
#: the method without ``--method``: GP clustering finds the count itself
DEFAULT_METHOD = "gp"


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="CSV, TSV or Parquet file, one row per point")
    p.add_argument("--method", choices=_LazyChoices(), default=None,
                   metavar="{" + ",".join(METHOD_NAMES) + "}",
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

    from .. import metrics

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


def _name_axes(axes: list[Any], how: str, names: list[str] | None) -> None:
    """Axis names: the features' when the figure shows them, else the view's ("KernelMDS 1")."""
    if how == "features" and names and len(names) == 2:
        xy = names
    elif how == "feature (1-D)" and names:
        xy = [names[0], ""]
    else:
        view = how.removesuffix(" view")
        xy = [f"{view} 1", f"{view} 2"]
    for ax in axes:
        ax.set_xlabel(xy[0])
        ax.set_ylabel(xy[1])


def cluster_figures(
    tmp: Path, X: np.ndarray, labels: np.ndarray, est: Any, method: ClusterMethod,
    truth: np.ndarray | None = None, truth_name: str | None = None,
    names: list[str] | None = None,
) -> dict[Path, str]:
    """The figures (each with a caption): the clusters with a legend, beside the truth when
    given, then the method's own (GP: the variance landscape, the count trace, the
    hierarchy). The axes are named by the features (``names``) when they are features."""
    from .. import plotting
    from .._mpl import pyplot

    figs: dict[Path, str] = {}
    V, how = view_2d(X, est)
    centers = method.centers(est) if how == "features" else None
    k = len(np.unique(labels[labels != -1]))
    found = f"{type(est).__name__}: {k} clusters ({how})"
    if truth is None:
        ax = plotting.plot_clusters(V, labels, centers=centers, title=found, legend=True,
                                    legend_title="cluster (points)")
        _name_axes([ax], how, names)
        caption = f"clusters.png: {found}, legend of cluster sizes"
    else:
        fig, (left, right) = pyplot().subplots(1, 2, figsize=(12, 4.8))
        plotting.plot_clusters(V, labels, ax=left, centers=centers, title=found, legend=True,
                               legend_title="cluster (points)")
        plotting.plot_clusters(V, truth, ax=right, title=f"truth: '{truth_name}'",
                               legend=True, legend_title=f"{truth_name} (points)")
        _name_axes([left, right], how, names)
        fig.tight_layout()
        ax = left
        caption = (f"clusters.png: left, {found}, legend of cluster sizes; right, the same "
                   f"points coloured by the truth '{truth_name}'")
    if np.any(labels == -1):
        caption += f"; {int(np.sum(labels == -1))} noise points (label -1) as grey crosses"
    figs[plotting.save_figure(ax, tmp / "clusters.png")] = caption
    figs.update(method.figures(tmp, X, labels, est))
    return figs


def _fixed(args: argparse.Namespace, n_rows: int) -> dict[str, Any]:
    fixed = {}
    if args.n_clusters is not None:
        if args.n_clusters < 1:
            raise UsageError(f"--n-clusters must be >= 1; got {args.n_clusters}")
        from .._validation import check_n_clusters

        try:  # the estimators' own check, worded for the command line
            check_n_clusters(args.n_clusters, n_rows)
        except ValueError:
            raise UsageError(f"--n-clusters {args.n_clusters} is more than the "
                             f"{n_rows} rows") from None
        fixed["n_clusters"] = args.n_clusters
    return fixed


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

    method = _methods()[_method(args)]
    out = common.output_folder(args, args.input, f"{args.method}-clusters")
    # read, scale, fit, figures (on a scheduler: more, not counted ahead)
    timer = common.Timer("cluster", stages=None if getattr(args, "scheduler", None) else 4)
    with _dask.on_scheduler(args) as where:
        if where:
            dtable, Xd = _dask.read_input(args, timer, args.label_column)
            est = common.build_estimator(method.estimator, args,
                                         _fixed(args, dtable.n_rows))
            reason = _dask.nystrom_reason(est, args, dtable.n_rows)
            if reason is not None:
                return _run_nystrom(args, out, timer, dtable, Xd, est, method, where, reason)
            table = _dask.gather_input(args, timer, args.label_column, read=(dtable, Xd))
            X = table.X
        else:
            table, _, X = common.read_input(args, args.input, timer, args.label_column,
                                            fit=method.estimator)
            est = common.build_estimator(method.estimator, args, _fixed(args, X.shape[0]))
        with staged_output(out, args.force) as tmp:
            with timer("fit"):
                fitted, notes = common.noting_warnings("cluster", lambda: est.fit_predict(X))
                labels = np.asarray(fitted)
            frame = pd.DataFrame({table.id_name: table.ids, "label": labels,
                                  **method.columns(est)})
            frame.to_csv(tmp / "labels.csv", index=False)
            with timer("figures"):
                figs = cluster_figures(tmp, X, labels, est, method, table.labels,
                                       table.label_name, table.feature_names)
                units, unit_figs = _in_user_units(tmp, args, table, labels, est)
                figs.update(unit_figs)
            result: dict[str, Any] = {**where, **method.result(est)}
            if notes:
                result["warnings"] = notes
            _report(tmp, args, table, est, method, labels, table.labels, result, timer, figs,
                    units)
    sentence = result.get("count_sentence")
    if sentence and sentence not in result["why_this_count"]:  # the closing line may hold it
        _progress.write(f"why {_found(result)}: {sentence}")
    _progress.write(f"{_closing(args)}: {_found(result)}, {result['why_this_count']}; "
                    f"wrote {out}/")
    return 0


def _in_user_units(tmp: Path, args: argparse.Namespace, table: Any, labels: np.ndarray,
                   est: Any) -> tuple[list[ReportSection], dict[Path, str]]:
    """clustered.csv, profile.csv and pairs.png from the features as read (``table.frame``:
    the local reader's rows, or on a scheduler the gathered ids, features and label), and the
    agreement with ``--label-column`` (printed too): the report sections and the figure."""
    from . import _pairs, _results

    sections: list[ReportSection] = []
    figs: dict[Path, str] = {}
    frame = getattr(table, "frame", None)
    if frame is not None:  # the local reader: the rows and features as the file holds them
        _results.clustered_frame(frame, labels, est).to_csv(tmp / "clustered.csv", index=False)
        raw = frame[table.feature_names].to_numpy(dtype=np.float64)
        profile = _results.cluster_profile(raw, table.feature_names, labels)
        profile.to_csv(tmp / "profile.csv", index=False)
        pairs, caption = _pairs.pair_plot(tmp / "pairs.png", raw, table.feature_names,
                                          labels, args.random_state)
        figs[pairs] = caption
        section = _results.profile_section(profile, table.feature_names)
        section.figures.append(pairs)
        sections.append(section)
    if table.labels is not None:
        ari, cross = _results.agreement(table.labels, labels)
        _progress.write(_results.agreement_text(str(table.label_name), ari, cross))
        sections.append(_results.agreement_section(str(table.label_name), ari, cross))
    return sections, figs


def _report(tmp: Path, args: argparse.Namespace, table: Any, est: Any, method: ClusterMethod,
            labels: np.ndarray, truth: np.ndarray | None, result: dict[str, Any],
            timer: common.Timer, figs: dict[Path, str],
            units: list[ReportSection] | None = None) -> None:
    """summary.json and report.html: the cluster count and sizes first in ``result``."""
    # noise (label -1, GP clustering's points outside every cluster) is not a cluster
    k = len(np.unique(labels[labels >= 0]))
    merged: dict[str, Any] = {
        "method": _method_line(args, est), "n_clusters": k,
        "why_this_count": method.count_reason(est, k, args.n_clusters),
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
             if key not in ("cluster_sizes", "warnings", *method.details)}
    sections = [ReportSection("Result", rows=shown)]
    if "scores" in summary:
        sections.append(ReportSection("Scores against " + str(table.label_name),
                                      rows=summary["scores"]))
    sections.append(_sizes_section(labels))
    sections += units or []
    sections += method.sections(result, figs)
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


def _found(result: dict[str, Any]) -> str:
    """"3 clusters", "1 cluster" or "2 clusters and 32 noise points" for the closing line."""
    k, noise = result["n_clusters"], result.get("n_noise", 0)
    return (f"{k} cluster{'' if k == 1 else 's'}"
            + (f" and {noise} noise point{'' if noise == 1 else 's'}" if noise else ""))


#: rows of the figures drawn for a Nyström fit on a scheduler (a uniform sample).
FIGURE_ROWS = 5_000


def _run_nystrom(args: argparse.Namespace, out: Path, timer: common.Timer, dtable: Any,
                 Xd: Any, est: Any, method: ClusterMethod, where: dict[str, Any],
                 reason: str) -> int:
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
            figs = cluster_figures(tmp, Xs, labels[idx], est, method,
                                   None if truth is None else truth[idx], dtable.label_name,
                                   dtable.feature_names)
            if len(idx) < n:
                figs = {f: c + f" ({len(idx)} of the {n} rows, drawn uniformly)"
                        for f, c in figs.items()}
        result: dict[str, Any] = {
            **where, "fit": "distributed.nystrom_kmeans on the workers",
            "nystrom": kwargs | {"kernel": repr(kwargs["kernel"])},
            "inertia": float(res.inertia), "n_iter": int(res.n_iter),
        }
        _report(tmp, args, dtable, est, method, labels, truth, result, timer, figs)
    print(f"{_closing(args)}: {_found(result)}, {result['why_this_count']}; wrote {out}/")
    return 0


register("cluster", "cluster a CSV/TSV/Parquet file (labels, summary, figures, report)",
         _args, _run)
