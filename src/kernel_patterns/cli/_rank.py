"""``kernel-patterns rank TRAIN --target COL [--predict FILE]``: ν-ranking or on-line ranking."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from .. import metrics, plotting
from ..rank import NuRanking, OnlineRanking
from . import _common as common
from ._io import read_frame, read_table, staged_output
from ._registry import UsageError, register

METHODS: dict[str, type[Any]] = {"nu": NuRanking, "online": OnlineRanking}


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("train", help="CSV, TSV or Parquet file with features and the target rank")
    p.add_argument("--target", required=True, help="column of ordered ranks (or a numeric "
                   "column to cut into --bins equal-width ranks)")
    p.add_argument("--predict", help="file of new rows to rank (same feature columns)")
    p.add_argument("--method", choices=sorted(METHODS), default="nu",
                   help="nu: ν-ranking QP (default); online: kernel perceptron ranking")
    p.add_argument("--bins", type=int, help="cut a numeric target into this many equal-width "
                   "ranks 1..bins")
    common.add_input_arguments(p, label=False)


def _ranks(y: np.ndarray, bins: int | None) -> np.ndarray:
    if bins is None:
        return y
    if bins < 2:
        raise UsageError(f"--bins must be >= 2; got {bins}")
    if y.dtype.kind not in "iuf":
        raise UsageError("--bins needs a numeric --target column")
    edges = np.linspace(float(np.min(y)), float(np.max(y)), bins + 1)
    return np.clip(np.digitize(y, edges[1:-1]) + 1, 1, bins)


def _figure(tmp: Path, f: np.ndarray, y: np.ndarray, thresholds: np.ndarray) -> Path:
    ax = plotting.plot_ranking(f, y, thresholds)
    return plotting.save_figure(ax, tmp / "ranking.png")


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    out = common.output_folder(args, args.train, f"{args.method}-ranking")
    timer = common.Timer()
    table, scaler, X = common.read_input(args, args.train, timer, args.target)
    with timer("read"):
        assert table.labels is not None
        y = _ranks(np.asarray(table.labels), args.bins)
        if len(np.unique(y)) < 2:
            raise UsageError(f"--target '{args.target}' has a single rank; nothing to rank")
        new = None
        if args.predict:
            frame = read_frame(args.predict)
            missing = [c for c in table.feature_names if c not in frame.columns]
            if missing:
                raise UsageError(f"--predict file lacks the feature column(s) {missing}")
            new = read_table(args.predict, columns=",".join(table.feature_names),
                             id_column=args.id_column, drop_na=args.drop_na, min_rows=1)
    est = common.build_estimator(METHODS[args.method], args)
    with staged_output(out, args.force) as tmp:
        with timer("fit"):
            est.fit(X, y)
        f = est.decision_function(X)
        pred = est.predict(X)
        pd.DataFrame({table.id_name: table.ids, "target": y, "f": f, "rank": pred}).to_csv(
            tmp / "train_predictions.csv", index=False)
        result: dict[str, Any] = {
            "rank_sizes": common.sizes(y),
            "thresholds": np.asarray(est.thresholds_).tolist(),
            "train_mze": metrics.mean_zero_one_error(y, pred),
        }
        if y.dtype.kind in "iuf":
            result["train_mae"] = metrics.mean_absolute_error(y, pred)
        if new is not None:
            Xn = scaler.transform(new.X)
            with timer("predict"):
                pd.DataFrame({new.id_name: new.ids, "f": est.decision_function(Xn),
                              "rank": est.predict(Xn)}).to_csv(tmp / "predictions.csv",
                                                               index=False)
            result["n_predicted"] = len(new.ids)
        figs = [_figure(tmp, f, y, np.asarray(est.thresholds_))]
        summary = common.make_summary("rank", args, args.train, table, est, result, timer,
                                      target=args.target, bins=args.bins)
        common.finish(tmp, f"kernel-patterns rank: {args.method} on {Path(args.train).name}",
                      summary, figs)
    print(f"{args.method}: training MZE {result['train_mze']:.3f}; wrote {out}/")
    return 0


register("rank", "learn ordered ranks from a table (ν-ranking or on-line); predict new rows",
         _args, _run)
