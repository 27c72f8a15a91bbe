"""Pieces shared by the ``cluster``, ``rank`` and ``embed`` commands."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import _progress
from ..io import write_json_atomic, write_text_atomic
from ._io import Table, parse_params, read_table
from ._output import check_output
from ._registry import UsageError
from ._report import ReportSection, input_section, render_report
from ._roles import role_notes


def add_input_arguments(p: argparse.ArgumentParser, *, label: bool = True,
                        kernel_help: str | None = None) -> None:
    """Options every data command shares (columns, ids, scaling, kernel, output);
    ``kernel_help`` says what ``--kernel`` defaults to for the command (default: the cluster
    command's methods)."""
    p.add_argument("--columns", help="comma-separated feature columns (default: every numeric "
                   "column but the label, ids (row numbers, keys), label-like columns (few "
                   "whole numbers named like a class, a year) and constants; each told)")
    p.add_argument("--keep-columns", metavar="NAMES",
                   help="comma-separated numeric columns left out by default (label-like, "
                   "ids, constants) to use as features after all")
    if label:
        p.add_argument("--label-column", help="ground-truth column to score against "
                       "(excluded from the features)")
    p.add_argument("--id-column", help="column of row identifiers, carried into the outputs "
                   "(default: a column named id/ID/rownames, else the first text column of "
                   "unique values, else row numbers)")
    p.add_argument("--scale", choices=["minmax", "standard", "none"], default="minmax",
                   help="feature scaling: minmax to [0, 1] (default, the GP paper's), "
                   "standard (zero mean, unit variance) or none")
    p.add_argument("--drop-na", action="store_true",
                   help="drop rows with missing values (counted in the summary) instead of "
                   "failing")
    p.add_argument("--kernel", help=kernel_help or (
        "kernel name: rbf, gp, linear, polynomial, cosine, ... (default: the method's own: rbf "
        "for the k-means methods, the k-nearest-neighbour graph 'nearest_neighbors' for "
        "spectral, chosen from the data for gp)"))
    p.add_argument("--kernel-param", action="append", metavar="KEY=VALUE",
                   help="a kernel parameter, e.g. gamma=0.5 or l=[400,200] (repeatable); "
                   "without --kernel, of the method's default kernel")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="any other parameter of the estimator, e.g. beta=0.6 (repeatable)")
    p.add_argument("--random-state", type=int, default=0, help="seed (default 0)")
    p.add_argument("--out", help="output folder (default: next to the input, named after it)")
    p.add_argument("--force", action="store_true", help="replace an existing output folder")


def make_scaler(how: str) -> Any:
    from sklearn.preprocessing import FunctionTransformer, MinMaxScaler, StandardScaler

    return {"minmax": MinMaxScaler(), "standard": StandardScaler(),
            "none": FunctionTransformer()}[how]


def build_estimator(
    cls: type[Any], args: argparse.Namespace, fixed: dict[str, Any] | None = None
) -> Any:
    """Instantiate ``cls`` with the command's kernel, seed and ``--param`` values.

    The values are only passed on: the estimator validates them when it fits. ``fixed`` holds
    what the command's own options set (``--n-clusters``: ``n_clusters``); a ``--param`` of
    the same name is an error naming both, not a silent override.
    """
    from ..kernels import KERNELS, make_kernel

    name = cls.__name__
    est = cls()
    valid = est.get_params(deep=False)
    params: dict[str, Any] = dict(fixed or {})
    if "random_state" in valid:
        params["random_state"] = args.random_state
    kparams = parse_params(args.kernel_param, "--kernel-param")
    kernel = args.kernel
    if kernel is None and kparams:  # parameters of the method's default kernel (a name)
        kernel = valid.get("kernel")
        if not isinstance(kernel, str):
            raise UsageError(f"{name} chooses its kernel from the data; name the kernel the "
                             "--kernel-param values are for with --kernel (e.g. --kernel gp)")
    if kernel is not None:
        if "kernel" not in valid:
            raise UsageError(f"{name} takes no kernel")
        if isinstance(kernel, str) and kernel.lower() not in KERNELS:
            # an affinity the estimator builds itself (SpectralClustering's default
            # 'nearest_neighbors'): passed on by name, its parameter is --param n_neighbors
            if kparams:
                raise UsageError(
                    f"{name}'s kernel {kernel!r} (a k-nearest-neighbour graph) takes no "
                    "--kernel-param; use --kernel rbf with --kernel-param gamma=..., or "
                    "--param n_neighbors=..."
                )
            params["kernel"] = kernel
        else:
            try:
                params["kernel"] = make_kernel(kernel, kparams or None)
            except TypeError as exc:  # an unknown keyword of the kernel class
                raise UsageError(f"--kernel-param: {exc}") from None
    extra = parse_params(args.param, "--param")
    for key in sorted(set(extra) & set(fixed or {})):
        flag = "--" + key.replace("_", "-")
        raise UsageError(f"--param {key}={extra[key]} sets {key}, which {flag} sets "
                         f"({flag} {params[key]} here); give it once, with {flag}")
    unknown = sorted(set(extra) - set(valid))
    if unknown:
        raise UsageError(f"{name} has no parameter(s) {unknown}; it has {sorted(valid)}")
    params.update(extra)
    for key in params:
        if key not in valid:
            raise UsageError(f"{name} has no parameter {key!r}")
    est.set_params(**params)
    return est


def read_input(
    args: argparse.Namespace, path: str, timer: Timer, label_column: str | None,
    label_option: str = "--label-column", fit: type[Any] | None = None,
    fit_rows: int | None = None,
) -> tuple[Table, Any, np.ndarray]:
    """Read the command's table (``--columns``, ``--id-column``, ``--drop-na``) and scale its
    features (``--scale``): the table, the fitted scaler and the scaled features. Columns left
    out of the features and a guessed id column are told in one line on stderr. First, a
    table too large to read here, or for the exact fit of ``fit`` (the estimator class, on
    at most ``fit_rows`` rows), is refused before it is read (:func:`._door.check_at_the_door`)."""
    from ._door import check_at_the_door  # here: it imports the kernels (scikit-learn)

    check_at_the_door(path, build_estimator(fit, args) if fit is not None else None, fit_rows)
    with timer("read"):
        table = read_table(path, columns=args.columns, label_column=label_column,
                           id_column=args.id_column, drop_na=args.drop_na,
                           label_option=label_option,
                           keep_columns=getattr(args, "keep_columns", None))
    with timer("scale"):
        scaler = make_scaler(args.scale)
        X = scaler.fit_transform(table.X)
    _check_spread(X, table.feature_names, args.scale)
    tell_columns(args, table)
    return table, scaler, X


def _check_spread(X: np.ndarray, names: list[str], scale: str) -> None:
    """A UsageError naming the feature columns whose values differ by less than 1e-154 after
    ``--scale`` (subnormal numbers, which scikit-learn's scalers leave as they are): their
    squared differences, which every kernel takes, underflow to 0."""
    spread = np.ptp(X, axis=0) if X.size else np.zeros(0)
    tiny = [n for n, s in zip(names, spread, strict=True) if 0 < s < 1e-154]
    if tiny:
        raise UsageError(f"feature column(s) {tiny} vary by less than 1e-154 even after "
                         f"--scale {scale}: their squared differences underflow to 0, so no "
                         "kernel tells their values apart; multiply them up in the file or "
                         "leave them out with --columns")


#: column names that read like ground-truth labels (compared stripped and in lower case)
LABEL_LIKE_NAMES = frozenset({"label", "labels", "class", "target", "truth"})


def column_notes(args: argparse.Namespace, table: Any) -> list[str]:
    """What :func:`tell_columns` prints: how the file was read when not as given, one line per
    role that left columns out of the features (ids, label-like, constant, text, empty:
    :func:`._roles.role_notes`), a guessed id column, and a feature named like labels
    (``label``, ``class``, ...: :data:`LABEL_LIKE_NAMES`) used as one because the command has
    ``--label-column`` and it was not given (nor ``--columns``)."""
    notes = list(getattr(table, "read_notes", []))
    suggest = "label_column" in vars(args) and args.label_column is None
    roles = getattr(table, "roles", None)
    if roles:
        notes += role_notes(roles, label_option="--label-column" if suggest else None)
    elif table.dropped_columns:  # a table read without roles
        notes.append("left out of the features: " + ", ".join(
            f"'{c}' ({why})" for c, why in table.dropped_columns.items()))
    if args.id_column is None and table.id_column is not None:
        notes.append(f"row ids from column '{table.id_column}'")
    if suggest and args.columns is None:
        for c in table.feature_names:
            if c.strip().lower() in LABEL_LIKE_NAMES:
                notes.append(f"column '{c}' is used as a feature, though its name reads like "
                             f"labels; pass --label-column {c} to use it as the labels (the "
                             "ground truth, left out of the features)")
    return notes


def row_loss_warning(table: Any) -> str | None:
    """The warning for rows dropped with missing values (``--drop-na``): how many of how
    many, the share; when more than half, the columns that miss the most values.

    Examples
    --------
    >>> import types
    >>> import numpy as np
    >>> t = types.SimpleNamespace(n_dropped=3, n_read=4, X=np.zeros((1, 2)),
    ...                           missing_by_column={"gust": 3})
    >>> row_loss_warning(t)
    "dropped 3 of the 4 rows (75.0 %) for missing values (--drop-na); most of them miss 'gust' (3 rows): --columns without them keeps more rows"
    """  # noqa: E501
    n_dropped = int(getattr(table, "n_dropped", 0))
    n_read = int(getattr(table, "n_read", 0)) or n_dropped + int(table.X.shape[0])
    if not n_dropped:
        return None
    share = n_dropped / n_read
    line = (f"dropped {n_dropped} of the {n_read} rows ({100 * share:.1f} %) for missing "
            "values (--drop-na)")
    missing = getattr(table, "missing_by_column", {}) or {}
    if share > 0.5 and missing:
        worst = sorted(missing.items(), key=lambda item: -item[1])[:3]
        line += "; most of them miss " + ", ".join(
            f"'{c}' ({k} row{'' if k == 1 else 's'})" for c, k in worst) + (
            ": --columns without them keeps more rows")
    return line


def tell_columns(args: argparse.Namespace, table: Any) -> None:
    """Note lines on stderr: one per role that left columns out of the features, one with the
    other notes (how the file was read, a guessed id column); and a warning line when rows
    were dropped (:func:`row_loss_warning`)."""
    prog = " ".join(filter(None, ["kernel-patterns", getattr(args, "command", None)]))
    notes = column_notes(args, table)
    left_out = [n for n in notes if n.startswith("left out of the features")]
    other = [n for n in notes if n not in left_out]
    for note in [*left_out, *(["; ".join(other)] if other else [])]:
        _progress.write(f"{prog}: note: {note}", file=sys.stderr)
    loss = row_loss_warning(table)
    if loss:
        _progress.write(f"{prog}: warning: {loss}", file=sys.stderr)


def make_summary(
    command: str, args: argparse.Namespace, path: str, table: Table, est: Any,
    result: dict[str, Any], timer: Timer, **input_extra: Any,
) -> dict[str, Any]:
    """The ``summary.json`` of a data command: input, parameters, result and timings."""
    return {
        "command": command,
        "method": args.method,
        "input": input_summary(table, path, args.scale) | input_extra
        | {"notes": column_notes(args, table)}
        | ({"row_loss": loss} if (loss := row_loss_warning(table)) else {}),
        "parameters": json_params(est) | fitted_kernel(est),
        "result": result,
        "timings_seconds": timer.times,
    }


def output_folder(args: argparse.Namespace, input_path: str, suffix: str) -> Path:
    """``--out``, or ``<input stem>-<suffix>`` beside the input; checked before any work."""
    p = Path(input_path)
    return check_output(Path(args.out) if args.out else p.with_name(f"{p.stem}-{suffix}"),
                        args.force, inputs=(input_path, getattr(args, "predict", None)))


def json_params(est: Any) -> dict[str, Any]:
    """Estimator parameters as JSON-friendly values (objects by their repr)."""
    out: dict[str, Any] = {}
    for k, v in est.get_params(deep=False).items():
        out[k] = v if isinstance(v, (int, float, str, bool, type(None), list)) else repr(v)
    return out


def fitted_kernel(est: Any) -> dict[str, str]:
    """``{"kernel_": repr}`` of the kernel a fitted estimator used (chosen from the data when
    none was given), with ``"feature_transform_"`` when the estimator Gaussianised
    heavy-tailed features first (``feature_transform="auto"``) or centred data far from
    the origin (GPClustering); or nothing."""
    kernel = getattr(est, "kernel_", None)
    out = {} if kernel is None else {"kernel_": repr(kernel)}
    transform = getattr(est, "feature_transform_", None)
    if transform is not None:
        out["feature_transform_"] = (
            "standardise, then Yeo-Johnson (heavy-tailed features)"
            if "powertransformer" in getattr(transform, "named_steps", {})
            else "centre (data far from the origin)")
    return out


def input_summary(table: Table, path: str, scale: str) -> dict[str, Any]:
    return {
        "file": str(path),
        "n_rows_used": int(table.X.shape[0]),
        "n_rows_dropped": int(table.n_dropped),
        "dropped_rows": table.dropped_rows[:100],
        "features": table.feature_names,
        "dropped_columns": table.dropped_columns,
        "id_column": table.id_column,
        "label_column": table.label_name,
        "scale": scale,
        "column_roles": [{"column": r.name, "role": r.role, "reason": r.reason}
                         for r in getattr(table, "roles", [])],
    } | ({"read_notes": table.read_notes} if getattr(table, "read_notes", None) else {})


def finish(
    tmp: Path, title: str, summary: dict[str, Any], figures: list[Path],
    sections: list[ReportSection] | None = None,
    captions: dict[Path, str] | None = None,
) -> None:
    """Write summary.json and report.html into the staged folder.

    ``sections`` default to the summary's result; the input (what was read, left out and
    printed; :func:`~._report.input_section`) and the parameters follow them. ``captions``
    describe figures.
    """
    if sections is None:
        sections = [ReportSection("Result", rows=summary["result"])]
    inp = summary["input"]
    printed = [f"note: {n}" for n in inp.get("notes", [])] + [
        f"warning: {inp['row_loss']}" for _ in [0] if inp.get("row_loss")] + [
        f"warning: {w}" for w in summary["result"].get("warnings", [])]
    sections = [*sections, input_section(inp, printed),
                ReportSection("Parameters", rows=summary["parameters"])]
    write_json_atomic(tmp / "summary.json", summary)
    write_text_atomic(tmp / "report.html",
                      render_report(title, summary, figures, sections, captions))


class Timer:
    """Collects named stage timings (seconds) and, given the ``command``, shows the stages on
    a terminal (:func:`kernel_patterns._progress.stage_bar`: after 2 s, not with
    ``--quiet`` nor in pipes); ``stages`` is how many the command runs, when known."""

    def __init__(self, command: str | None = None, stages: int | None = None) -> None:
        self.times: dict[str, float] = {}
        self.bar = (_progress.stage_bar(stages, f"kernel-patterns {command}")
                    if command else None)

    def __call__(self, name: str) -> _Stage:
        return _Stage(self, name)


class _Stage:
    def __init__(self, timer: Timer, name: str) -> None:
        self.timer, self.name = timer, name

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()
        if self.timer.bar is not None:
            self.timer.bar.stage(self.name)

    def __exit__(self, *exc: Any) -> None:
        if self.timer.bar is not None:
            self.timer.bar.update(1)
        # a stage entered twice (e.g. "read": the table, then the target) adds up
        spent = time.perf_counter() - self.t0 + self.timer.times.get(self.name, 0.0)
        self.timer.times[self.name] = round(spent, 4)


def sizes(labels: np.ndarray) -> dict[str, int]:
    vals, counts = np.unique(labels, return_counts=True)
    return {str(v): int(c) for v, c in zip(vals, counts, strict=True)}


def warning_line(command: str, message: object) -> str:
    """A warning as the command line prints it: one line, no source path."""
    text = " ".join(str(message).split())
    return f"kernel-patterns {command}: warning: {text}"


def noting_warnings(command: str, fit: Callable[[], Any]) -> tuple[Any, list[str]]:
    """``fit()``, with every distinct warning it raised printed as one line on stderr
    (:func:`warning_line`) and returned, for the summary, instead of Python's
    ``path:line: Category: message`` and source line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fit()
    notes = list(dict.fromkeys(" ".join(str(w.message).split()) for w in caught))
    for note in notes:
        _progress.write(warning_line(command, note), file=sys.stderr)
    return value, notes
