"""Reading a table partition by partition with ``dask.dataframe`` (``--scheduler``).

Supported inputs: one CSV/TSV file (split into blocks of ``--blocksize`` bytes, Dask's 64 MB by
default; a compressed one, ``.csv.gz``, is one partition), a glob of CSV/TSV files
(``'parts/*.csv'``, quoted, read in sorted order), and a
Parquet file, glob or folder (one partition per file / row group). Dask takes a CSV column's
type from its first rows: whole numbers are read as floats (a value missing further down is
then the local reader's missing-values error, not Dask's type error) and a column of numbers
with text further down is read again as text (not numeric, as locally). The column rules are
those of the local path (:func:`~kernel_patterns.cli._io.choose_columns`): the choice is made
on the frame's dtypes and its first rows, and the rules that look at values (integer row
numbers, a text column of unique ids, the values of such a column that are not numbers) are
checked over the whole frame by Dask. The conversion to float
features, the NaN check (``--drop-na``) and the scaling (``--scale``, from Dask's min/max or
mean/variance of every row) run on the workers; the features stay there, persisted, one chunk
per partition. Results come back partition by partition, in partition order, with a progress
bar the scheduler feeds (a tqdm bar on a terminal; none in pipes or with ``--quiet``).
"""

from __future__ import annotations

import glob
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .. import _progress
from ._dask_roles import whole_frame_stats
from ._io import (
    _READERS,
    Table,
    TableInfo,
    blank_rows_note,
    choose_columns,
    is_blank_row,
    missing_values_error,
    mostly_numbers,
    non_numbers,
    not_numbers_reason,
    not_numeric,
)
from ._registry import UsageError, first_line
from ._sniff import (
    COMPRESSED,
    check_encodings,
    check_parquet_parts,
    csv_options,
    parquet_left_out,
    parquet_names,
    read_renamed_parquet,
    table_suffix,
)

#: rows of the first partition the column choice looks at (dtypes, names).
SAMPLE_ROWS = 1000
_ID, _LABEL, _BAD, _BLANK = "__kp_id__", "__kp_label__", "__kp_bad__", "__kp_blank__"


@dataclass(kw_only=True)
class DaskTable(TableInfo):
    """A table on the workers: features ``X`` (a persisted Dask array, one chunk per
    partition) and a frame holding the ids and the truth of the same rows."""

    X: Any
    frame: Any

    @property
    def n_rows(self) -> int:
        return int(self.X.shape[0])


def _files(path: str) -> list[str]:
    if any(ch in path for ch in "*?["):
        files = sorted(glob.glob(path))
        if not files:
            raise UsageError(f"input pattern '{path}' matches no file")
        return files
    p = Path(path)
    if not p.exists():
        raise UsageError(f"input file '{p}' does not exist")
    if p.is_dir():
        files = sorted(str(f) for f in p.iterdir() if f.suffix.lower() in (".parquet", ".pq"))
        if not files:
            raise UsageError(f"input folder '{p}' holds no .parquet file")
        return files
    return [path]


class Frame(NamedTuple):
    """:func:`read_frame`'s answer."""

    ddf: Any
    notes: list[str]
    ints: list[str]
    repeated: dict[str, list[str]]


def read_frame(path: str, blocksize: str | int | None = None, text: Sequence[str] = ()) -> Frame:
    """A lazy ``dask.dataframe`` of ``path`` (see the module doc for what is supported), the
    notes on how it was read (a European CSV, another encoding, no header row: told from
    the first file's first bytes, as the local reader does, :func:`~._sniff.csv_options`),
    the CSV's columns of whole numbers in Dask's sample, read as floats, and the names its
    header repeats.

    Dask takes each column's type from its sample (the first 10 rows) and fails on a
    partition whose column does not fit it. A column of whole numbers with a value missing
    further down is a column of floats in pandas; so those columns are read as floats
    (:func:`_convert` gives the ids and the truth back as integers). The columns in ``text``
    (numbers in the sample, text further down: :func:`_text_columns`) are read as text."""
    import dask.dataframe as dd
    import pandas as pd

    files = _files(path)
    suffixes = {table_suffix(Path(f)) for f in files}
    bad = sorted(suffixes - set(_READERS))
    if bad or len({_READERS[s] for s in suffixes}) > 1:
        raise UsageError(f"input '{path}' has unsupported or mixed types {sorted(suffixes)}; "
                         "use .csv, .tsv or .parquet files of one kind")
    empty = [f for f in files if Path(f).stat().st_size == 0]
    if empty:
        raise UsageError(f"input file '{empty[0]}' is empty")
    sep = _READERS[suffixes.pop()]
    try:
        if sep is None:
            names, notes, repeated = parquet_names(files[0])
            keep, left_out = parquet_left_out(files[0], names)
            check_parquet_parts(path, files)
            if not repeated and not left_out:
                return Frame(dd.read_parquet(files), notes, [], repeated)
            # a name given to two columns, or columns left out: each file read as the local
            # reader reads it
            return Frame(dd.from_map(read_renamed_parquet, files, names=names, keep=keep),
                         notes + left_out, [], repeated)
        opts, notes, repeated = csv_options(Path(files[0]), sep)
        check_encodings(path, files, opts["encoding"])
        if any(Path(f).suffix.lower() in COMPRESSED for f in files):
            blocksize = None  # a compressed file is one partition (it cannot be split)
        else:
            blocksize = blocksize or "default"
        ddf = dd.read_csv(files, blocksize=blocksize, **opts)
        ints = [str(c) for c, t in ddf.dtypes.items()
                if pd.api.types.is_integer_dtype(t) and str(c) not in text]
        if ints or text:  # read again: Dask reads its sample only, not the file
            # assume_missing: Dask turns the whole numbers to floats (a float64 dtype given
            # to pandas fails on a text value without naming its column)
            ddf = dd.read_csv(files, blocksize=blocksize, assume_missing=True,
                              dtype=dict.fromkeys(text, object), **opts)
        return Frame(ddf, notes, ints, repeated)
    except (ValueError, OSError, EOFError) as exc:  # EOFError: a compressed file cut short
        raise UsageError(f"could not read '{path}': {first_line(exc)}") from None


def _non_number_stats(col: Any) -> Any:
    """One partition's count and first of each kind of :func:`~._io.non_numbers`."""
    import pandas as pd

    strict, plain = non_numbers(col.dropna().astype(str))
    return pd.DataFrame({"strict": [len(strict)], "plain": [len(plain)],
                         "first_strict": [strict.iloc[0] if len(strict) else None],
                         "first_plain": [plain.iloc[0] if len(plain) else None]})


def _why_not_numeric(ddf: Any, client: Any, name: Any, sample: Any, text: list[str]) -> str:
    """The local reason (:func:`~._io.not_numeric`) from the sample; for a column read as
    text for values past Dask's sample (``text``), its values that are not numbers are
    counted over every partition (the sample may hold none)."""
    import pandas as pd

    values = sample[name].dropna().astype(str)
    if str(name) not in text or not mostly_numbers(values):
        return not_numeric(sample[name])
    meta = pd.DataFrame({"strict": [0], "plain": [0], "first_strict": [""],
                         "first_plain": [""]}).astype({"first_strict": object,
                                                       "first_plain": object}).iloc[:0]
    s = client.compute(ddf[name].map_partitions(_non_number_stats, meta=meta)).result()
    kind = "strict" if s["strict"].sum() else "plain"
    first = s.loc[s[kind] > 0, f"first_{kind}"]
    return not_numbers_reason(int(s[kind].sum()), first.iloc[0] if len(first) else None)


def _without_blank_rows(part: Any) -> Any:
    return part[~is_blank_row(part)]


def _as_read(col: Any, ints: list[str]) -> np.ndarray:
    """The values of ``col``; of a column of whole numbers read as floats (``ints``), as
    integers when they all are (as pandas reads them in one go)."""
    v = col.to_numpy()
    if str(col.name) in ints and np.isfinite(v).all() and (v == np.round(v)).all():
        return v.astype(np.int64)
    return v


def _convert(part: Any, features: list[Any], id_column: Any, label_column: Any,
             ints: list[str]) -> Any:
    """One partition as float features, its ids, truth, a bad-row flag and a flag for the rows
    of empty fields (blank lines, not bad rows: the reader drops them; on a worker)."""
    import pandas as pd

    X = part[features].to_numpy(dtype=np.float64)
    out = pd.DataFrame(X, columns=[str(c) for c in features], index=part.index)
    blank = is_blank_row(part)
    bad = ~np.isfinite(X).all(axis=1) & ~blank
    out[_ID] = (_as_read(part[id_column], ints) if id_column is not None
                else np.zeros(len(part)))
    if label_column is not None:
        out[_LABEL] = _as_read(part[label_column], ints)
        bad |= part[label_column].isna().to_numpy() & ~blank
    out[_BAD] = bad
    out[_BLANK] = blank
    return out.reset_index(drop=True)


def _number_rows(part: Any, offset: int) -> Any:
    part = part.copy()
    part[_ID] = np.arange(offset, offset + len(part))
    return part


def _stats(part: Any, names: list[str], label: bool) -> Any:
    """One partition's rows, bad rows, missing labels and non-finite values per feature, all
    without its rows of empty fields, and the number of those."""
    import pandas as pd

    blank = part[_BLANK].to_numpy()
    part = part[~blank]
    counts = (~np.isfinite(part[names].to_numpy())).sum(axis=0)
    return pd.DataFrame({"n": [len(part)], "blank": [int(blank.sum())],
                         "bad": [int(part[_BAD].sum())],
                         "label_na": [int(part[_LABEL].isna().sum()) if label else 0],
                         **{f"f{j}": [int(c)] for j, c in enumerate(counts)}})


def _bad_ids(part: Any) -> list[Any]:
    return [v.item() if isinstance(v, np.generic) else v for v in part.loc[part[_BAD], _ID]]


def _text_columns(exc: BaseException) -> list[str]:
    """The columns of Dask's "Mismatched dtypes" error: numbers in its sample, text in a
    partition (a whole-number column missing a value is read as floats, :func:`read_frame`,
    and makes none)."""
    import re

    text = str(exc)
    if "Mismatched dtypes found" not in text:
        return []
    rows = re.findall(r"^\| (.+?) +\| \S+ +\| \S+ +\|$", text, flags=re.MULTILINE)
    return [r for r in rows if r != "Column"]


def read_table(
    path: str, args: Any, client: Any, label_column: str | None, *,
    label_option: str = "--label-column",
) -> DaskTable:
    """The local ``read_table`` on the workers (same rules, same errors). A column of numbers
    in Dask's sample with text further down is read again as text (as the local reader reads
    it: not numeric), and so on until no partition fails."""
    text: list[str] = []
    while True:
        try:
            return _read_table(path, args, client, label_column, label_option, text)
        except UnicodeDecodeError as exc:  # a byte past the sample, on a worker
            raise UsageError(
                f"could not read '{path}': a part is not in the encoding of the first file's "
                f"first bytes, {exc.encoding} ({exc.reason} at byte {exc.start}); save every "
                "file in one encoding (UTF-8)") from None
        except ValueError as exc:
            found = [c for c in _text_columns(exc) if c not in text]
            if not found:
                raise
            text += found


def _read_table(
    path: str, args: Any, client: Any, label_column: str | None, label_option: str,
    text: list[str],
) -> DaskTable:
    import dask
    import dask.dataframe as dd

    ddf, notes, ints, repeated = read_frame(path, getattr(args, "blocksize", None), text)
    try:  # the first partition (the cluster reads it)
        sample = client.compute(ddf.partitions[0]).result()
    except (ValueError, OSError, EOFError) as exc:  # EOFError: a compressed file cut short
        if _text_columns(exc):
            raise  # read again (read_table)
        raise UsageError(f"could not read '{path}': {first_line(exc)}") from None
    if sample.shape[1] == 0:
        raise UsageError(f"input '{path}' has no columns")
    sample = sample[~is_blank_row(sample)].head(SAMPLE_ROWS)
    rows = ddf.map_partitions(_without_blank_rows)  # the checks of values see no blank row
    if len(sample) == 0:
        raise UsageError(f"input '{path}' has a header but no data rows")
    choice = choose_columns(
        sample, columns=args.columns, label_column=label_column, id_column=args.id_column,
        label_option=label_option,
        keep_columns=getattr(args, "keep_columns", None),
        stats=whole_frame_stats(rows, client, sample, ints),
        why_not_numeric=lambda c: _why_not_numeric(rows, client, c, sample, text),
        repeated=repeated,
    )
    meta = _convert(sample.iloc[:0], choice.features, choice.id_column, label_column, ints)
    conv = client.persist(ddf.map_partitions(
        _convert, choice.features, choice.id_column, label_column, ints, meta=meta))
    names = [str(c) for c in choice.features]
    stats = client.compute(conv.map_partitions(
        _stats, names, label_column is not None,
        meta={"n": "int64", "blank": "int64", "bad": "int64", "label_na": "int64",
              **{f"f{j}": "int64" for j in range(len(names))}})).result()
    sizes, bads = stats["n"].to_numpy(), stats["bad"].to_numpy()
    n_blank = int(stats["blank"].sum())
    if n_blank:  # rows of empty fields: blank lines, left out as locally
        conv = client.persist(conv[~conv[_BLANK]])
        notes = [*notes, blank_rows_note(n_blank)]
    if choice.id_column is None:  # row numbers of the whole file, as the local path
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        parts = [dask.delayed(_number_rows)(p, int(o))
                 for p, o in zip(conv.to_delayed(), offsets, strict=True)]
        conv = client.persist(dd.from_delayed(parts, meta=meta, verify_meta=False))
    n_bad = int(bads.sum())
    total = stats.sum()
    missing = {c: int(total[f"f{j}"]) for j, c in enumerate(names)}
    if label_column is not None:
        missing[str(label_column)] = int(total["label_na"])
    dropped: list[Any] = []
    if n_bad:
        where = [i for i, b in enumerate(bads) if b]
        ids = client.compute([dask.delayed(_bad_ids)(conv.to_delayed()[i]) for i in where],
                             sync=True)
        dropped = [v for part in ids for v in part]
        if not args.drop_na:
            raise missing_values_error(
                n_bad, dropped[:5], {c: int(total[f"f{j}"]) for j, c in enumerate(names)},
                int(total["label_na"]), label_column, label_option)
        conv = client.persist(conv[~conv[_BAD]])
        sizes = sizes - bads
    if sizes.sum() < 2:
        raise UsageError(f"only {int(sizes.sum())} usable row(s); at least 2 are needed")
    X = conv[names].to_dask_array(lengths=[int(s) for s in sizes])
    return DaskTable(
        X=client.persist(X), frame=conv, feature_names=names,
        id_name=str(choice.id_column) if choice.id_column is not None else "row",
        label_name=label_column, n_dropped=n_bad if args.drop_na else 0,
        dropped_rows=dropped, id_column=None if choice.id_column is None
        else str(choice.id_column), dropped_columns=choice.dropped_columns, read_notes=notes,
        roles=choice.roles, n_read=int(sizes.sum()) + (n_bad if args.drop_na else 0),
        missing_by_column={c: k for c, k in missing.items() if k})


def _minmax_block(Xb: np.ndarray, scaler: Any) -> np.ndarray:
    return np.asarray(scaler.transform(Xb), dtype=np.float64)


def _standard_block(Xb: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return (Xb - mean) / scale


def scale(X: Any, how: str, client: Any) -> Any:
    """``--scale`` from statistics of every row, computed by Dask (never one partition).

    minmax: scikit-learn's ``MinMaxScaler`` fitted on the columns' Dask min and max (the same
    numbers as fitting it on the whole table); standard: Dask's mean and variance (a constant
    column keeps scale 1, as ``StandardScaler``); none: as is. The result is persisted.
    """
    if how == "none":
        return X
    if how == "minmax":
        from sklearn.preprocessing import MinMaxScaler

        lo, hi = client.compute([X.min(axis=0), X.max(axis=0)], sync=True)
        scaler = MinMaxScaler().partial_fit(np.vstack([lo, hi]))
        out = X.map_blocks(_minmax_block, scaler, dtype=np.float64)
    else:
        mean, var = client.compute([X.mean(axis=0), X.var(axis=0)], sync=True)
        sd = np.sqrt(var)
        sd[sd < 10 * np.finfo(np.float64).eps] = 1.0
        out = X.map_blocks(_standard_block, mean, sd, dtype=np.float64)
    return client.persist(out)


def in_order(client: Any, tasks: Sequence[Any], desc: str) -> Iterator[Any]:
    """Results of ``tasks`` (delayed / collections), computed on the cluster all at once and
    yielded in their order as soon as each is ready; the bar advances as the scheduler
    reports every finished task."""
    from distributed import as_completed

    futures = client.compute(list(tasks))
    slots: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(futures):
        slots[f.key].append(i)
    ready: dict[int, Any] = {}
    nxt = 0
    with _progress.progress_bar(len(futures), desc) as bar:
        for f in as_completed(futures, loop=client.loop):
            for i in slots.pop(f.key, []):
                ready[i] = f
                bar.update(1)
            while nxt in ready:
                yield ready.pop(nxt).result()
                futures[nxt] = None
                nxt += 1


def _local_part(Xb: np.ndarray, part: Any, label: bool) -> tuple[Any, Any, Any]:
    return Xb, part[_ID].to_numpy(), part[_LABEL].to_numpy() if label else None


def to_local(client: Any, table: DaskTable, X: Any) -> Table:
    """The table (and the scaled features ``X``) gathered to this process, partition by
    partition: a :class:`~kernel_patterns.cli._io.Table` whose ``X`` is the scaled array."""
    import dask

    label = table.label_name is not None
    tasks = [dask.delayed(_local_part)(xb, p, label)
             for xb, p in zip(X.to_delayed().ravel(), table.frame.to_delayed(), strict=True)]
    Xs, ids, labels = [], [], []
    for Xb, idb, lb in in_order(client, tasks, "gathering the table"):
        Xs.append(Xb)
        ids.append(idb)
        labels.append(lb)
    return Table(X=np.concatenate(Xs), feature_names=table.feature_names,
                 ids=np.concatenate(ids), id_name=table.id_name,
                 labels=np.concatenate(labels) if label else None,
                 label_name=table.label_name, n_dropped=table.n_dropped,
                 dropped_rows=table.dropped_rows, id_column=table.id_column,
                 dropped_columns=table.dropped_columns, read_notes=table.read_notes,
                 roles=table.roles, n_read=table.n_read,
                 missing_by_column=table.missing_by_column)


def _label_frame(part: Any, labels: np.ndarray, id_name: str, label: bool) -> Any:
    import pandas as pd

    out = pd.DataFrame({id_name: part[_ID].to_numpy(), "label": labels})
    truth = part[_LABEL].to_numpy() if label else None
    return out, truth


def write_labels(client: Any, table: DaskTable, labels: Any, path: Path
                 ) -> tuple[np.ndarray, np.ndarray | None]:
    """``labels.csv`` (the id column, then ``label``) written partition by partition in
    partition order (one file, as the local path writes); returns all labels and the truth,
    which come back to this process (the features stay on the workers)."""
    import dask

    label = table.label_name is not None
    tasks = [dask.delayed(_label_frame)(p, lb, table.id_name, label)
             for p, lb in zip(table.frame.to_delayed(), labels.to_delayed().ravel(),
                              strict=True)]
    got, truth = [], []
    with open(path, "w", newline="") as fh:
        for i, (frame, t) in enumerate(in_order(client, tasks, "writing labels")):
            frame.to_csv(fh, index=False, header=i == 0)
            got.append(frame["label"].to_numpy())
            truth.append(t)
    return np.concatenate(got), (np.concatenate(truth) if label else None)

