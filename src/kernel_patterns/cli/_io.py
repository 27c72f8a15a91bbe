"""Reading a user's table, with the CLI's rules.

* CSV, TSV (also compressed: ``.csv.gz``, ``.tsv.bz2``, ``.csv.xz``) and Parquet (pandas and
  pyarrow, core dependencies); the input file is only ever read. A European ``.csv`` (``;``
  between fields, ``,`` as the decimal mark), a file that is not UTF-8 (read as
  Windows-1252, else Latin-1, or UTF-16 by its byte-order mark), a first row of numbers only
  (data, not a header: columns ``x0``, ``x1``, …), comment lines above the header, a
  separator other than the name says (tab, ``,``, ``;``, ``|`` or runs of spaces, as
  ``numpy.savetxt`` and R's ``write.table`` write), data rows longer than the header, a
  header naming two columns alike (the second read as ``a.1``; a label or id column so
  named is an error) and rows whose fields are all empty (``,,,``: skipped, as blank lines)
  are read as meant, each told in a note (:attr:`Table.read_notes`);
  :func:`._sniff.csv_options` tells them, for the Dask reader too.
* Every problem with the file (missing, empty, header only, unknown columns, non-numeric
  columns named in ``--columns``, NaN rows) is a :class:`UsageError` naming it: exit code 2,
  one line, no traceback.
* Without ``--columns`` the features are the numeric columns; text columns, empty columns and
  integer row numbers (1..n or 0..n-1, as R's ``rownames``) are left out and named in
  :attr:`Table.dropped_columns`. Without ``--id-column`` a column named id/ID/rownames, else
  the first text column of unique values, is the id column.

Writing the results folder is :mod:`._output`'s.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._registry import UsageError, first_line
from ._roles import ColumnRole, column_stats, decide_roles, guess_id_column
from ._sniff import (
    COMPRESSED,
    WIDE_ENCODINGS,
    check_not_repeated,
    csv_options,
    parquet_left_out,
    parquet_names,
    read_renamed_parquet,
    table_suffix,
)

_READERS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".parquet": None, ".pq": None}
_SPREADSHEETS = {".xlsx", ".xlsm", ".xls", ".ods", ".numbers"}


@dataclass(kw_only=True)
class TableInfo:
    """What reading a user's file found about its columns and rows: the features' and ids'
    names, the truth column, the rows and columns left out and how the file was read. Both
    tables, in memory (:class:`Table`) and on Dask workers (``_dask_io.DaskTable``), carry it."""

    feature_names: list[str]
    id_name: str
    label_name: str | None = None
    n_dropped: int = 0
    dropped_rows: list[Any] = field(default_factory=list)
    id_column: str | None = None
    dropped_columns: dict[str, str] = field(default_factory=dict)
    #: how the file was read when it was not as given (separator, decimal mark, no header)
    read_notes: list[str] = field(default_factory=list)
    #: every column's role and why (:mod:`._roles`), in the file's order
    roles: list[ColumnRole] = field(default_factory=list)
    #: rows in the file before rows with missing values were dropped (``--drop-na``)
    n_read: int = 0
    #: per feature (and the label), how many of the rows read miss a value there
    missing_by_column: dict[str, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class Table(TableInfo):
    """Features, optional ground truth and row identifiers read from a user's file."""

    X: np.ndarray
    ids: np.ndarray
    labels: np.ndarray | None = None
    #: the rows used, every column as read (a pandas DataFrame; not a copy to modify)
    frame: Any = None


def _read_text_table(p: Path, sep: str) -> tuple[Any, list[str], dict[str, list[str]]]:
    """A CSV or TSV read with :func:`csv_options`, its notes and repeated header names; a
    byte past the sample that is not UTF-8 still falls back to Windows-1252, else Latin-1."""
    import pandas as pd

    opts, notes, repeated = csv_options(p, sep)
    try:
        df = pd.read_csv(p, **opts)
    except UnicodeDecodeError as exc:
        if opts["encoding"] in WIDE_ENCODINGS:  # its byte-order mark says what it is
            raise UsageError(
                f"could not read '{p}': it starts with a {opts['encoding'].upper()} byte-order "
                f"mark but does not decode as {opts['encoding'].upper()} ({exc.reason} at "
                f"byte {exc.start}); the file may be cut short: save it again") from None
        for encoding in ("cp1252", "latin-1"):
            try:
                df = pd.read_csv(p, **(opts | {"encoding": encoding}))
                break
            except UnicodeDecodeError:
                continue
        notes = [n for n in notes if not n.startswith("the file is not UTF-8")]
        notes.append(f"the file is not UTF-8: read as {encoding}")
    return df, notes, repeated


def _read_parquet(p: Path) -> tuple[Any, list[str], dict[str, list[str]]]:
    """A Parquet file, its notes and repeated column names (:func:`parquet_names`)."""
    import pandas as pd

    try:
        names, notes, repeated = parquet_names(p)
        keep, left_out = parquet_left_out(p, names)
        if not repeated and not left_out:
            return pd.read_parquet(p), notes, repeated
        return read_renamed_parquet(p, names, keep), notes + left_out, repeated
    except (OSError, ValueError) as exc:  # pyarrow's errors (a damaged footer: thrift's)
        raise UsageError(f"could not read '{p}': not a readable Parquet file "
                         f"({first_line(exc)}); write it again") from None


def read_frame(path: str | Path) -> Any:
    """Read a CSV, TSV or Parquet file into a pandas DataFrame (clear errors); its ``attrs``
    hold the notes on how it was read and the names the header repeats."""
    import pandas as pd

    p = Path(path)
    if not p.exists():
        raise UsageError(f"input file '{p}' does not exist")
    if p.is_dir():
        parts = any(f.suffix.lower() in (".parquet", ".pq") for f in p.iterdir())
        raise UsageError(f"input '{p}' is a folder, not a file"
                         + ("; a folder of Parquet parts is read on a Dask cluster: pass "
                            "--scheduler ADDRESS" if parts else ""))
    suffix = table_suffix(p)
    if suffix not in _READERS:
        raise UsageError(
            f"input '{p}' has an unsupported type '{suffix}'; use .csv, .tsv or .parquet"
            + ("; save the sheet as CSV" if suffix in _SPREADSHEETS else "")
            + ("; a text table: name it .csv or .tsv" if suffix == ".txt" else "")
            + ("; a compressed table: name it .csv" + suffix + " or .tsv" + suffix
               if suffix in COMPRESSED else "")
        )
    if p.stat().st_size == 0:
        raise UsageError(f"input file '{p}' is empty")
    try:
        notes: list[str] = []
        repeated: dict[str, list[str]] = {}
        if _READERS[suffix] is None:
            df, notes, repeated = _read_parquet(p)
        else:
            df, notes, repeated = _read_text_table(p, str(_READERS[suffix]))
    except pd.errors.EmptyDataError:
        raise UsageError(f"input file '{p}' is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError, OSError, EOFError,
            zlib.error) as exc:
        raise UsageError(f"could not read '{p}': {first_line(exc)}") from None
    if df.shape[1] == 0:
        raise UsageError(f"input file '{p}' has no columns")
    blank = is_blank_row(df)
    if blank.any():  # rows of empty fields (",,,"): blank lines, as pandas skips those
        df = df[~blank].reset_index(drop=True)
        notes.append(blank_rows_note(int(blank.sum())))
    if df.shape[0] == 0:
        raise UsageError(f"input file '{p}' has a header but no data rows")
    df.attrs["read_notes"] = notes
    df.attrs["repeated_names"] = repeated
    return df


def is_blank_row(df: Any) -> np.ndarray:
    """Which rows of ``df`` have every field empty (``,,,`` in a CSV; or a missing-value
    mark such as ``NA``): they hold nothing, no id, feature or label, and are read as the
    blank lines pandas skips. The local and the Dask readers (per partition) drop them."""
    return np.asarray(df.isna().all(axis=1), dtype=bool)


def blank_rows_note(n: int) -> str:
    """The note for ``n`` rows of empty fields left out (:func:`is_blank_row`)."""
    return f"skipped {n} row(s) whose fields are all empty, as blank lines"


def _split_names(text: str | None, option: str = "--columns") -> list[str] | None:
    if text is None:
        return None
    names = [c.strip() for c in text.split(",") if c.strip()]
    if not names:
        raise UsageError(f"{option} is empty")
    return names


@dataclass
class ColumnChoice:
    """Which columns of a table are the features, the ids and the ground truth, and the role
    of every column (:mod:`._roles`)."""

    features: list[Any]
    id_column: Any
    label_column: Any
    dropped_columns: dict[str, str] = field(default_factory=dict)
    roles: list[ColumnRole] = field(default_factory=list)


#: roles of columns left out of the features (named in ``dropped_columns``)
_LEFT_OUT = ("id", "label-like", "constant", "text", "empty")


def choose_columns(
    df: Any,
    *,
    columns: str | None = None,
    label_column: str | None = None,
    id_column: str | None = None,
    keep_columns: str | None = None,
    label_option: str = "--label-column",
    stats: Any = None,
    why_not_numeric: Callable[[Any], str] | None = None,
    repeated: dict[str, list[str]] | None = None,
) -> ColumnChoice:
    """The CLI's column rules, on a pandas DataFrame's columns and dtypes.

    Every column gets a role (:func:`._roles.decide_roles`): features are ``columns``, by
    default every numeric column that is not the label, an id (row numbers, row numbers within
    groups, a unique integer key), label-like (few whole numbers named like a class, a year),
    constant or empty; ``keep_columns`` (``--keep-columns``) puts such numeric columns back.
    Without ``id_column``, a column named id/ID/rownames, else the first text column of unique
    values, is the id column. The statistics the rules read are ``stats``
    (:func:`._roles.column_stats` of ``df`` by default; the ``--scheduler`` path passes them
    over the whole Dask frame and a sample of its rows as ``df``), and the reason a column is
    not numeric, ``why_not_numeric(name)``. A label or id column the user names that is one of
    several the header names alike (``repeated``, :func:`._sniff.csv_options`) is an error.
    """
    why_not_numeric = why_not_numeric or (lambda c: not_numeric(df[c]))
    for opt, col in ((label_option, label_column), ("--id-column", id_column)):
        check_not_repeated(opt, col, repeated or {})
        if col is not None and col not in df.columns:
            raise UsageError(
                f"{opt} '{col}' is not a column of the input; columns are {list(df.columns)}"
            )
    if id_column is not None and id_column == label_column:
        raise UsageError(f"--id-column and {label_option} name the same column '{id_column}'; "
                         f"it cannot be both the row ids and the {label_option} column: choose "
                         "another for one of them")
    wanted = _split_names(columns)
    keep = _split_names(keep_columns, "--keep-columns") or []
    unknown = [c for c in keep if c not in df.columns]
    if unknown:
        raise UsageError(f"--keep-columns names unknown column(s) {unknown}; "
                         f"columns are {list(df.columns)}")
    if stats is None:
        stats = column_stats(df)
    id_given = id_column is not None
    if id_column is None:
        id_column = guess_id_column(stats, {label_column, *(wanted or [])})
    excluded = {c for c in (label_column, id_column) if c is not None}
    for c in keep:
        if c in excluded:
            raise UsageError(f"--keep-columns '{c}' is the {'label' if c == label_column else 'id'}"
                             " column; it cannot be a feature too")
        if not _is_numeric(df[c]):
            raise UsageError(f"--keep-columns '{c}' is not numeric ({why_not_numeric(c)})")
    roles = decide_roles(stats, label_column=label_column, id_column=id_column,
                         id_given=id_given, columns=wanted, keep=keep,
                         why_not_numeric=why_not_numeric, label_option=label_option)
    dropped_cols: dict[str, str] = {}
    if wanted is None:
        wanted = [c for c, r in zip(df.columns, roles, strict=True) if r.role == "feature"]
        dropped_cols = {r.name: r.reason for c, r in zip(df.columns, roles, strict=True)
                        if r.role in _LEFT_OUT and c not in excluded}
    else:
        missing = [c for c in wanted if c not in df.columns]
        if missing:
            raise UsageError(f"--columns names unknown column(s) {missing}; "
                             f"columns are {list(df.columns)}")
        clash = [c for c in wanted if c in excluded]
        if clash:
            raise UsageError(f"column(s) {clash} cannot be both a feature and the label/id")
    if not wanted:
        raise UsageError("no numeric feature columns left to use"
                         + (f" (left out: {dropped_cols})" if dropped_cols else "")
                         + ("; --keep-columns puts label-like or constant columns back"
                            if dropped_cols else ""))
    bad = [c for c in wanted if not _is_numeric(df[c])]
    if bad:
        why = "; ".join(f"'{c}': {r.removeprefix('not numeric: ')}" for c in bad
                        if (r := why_not_numeric(c)) != "not numeric")
        raise UsageError(f"feature column(s) {bad} are not numeric" + (f" ({why})" if why else "")
                         + "; choose numeric features with --columns")
    return ColumnChoice(wanted, id_column, label_column, dropped_cols, roles)


def read_table(
    path: str | Path,
    *,
    columns: str | None = None,
    label_column: str | None = None,
    id_column: str | None = None,
    drop_na: bool = False,
    min_rows: int = 2,
    label_option: str = "--label-column",
    keep_columns: str | None = None,
) -> Table:
    """Read features (``columns``, default: every numeric column but the label, the id and
    row-number columns); ``label_option`` is the flag named when ``label_column`` is unknown."""
    df = read_frame(path)
    choice = choose_columns(df, columns=columns, label_column=label_column,
                            id_column=id_column, label_option=label_option,
                            keep_columns=keep_columns, repeated=df.attrs.get("repeated_names"))
    wanted, id_column, dropped_cols = choice.features, choice.id_column, choice.dropped_columns
    feats = df[wanted]
    X = feats.to_numpy(dtype=np.float64)
    ids = df[id_column].to_numpy() if id_column else np.arange(len(df))
    labels = df[label_column].to_numpy() if label_column else None
    bad_rows = ~np.isfinite(X).all(axis=1)
    label_na = (df[label_column].isna().to_numpy() if labels is not None
                else np.zeros(len(df), dtype=bool))
    bad_rows |= label_na
    n_bad = int(bad_rows.sum())
    missing = dict(zip([str(c) for c in wanted], (~np.isfinite(X)).sum(axis=0).tolist(),
                       strict=True))
    if label_column is not None:
        missing[str(label_column)] = int(label_na.sum())
    n_read = len(X)
    dropped: list[Any] = []
    if n_bad:
        if not drop_na:
            raise missing_values_error(
                n_bad, [_row_name(i, ids) for i in np.flatnonzero(bad_rows)[:5]],
                dict(zip(wanted, (~np.isfinite(X)).sum(axis=0).tolist(), strict=True)),
                int(label_na.sum()), label_column, label_option)
        dropped = [_row_name(i, ids) for i in np.flatnonzero(bad_rows)]
        keep = ~bad_rows
        df = df[keep]
        X, ids = X[keep], ids[keep]
        labels = labels[keep] if labels is not None else None
    if X.shape[0] < min_rows:
        raise UsageError(f"only {X.shape[0]} usable row(s); at least {min_rows} are needed")
    return Table(X=X, feature_names=[str(c) for c in wanted], ids=ids,
                 id_name=str(id_column) if id_column else "row", labels=labels,
                 label_name=label_column, n_dropped=n_bad if drop_na else 0,
                 dropped_rows=dropped, id_column=str(id_column) if id_column else None,
                 dropped_columns=dropped_cols, read_notes=list(df.attrs.get("read_notes", [])),
                 roles=choice.roles, n_read=n_read, frame=df,
                 missing_by_column={c: k for c, k in missing.items() if k})


def missing_values_error(
    n_bad: int, first: list[Any], per_feature: dict[Any, int], n_label_na: int,
    label_column: str | None, label_option: str,
) -> UsageError:
    """The error for ``n_bad`` rows with missing or infinite values (``first``: the ids of
    the first few), naming the features that hold them with their counts
    (``per_feature``, most first) and the ``label_column`` (given by ``label_option``) when
    ``n_label_na`` of its values are missing. The local and the Dask readers raise it."""
    cols = ", ".join(f"{name} ({count})" for name, count in
                     sorted(per_feature.items(), key=lambda item: -item[1]) if count)
    # a missing label (or target) is named as such: --columns cannot leave it out
    found = "; ".join(filter(None, [
        f"by feature: {cols}" if cols else "",
        f"in {label_option} '{label_column}' ({n_label_na})" if n_label_na else ""]))
    return UsageError(
        f"{n_bad} row(s) have missing or infinite values (first: {first}"
        + (f"; {found}" if found else "") + "); fix them"
        + (", leave those features out with --columns," if cols else "")
        + " or pass --drop-na to drop the rows"
    )


def _row_name(i: Any, ids: np.ndarray) -> Any:
    v = ids[i]
    return v.item() if isinstance(v, np.generic) else v


#: signs around numbers in a spreadsheet's text (currency, percent, thousands, spaces)
_DECORATION = r"[\s$€£¥%,'\u00a0\u202f]"


def not_numeric(series: Any) -> str:
    """Why a column is not a feature: ``true/false`` for booleans; whole numbers beyond 64
    bits (pandas keeps them as Python ints); for text of numbers (at
    least half its values are numbers once currency and percent signs, thousands separators
    and spaces are taken out), how many values are not numbers and the first of them
    (``'$3.50'``, a missing-value mark such as ``'?'``); else ``not numeric``."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(series):
        return "not numeric: true/false"
    values = series.dropna()
    if len(values) and all(type(v) is int for v in values.iloc[:1000]):
        # pandas keeps whole numbers past 64 bits as Python ints (text to the rules here)
        big = next((v for v in values.iloc[:1000] if abs(v) >= 2**63), values.iloc[0])
        return (f"not numeric: whole numbers beyond 64 bits, e.g. {big}; write them with a "
                "decimal point or an exponent (1e30) to read them as numbers")
    text = values.astype(str)
    if not mostly_numbers(text):
        return "not numeric"
    strict, plain = non_numbers(text)
    bad = strict if len(strict) else plain
    return not_numbers_reason(len(bad), bad.iloc[0] if len(bad) else None)


def mostly_numbers(text: Any) -> bool:
    """At least half of the first 1000 values of ``text`` (strings) are numbers once currency
    and percent signs, thousands separators and spaces are taken out."""
    import pandas as pd

    head = text.iloc[:1000].str.replace(_DECORATION, "", regex=True).str.replace("\u2212", "-")
    return bool(len(head) and pd.to_numeric(head, errors="coerce").notna().mean() >= 0.5)


def non_numbers(text: Any) -> tuple[Any, Any]:
    """The values of ``text`` (strings) that are not numbers, a number with a decimal comma
    counted as one (the file's decimal mark may be ','), and those that are not numbers
    written with a '.': :func:`not_numeric` names the first if there are any, else the
    second (the Dask reader adds them up over the partitions)."""
    import pandas as pd

    stripped = text.str.strip()
    plain = pd.to_numeric(stripped, errors="coerce").isna()
    comma = pd.to_numeric(stripped.str.replace(",", "."), errors="coerce").isna()
    return text[plain & comma], text[plain]


def not_numbers_reason(n: int, first: Any) -> str:
    """``not numeric``, saying that ``n`` values are not numbers, the first ``first``."""
    if not n:
        return "not numeric"
    if n == 1:
        return f"not numeric: 1 value is not a number, {first!r}"
    return f"not numeric: {n} values are not numbers, e.g. {first!r}"


def _is_numeric(series: Any) -> bool:
    import pandas as pd

    return bool(pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series))


def parse_params(items: list[str] | None, option: str) -> dict[str, Any]:
    """``["gamma=0.5", "l=[400,200]", "matrix=normalized"]`` → a dict (JSON values, else text)."""
    import json

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} expects KEY=VALUE; got {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out
