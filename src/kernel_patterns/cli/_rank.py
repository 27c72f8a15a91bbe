"""``kernel-patterns rank TRAIN --target COL [--predict FILE]``: ν-ranking or on-line ranking.

Besides the training errors it reports k-fold cross-validated ones (``--cv``, default 5): the
scaler and the estimator are refitted on each fold's training rows
(:func:`sklearn.model_selection.cross_val_predict`), so the held-out ranks are honest. The
binning of the target (its own values, or ``--bins`` equal-width ranks) is stated in the
result; a target of more than 20 distinct values, or of distinct values in more than half its
rows (most ranks a single row), and no ``--bins`` is warned about.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .. import _progress
from . import _common as common
from ._io import parse_params, read_frame, read_table
from ._output import staged_output
from ._registry import UsageError, register
from ._report import ReportSection, ReportTable

#: ``--method`` -> the estimator class's name in :mod:`kernel_patterns.rank` (imported when run)
METHODS: dict[str, str] = {"nu": "NuRanking", "online": "OnlineRanking"}

#: more distinct target values than this (or than half the rows) without ``--bins`` is
#: warned about
MAX_RANKS = 20
#: folds of the held-out errors without ``--cv``
DEFAULT_CV = 5
#: training rows above which ``--method nu`` fits on Nyström features by default, with a
#: note: the exact kernel's SMO takes about 20 s at 20,000 rows and grows as ℓ²
NYSTROM_ROWS = 10_000
#: rows the fit and the cross-validation use at most without ``--fit-rows`` (a
#: rank-stratified random sample; every row is ranked): Nyström's interior point costs
#: O(ℓ r²) per step, 20 s a fit at 200,000 rows, six fits with the default --cv
#: (``benchmarks/bench_rank_200k.py``)
FIT_ROWS = 20_000


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("train", help="CSV, TSV or Parquet file with features and the target rank")
    p.add_argument("--target", required=True, help="column of ordered ranks (or a numeric "
                   "column to cut into --bins equal-width ranks; a text column with --order)")
    p.add_argument("--order", metavar="LOW,...,HIGH",
                   help="the order of a text target's values, lowest first, comma-separated, "
                   "e.g. --order \"Fair,Good,Very Good,Premium,Ideal\" (they become ranks "
                   "1..k)")
    p.add_argument("--predict", help="file of new rows to rank (same feature columns)")
    p.add_argument("--method", choices=sorted(METHODS), default="nu",
                   help="nu: ν-ranking QP (default); online: kernel perceptron ranking")
    p.add_argument("--bins", type=int, help="cut a numeric target into this many equal-width "
                   "ranks 1..bins")
    p.add_argument("--cv", type=int, default=None, help="folds of the cross-validated "
                   f"(held-out) errors reported next to the training ones (default {DEFAULT_CV}"
                   "; 0: none)")
    p.add_argument("--fit-rows", type=int, default=FIT_ROWS, help="fit and cross-validate on "
                   "a rank-stratified random sample of this many rows when the file has more "
                   f"(default {FIT_ROWS:,}; 0: every row); every row is ranked")
    common.add_input_arguments(p, label=False, kernel_help=(
        "kernel name: rbf, gp, linear, polynomial, cosine, ... (default rbf, for nu and "
        "online alike; nu chooses its width by an inner cross-validation)"))


def _ordered(y: np.ndarray, order: str, target: str) -> tuple[np.ndarray, str]:
    """A text target's values as ranks 1..k in the order ``--order`` gives (lowest first)."""
    names = [v.strip() for v in order.split(",") if v.strip()]
    if len(names) < 2:
        raise UsageError(f"--order needs at least two values, comma-separated; got {order!r}")
    if len(set(names)) < len(names):
        raise UsageError(f"--order names a value twice: {order!r}")
    text = np.array([str(v).strip() for v in y], dtype=object)
    unknown = sorted(set(text) - set(names))
    if unknown:
        raise UsageError(f"--order does not name the value(s) {unknown[:5]} of --target "
                         f"'{target}'; it names {names}")
    rank = {v: i + 1 for i, v in enumerate(names)}
    return (np.array([rank[v] for v in text], dtype=np.int64),
            f"--order: the values of '{target}' as ranks 1..{len(names)}: "
            + ", ".join(f"{v} = {i + 1}" for i, v in enumerate(names)))


def _ranks(y: np.ndarray, bins: int | None, target: str,
           order: str | None = None) -> tuple[np.ndarray, str]:
    """The ranks and a sentence saying how they were made from the target."""
    if order is not None:
        if bins is not None:
            raise UsageError("--order and --bins are two ways to make ranks; give one")
        return _ordered(y, order, target)
    if bins is None:
        return y, f"none: each of the {len(np.unique(y))} distinct values of '{target}' is a rank"
    if bins < 2:
        raise UsageError(f"--bins must be >= 2; got {bins}")
    if y.dtype.kind not in "iuf":
        raise UsageError("--bins needs a numeric --target column")
    lo, hi = float(np.min(y)), float(np.max(y))
    edges = np.linspace(lo, hi, bins + 1)
    return (np.clip(np.digitize(y, edges[1:-1]) + 1, 1, bins),
            f"--bins {bins}: equal-width ranks 1..{bins} of '{target}' over [{lo:.4g}, {hi:.4g}]"
            f", inner edges {[float(f'{e:.4g}') for e in edges[1:-1]]}")


def _fit_rows(y: np.ndarray, args: argparse.Namespace) -> tuple[np.ndarray, str | None]:
    """The rows to fit on (all, or ``--fit-rows`` of them drawn per rank in proportion,
    every rank kept, seeded by ``--random-state``) and the note saying so."""
    n = len(y)
    if args.fit_rows < 0:
        raise UsageError(f"--fit-rows must be 0 (every row) or a number of rows; got "
                         f"{args.fit_rows}")
    if not args.fit_rows or n <= args.fit_rows:
        return np.arange(n), None
    rng = np.random.default_rng(args.random_state)
    ranks, counts = np.unique(y, return_counts=True)
    take = np.maximum(np.round(counts * args.fit_rows / n).astype(int), np.minimum(counts, 2))
    rows = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == r), k, replace=False)
                                   for r, k in zip(ranks, take, strict=True)]))
    return rows, (f"{n} rows > --fit-rows {args.fit_rows}: fitted and cross-validated on a "
                  f"random sample of {len(rows)} rows (every rank in proportion); every row is "
                  "ranked (--fit-rows 0: fit on all)")


def _nystrom_by_default(est: Any, args: argparse.Namespace, n_rows: int) -> str | None:
    """Past :data:`NYSTROM_ROWS` training rows, ν-ranking on Nyström features unless
    ``--param approximation=...`` says otherwise: the note saying so, else None."""
    if (args.method != "nu" or n_rows <= NYSTROM_ROWS
            or "approximation" in parse_params(args.param, "--param")):
        return None
    est.set_params(approximation="nystrom")
    m = est.n_landmarks or min(300, n_rows)
    return (f"{n_rows} rows > {NYSTROM_ROWS}: ν-ranking on Nyström features ({m} landmarks; "
            "the exact kernel's fit grows as the rows squared); pass --param "
            "approximation=exact to fit exactly")


def _folds(cv: int | None, n_rows: int) -> int:
    """``--cv`` checked against the rows, or the default when the file has enough of them."""
    if cv is None:
        if n_rows < DEFAULT_CV:
            smaller = f", or a smaller --cv (2 to {n_rows})" if n_rows >= 3 else ""
            raise UsageError(f"the file has {n_rows} usable rows, too few for the default "
                             f"{DEFAULT_CV}-fold cross-validation of the held-out errors; "
                             f"pass --cv 0 to skip it{smaller}")
        return DEFAULT_CV
    if cv == 1 or cv < 0 or cv > n_rows:
        raise UsageError(f"--cv must be 0 (none) or between 2 and the {n_rows} rows; got {cv}")
    return cv


def _cross_validated(est: Any, args: argparse.Namespace, X: np.ndarray,
                     y: np.ndarray) -> np.ndarray:
    """Held-out ranks of every row: scaler + estimator refitted on each fold's other rows."""
    from sklearn.base import clone
    from sklearn.model_selection import KFold, cross_val_predict
    from sklearn.pipeline import make_pipeline

    folds = KFold(n_splits=args.cv, shuffle=True, random_state=args.random_state)
    model = make_pipeline(common.make_scaler(args.scale), clone(est))
    return np.asarray(cross_val_predict(model, X, y, cv=folds))


def _errors(y: np.ndarray, pred: np.ndarray, prefix: str) -> dict[str, float]:
    from .. import metrics

    out = {f"{prefix}_mze": metrics.mean_zero_one_error(y, pred)}
    if y.dtype.kind in "iuf":
        out[f"{prefix}_mae"] = metrics.mean_absolute_error(y, pred)
    return out


def _figure(tmp: Path, f: np.ndarray, y: np.ndarray, thresholds: np.ndarray) -> Path:
    from .. import plotting

    ax = plotting.plot_ranking(f, y, thresholds)
    return plotting.save_figure(ax, tmp / "ranking.png")


def _sections(result: dict[str, Any], y: np.ndarray) -> list[ReportSection]:
    """The report's result (numbers) and the rows of each rank as a table."""
    vals, counts = np.unique(y, return_counts=True)
    rows = [[v.item() if isinstance(v, np.generic) else v, int(c),
             f"{100 * c / len(y):.1f} %"] for v, c in zip(vals, counts, strict=True)]
    rows.append(["all", len(y), "100.0 %"])
    return [ReportSection("Result", rows={k: v for k, v in result.items() if k != "rank_sizes"}),
            ReportSection("Rank sizes", tables=[ReportTable(["rank", "rows", "share"], rows)])]


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    out = common.output_folder(args, args.train, f"{args.method}-ranking")
    from .. import rank

    method = getattr(rank, METHODS[args.method])
    timer = common.Timer("rank")
    table, scaler, X = common.read_input(args, args.train, timer, args.target, "--target",
                                         fit=method, fit_rows=args.fit_rows or None)
    with timer("read"):
        assert table.labels is not None
        y, binning = _ranks(np.asarray(table.labels), args.bins, args.target, args.order)
        n_ranks = len(np.unique(y))
        if n_ranks < 2:
            raise UsageError(f"--target '{args.target}' has a single rank; nothing to rank")
        args.cv = _folds(args.cv, len(y))
        warnings = []
        if args.bins is None and (n_ranks > MAX_RANKS or n_ranks > max(2, len(y) / 2)):
            warnings.append(f"--target '{args.target}' has {n_ranks} distinct values in "
                            f"{len(y)} rows and each is a rank; pass --bins K to cut it into "
                            "K ranks")
            _progress.write(f"kernel-patterns rank: warning: {warnings[-1]}", file=sys.stderr)
        new = None
        if args.predict:
            frame = read_frame(args.predict)
            missing = [c for c in table.feature_names if c not in frame.columns]
            if missing:
                raise UsageError(f"--predict file lacks the feature column(s) {missing}")
            id_col = args.id_column
            if id_col is None and table.id_column in frame.columns:
                id_col = table.id_column  # the training file's (guessed) id column
            new = read_table(args.predict, columns=",".join(table.feature_names),
                             id_column=id_col, drop_na=args.drop_na, min_rows=1)
            loss = common.row_loss_warning(new)
            if loss:
                _progress.write(f"kernel-patterns rank: warning: --predict file: {loss}",
                                file=sys.stderr)
    est = common.build_estimator(method, args)
    fit_rows, sampled = _fit_rows(y, args)
    for note in (sampled, _nystrom_by_default(est, args, len(fit_rows))):
        if note:
            _progress.write(f"kernel-patterns rank: note: {note}", file=sys.stderr)
    def fit_and_cross_validate() -> np.ndarray | None:
        with timer("fit"):
            est.fit(X[fit_rows], y[fit_rows])
        if not args.cv:
            return None
        with timer("cross_validation"):
            held_out = _cross_validated(est, args, table.X[fit_rows], y[fit_rows])
        if len(fit_rows) == len(y):
            return held_out
        every = np.full(len(y), None, dtype=object)  # an empty field for the rows not fitted
        every[fit_rows] = held_out
        return every

    with staged_output(out, args.force) as tmp:
        # each distinct warning once, as one line (the folds refit and warn again)
        cv_rank, notes = common.noting_warnings("rank", fit_and_cross_validate)
        warnings += [note for note in notes if note not in warnings]
        f = est.decision_function(X)
        pred = est.predict(X)
        columns = {table.id_name: table.ids, "target": y, "f": f, "rank": pred}
        result: dict[str, Any] = {
            "binning": binning,
            "n_ranks": n_ranks,
            "rank_sizes": common.sizes(y),
            "thresholds": np.asarray(est.thresholds_).tolist(),
        } | _errors(y, pred, "train")
        if cv_rank is not None:
            columns["cv_rank"] = cv_rank
            result["cv_folds"] = args.cv
            result |= _errors(y[fit_rows], np.asarray(cv_rank[fit_rows]).astype(y.dtype),
                              "cv")
        if sampled:
            result["fit_rows"] = len(fit_rows)
        if warnings:
            result["warnings"] = warnings
        pd.DataFrame(columns).to_csv(tmp / "train_predictions.csv", index=False)
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
                      summary, figs, _sections(result, y))
    held_out = (f", {args.cv}-fold cross-validated MZE {result['cv_mze']:.3f}" if args.cv
                else "")
    _progress.write(f"{args.method}: training MZE {result['train_mze']:.3f}{held_out}; "
                    f"wrote {out}/")
    return 0


register("rank", "learn ordered ranks from a table (ν-ranking or on-line); predict new rows",
         _args, _run)
