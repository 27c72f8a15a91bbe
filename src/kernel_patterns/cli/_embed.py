"""``kernel-patterns embed INPUT --method mds|laplacian``: a picture of the feature space."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from .. import _progress
from . import _common as common
from . import _dask
from ._output import staged_output
from ._registry import UsageError, register

#: ``--method`` -> the estimator class's name in :mod:`kernel_patterns.embed` (imported when run)
METHODS: dict[str, str] = {"mds": "KernelMDS", "laplacian": "LaplacianEmbedding"}


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="CSV, TSV or Parquet file, one row per point")
    p.add_argument("--method", required=True, choices=sorted(METHODS),
                   help="mds: kernel MDS (kernel PCA of the centred kernel: distances kept); "
                   "laplacian: the Laplacian eigenmap of a k-nearest-neighbour graph "
                   "(neighbourhoods kept)")
    p.add_argument("--n-components", type=int, default=2, help="embedding dimension (2)")
    common.add_input_arguments(p, kernel_help=(
        "kernel name: rbf, gp, linear, polynomial, cosine, ... (default: the method's own: "
        "rbf for mds, the k-nearest-neighbour graph 'nearest_neighbors' for laplacian)"))
    _dask.add_scheduler_argument(p)


def _run(args: argparse.Namespace) -> int:
    out = common.output_folder(args, args.input, f"{args.method}-embedding")
    timer = common.Timer("embed", stages=3)  # read, scale, fit
    with _dask.on_scheduler(args) as where:
        if where:
            table = _dask.gather_input(args, timer, args.label_column)
            X = table.X
        else:
            from .. import embed

            table, _, X = common.read_input(args, args.input, timer, args.label_column,
                                            fit=getattr(embed, METHODS[args.method]))
        return _embed(args, out, timer, table, X, where)


def _embed(args: argparse.Namespace, out: Path, timer: common.Timer, table: Any,
           X: np.ndarray, where: dict[str, Any]) -> int:
    import pandas as pd

    if not 1 <= args.n_components < X.shape[0]:
        raise UsageError(f"--n-components must be between 1 and {X.shape[0] - 1}; "
                         f"got {args.n_components}")
    from .. import embed, plotting

    est = common.build_estimator(getattr(embed, METHODS[args.method]), args,
                                 {"n_components": args.n_components})
    with staged_output(out, args.force) as tmp:
        with timer("fit"):
            E = np.asarray(est.fit_transform(X))
        frame = pd.DataFrame({table.id_name: table.ids})
        for j in range(E.shape[1]):
            frame[f"component_{j + 1}"] = E[:, j]
        if table.labels is not None:
            frame[str(table.label_name)] = table.labels
        frame.to_csv(tmp / "embedding.csv", index=False)
        V = E[:, :2] if E.shape[1] >= 2 else np.c_[E[:, 0], np.zeros(len(E))]
        ax = plotting.plot_clusters(V, table.labels, title=f"{type(est).__name__} of "
                                    f"{Path(args.input).name}", legend=True,
                                    legend_title=f"{table.label_name} (points)")
        ax.set_xlabel(f"{type(est).__name__} component 1")
        ax.set_ylabel(f"{type(est).__name__} component 2" if E.shape[1] >= 2 else "")
        figs = [plotting.save_figure(ax, tmp / "embedding.png")]
        result: dict[str, Any] = {"n_components": int(E.shape[1]), **where}
        for attr in ("eigenvalues_", "explained_variance_ratio_", "objective_",
                     "n_connected_components_", "n_neighbors_"):
            v = getattr(est, attr, None)
            if v is not None:  # n_neighbors_ is None for kernels other than the k-NN graph
                result[attr.rstrip("_")] = np.asarray(v).tolist()
        summary = common.make_summary("embed", args, args.input, table, est, result, timer)
        common.finish(tmp, f"kernel-patterns embed: {args.method} of {Path(args.input).name}",
                      summary, figs)
    _progress.write(f"{args.method}: {E.shape[1]}-D embedding; wrote {out}/")
    return 0


register("embed", "embed a table in 2-D/3-D with kernel MDS or the Laplacian embedding",
         _args, _run)
