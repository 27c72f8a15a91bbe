"""Telling how a user's CSV or TSV is written from its first bytes: the separator, the decimal
mark, the encoding, whether the first row is a header and the names it repeats
(:func:`csv_options`, for the local reader, ``_io``, and the Dask reader, ``_dask_io``)."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._registry import UsageError, first_line

#: the compressions of a CSV/TSV the readers take, by suffix (pandas and Dask read them too)
COMPRESSED: dict[str, Callable[..., Any]] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


def table_suffix(p: Path) -> str:
    """The suffix that says what table ``p`` holds: ``.csv`` for ``data.csv.gz`` (a text
    table compressed), else its last suffix in lower case."""
    suffixes = [s.lower() for s in p.suffixes]
    if len(suffixes) > 1 and suffixes[-1] in COMPRESSED and suffixes[-2] in (".csv", ".tsv",
                                                                             ".tab"):
        return suffixes[-2]
    return p.suffix.lower()


#: the encodings told by a byte-order mark, whose text holds NUL bytes
WIDE_ENCODINGS = ("utf-16", "utf-32")

#: bytes of a CSV read to tell its separator and decimal mark; more, up to the second
#: bound, when they do not hold the header and two data lines whole (``_sample``); a first
#: line longer than the third bound is refused
_SNIFF_BYTES = 65536
_MAX_SNIFF_BYTES = 16 * 2**20
_MAX_LINE_BYTES = 4 * 2**20
_DECIMAL_COMMA = re.compile(r"^\s*-?\d+,\d+([eE][-+]?\d+)?\s*$")


def _dialect(lines: list[str]) -> tuple[str, str, list[str]]:
    """Separator, decimal mark and a note for the first lines of a ``.csv`` file: ``;`` when
    they all split into the same number (> 1) of fields at ``;`` (quotes respected) and at
    ``,`` into fewer or unequal numbers (decimal commas), and then ``,`` as the decimal mark
    when a field is a number written with one; else ``,`` and ``.``."""
    rows = {d: list(csv.reader(io.StringIO("\n".join(lines)), delimiter=d,
                               skipinitialspace=True)) for d in ",;"}
    semi = {len(r) for r in rows[";"]}
    comma = {len(r) for r in rows[","]}
    if not lines or len(semi) != 1 or min(semi) < 2 or (len(comma) == 1 and
                                                        min(comma) >= min(semi)):
        return ",", ".", []
    decimal = any(_DECIMAL_COMMA.match(f) for row in rows[";"][1:] for f in row)
    note = "read with ';' between fields" + (" and ',' as the decimal mark" if decimal else "")
    return ";", "," if decimal else ".", [note]


#: the separators of an aligned text table: runs of spaces or tabs (numpy's ``savetxt``, R's
#: ``write.table``; pandas reads this one fast) and ``|`` with spaces around it
_SPACES = r"\s+"
_PADDED_BAR = r"\s*\|\s*"


def _rows(lines: list[str], sep: str) -> list[list[str]]:
    """``lines`` split at ``sep`` (quotes respected; the fields around a padded ``|``
    stripped, a line's spaces at its ends not fields)."""
    if sep == _SPACES:
        return [next(csv.reader([" ".join(ln.split())], delimiter=" "), []) for ln in lines]
    delimiter = "|" if sep == _PADDED_BAR else sep
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter,
                           skipinitialspace=True))
    return [[f.strip() for f in r] for r in rows] if sep == _PADDED_BAR else rows


def _widths(lines: list[str], sep: str) -> list[int]:
    """The number of fields of each of ``lines`` split at ``sep`` (quotes respected)."""
    return [len(r) for r in _rows(lines, sep)]


def _name(sep: str) -> str:
    return {"\t": "tabs", _SPACES: "spaces", _PADDED_BAR: "'|'"}.get(sep, f"'{sep}'")


def _aligned(lines: list[str]) -> str | None:
    """``|`` (:data:`_PADDED_BAR` when a field has spaces around it), else runs of spaces,
    when the data lines all split there into the same number of fields (> 1), one of them a
    number in every line, and the header too, or into one fewer (> 1: R's row names); else
    None. Stricter than the other separators' rule (splits every line): spaces are in text
    too."""
    for sep in ("|", _SPACES):
        rows = _rows(lines, sep)
        widths = {len(r) for r in rows[1:]}
        if len(widths) != 1 or (n := widths.pop()) < 2 or len(rows[0]) not in (n, n - 1) \
                or len(rows[0]) < 2 or not any(all(_is_number(r[j]) for r in rows[1:])
                                               for j in range(n)):
            continue
        padded = sep == "|" and any(f != f.strip() for r in rows for f in r)
        return _PADDED_BAR if padded else sep
    return None


def _other_separator(
    p: Path, lines: list[str], sep: str, decimal: str, notes: list[str],
) -> tuple[str, str, list[str]]:
    """For a file whose lines the separator its name says (``sep``) does not split: the first
    of tab, ``,`` (or the European dialect, :func:`_dialect`) and ``;`` that splits every
    line, else ``|`` or runs of spaces that split the lines alike (:func:`_aligned`), with a
    note; else ``sep`` as it was (one column)."""
    for other in ("\t", ",", ";"):
        if lines and min(_widths(lines, other)) >= 2:
            found, mark, _ = (other, ".", []) if other == "\t" else _dialect(lines)
            break
    else:
        aligned = _aligned(lines) if lines else None
        if aligned is None:
            return sep, decimal, notes
        found, mark = aligned, "."
    if found == sep:
        return sep, decimal, notes
    what = f"{_name(found)} between fields" + (" and ',' as the decimal mark" if mark == ","
                                               else "")
    return found, mark, [f"read with {what} (its lines split there, though the file is named "
                         f"{table_suffix(p)})"]


def _decimal_commas(lines: list[str], sep: str) -> bool:
    """Whether the data lines (all but the first) split at ``sep`` write numbers with a
    decimal comma (``1,5``) and none with a decimal point."""
    fields = [f for r in _rows(lines[1:], sep) for f in r]
    return (any(_DECIMAL_COMMA.match(f) for f in fields)
            and not any(_DECIMAL_POINT.match(f) for f in fields))


_DECIMAL_POINT = re.compile(r"^\s*-?\d*\.\d+([eE][-+]?\d+)?\s*$")


def _is_number(text: Any) -> bool:
    try:
        float(str(text).replace(",", "."))
    except ValueError:
        return False
    return True


#: the first bytes of files that are not text tables, and what they are
_MAGIC = {
    b"PK\x03\x04": "a zip archive (an Excel .xlsx workbook?): save the sheet as CSV",
    b"\xd0\xcf\x11\xe0": "an Excel .xls workbook: save the sheet as CSV",
    b"\x1f\x8b": "gzip-compressed: name it .csv.gz or .tsv.gz",
    b"PAR1": "a Parquet file: name it .parquet",
}


def _sample(p: Path, fh: Any) -> bytes:
    """The first bytes of the open file ``fh``: :data:`_SNIFF_BYTES`, or more, up to
    :data:`_MAX_SNIFF_BYTES`, until they hold the header and two data lines whole (a table
    of 20,000 columns has lines of 100 KB and more: a sample cut inside the header misread
    its names). No line break within :data:`_MAX_LINE_BYTES` is a UsageError: one line that
    long is no table."""
    sample = fh.read(_SNIFF_BYTES)
    while (max(sample.count(b"\n"), sample.count(b"\r")) < 3
           and len(sample) < _MAX_SNIFF_BYTES):
        more = fh.read(len(sample))  # doubling
        if not more:
            break
        sample += more
    head = sample[:_MAX_LINE_BYTES]
    if len(sample) > _MAX_LINE_BYTES and b"\n" not in head and b"\r" not in head:
        raise UsageError(f"input '{p}' has no line break in its first "
                         f"{_MAX_LINE_BYTES // 2**20} MB: not a table of rows (a table is one "
                         "row per line)")
    return sample


def _sample_encoding(sample: bytes) -> str:
    """UTF-32 or UTF-16 when the sample starts with its byte-order mark (UTF-32's little-endian
    mark begins with UTF-16's; Excel's "Unicode text" is UTF-16), else UTF-8 when the sample
    decodes as it (a character cut at its end allowed), else Windows-1252 (as spreadsheets
    export in Western Europe), else Latin-1 (any byte)."""
    if sample[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "utf-32"
    if sample[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    for encoding in ("utf-8", "cp1252"):
        try:
            sample.decode(encoding)
            return encoding
        except UnicodeDecodeError as exc:
            if encoding == "utf-8" and exc.start >= len(sample) - 3:
                return encoding
    return "latin-1"


def csv_options(
    p: Path, sep: str,
) -> tuple[dict[str, Any], list[str], dict[str, list[str]]]:
    """``pandas.read_csv`` / ``dask.dataframe.read_csv`` options for a CSV or TSV told from
    its first bytes, and a note for each that is not the default: the European dialect
    (``;`` and decimal commas), the encoding when not UTF-8, and ``header=None`` when the first
    row is numbers only (data, not a header; the columns are then ``x0``, ``x1``, …); and
    the names read for a name the header gives several columns (``a``, ``a.1``). The
    sample is read once, in binary, and decoded in the encoding found. A file that is not
    text (a spreadsheet workbook, a compressed or Parquet file, NUL bytes) is a UsageError
    saying what it is."""
    try:
        with COMPRESSED.get(p.suffix.lower(), open)(p, "rb") as fh:
            sample = _sample(p, fh)
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:  # a damaged compressed file
        raise UsageError(f"could not read '{p}': {first_line(exc)}") from None
    for magic, what in _MAGIC.items():
        if sample.startswith(magic):
            raise UsageError(f"input '{p}' is {what}")
    encoding = _sample_encoding(sample)
    if encoding not in WIDE_ENCODINGS and b"\x00" in sample:
        raise UsageError(f"input '{p}' is not a text table: it holds NUL bytes")
    limit = csv.field_size_limit()
    try:  # a line of the sample may be one field (a wide header split at another separator)
        csv.field_size_limit(max(limit, len(sample) + 1))
        return _options(p, sample, sep, encoding)
    except csv.Error as exc:  # a field the csv module cannot split
        raise UsageError(f"could not read '{p}': {exc}") from None
    finally:
        csv.field_size_limit(limit)


def _options(
    p: Path, sample: bytes, sep: str, encoding: str,
) -> tuple[dict[str, Any], list[str], dict[str, list[str]]]:
    """:func:`csv_options` for the first bytes ``sample`` of ``p`` decoded as ``encoding``."""
    text = sample.decode(encoding, errors="replace").lstrip("\ufeff")
    # lines end in \n, \r\n or (old Mac files) \r alone: pandas reads each; the csv module
    # used here wants \n
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    decimal = "."
    notes: list[str] = []
    skip = _comment_lines(text)
    if skip:
        text = "".join(text.splitlines(keepends=True)[skip:])
    lines = [ln for ln in text.splitlines()[:20] if ln.strip()]
    if len(lines) > 1:
        lines = lines[:-1]  # the last may be cut by the sample
    if sep == ",":  # a .csv: perhaps the European dialect
        sep, decimal, notes = _dialect(lines)
    widths = set(_widths(lines, sep)) if lines else set()
    if widths and (max(widths) == 1 or (sep == "," and len(widths) > 1)):
        # one field per line, or commas splitting the lines unevenly (decimal commas under
        # another separator, e.g. '|' or tabs): another separator may split them alike
        sep, decimal, notes = _other_separator(p, lines, sep, decimal, notes)
    if decimal == "." and sep != "," and _decimal_commas(lines, sep):
        decimal = ","
        notes = [n + " and ',' as the decimal mark" if n.startswith("read with") else n
                 for n in notes] or ["read with ',' as the decimal mark"]
    if skip:
        notes.insert(0, f"skipped the first {skip} line(s): comments, starting with '#'")
    if encoding != "utf-8":
        notes.append(f"the file is not UTF-8: read as {encoding}")
    # spaces after a separator are not part of the field: " 1.5" is 1.5, a field of spaces
    # only is empty (a missing value) and a row of them a blank row (``is_blank_row``)
    opts: dict[str, Any] = {"sep": sep, "decimal": decimal, "encoding": encoding,
                            "skipinitialspace": True}
    if sep == _PADDED_BAR:  # a separator of more than one character: pandas' Python engine
        opts["engine"] = "python"
    if skip:
        opts["skiprows"] = skip
    first = (next(csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=True), [])
             if len(sep) == 1
             else (_rows(text.splitlines()[:1], sep) or [[]])[0])
    if first and all(_is_number(f) for f in first):
        opts |= {"header": None, "names": [f"x{j}" for j in range(len(first))]}
        notes.append("the first row is all numbers: read as data, the columns named "
                     f"x0 … x{len(first) - 1} (give the file a header row to name them)")
        repeated: dict[str, list[str]] = {}
    else:
        opts, notes = _longer_rows(p, text, opts, notes, skip)
        opts, notes, repeated = _repeated_names(first, opts, notes)
    return opts, notes, repeated


def _repeated_names(
    header: list[str], opts: dict[str, Any], notes: list[str],
) -> tuple[dict[str, Any], list[str], dict[str, list[str]]]:
    """Options, notes and ``{name: the names its columns are read as}`` for a header that
    names two columns alike: the second is read as ``a.1`` (pandas' renaming, but never onto
    a name the header has), with a note; the names are given to pandas and Dask alike."""
    names = list(opts.get("names") or [f or f"Unnamed: {j}" for j, f in enumerate(header)])
    taken, seen = set(names), dict.fromkeys(names, 0)
    read = []
    for name in names:
        if name not in read:
            read.append(name)
            continue
        k = seen[name] + 1
        while f"{name}.{k}" in taken:
            k += 1
        seen[name] = k
        taken.add(f"{name}.{k}")
        read.append(f"{name}.{k}")
    repeated = {n: [r for r, m in zip(read, names, strict=True) if m == n]
                for n in seen if names.count(n) > 1}
    if not repeated:
        return opts, notes, {}
    times = " and ".join(f"{n!r} " + ("twice" if len(r) == 2 else f"{len(r)} times")
                         + f" (read as {_listed(r)})" for n, r in repeated.items())
    notes.append(f"the header names {times}")
    return opts | {"header": 0, "names": read}, notes, repeated


def parquet_names(path: str | Path) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """The column names a Parquet file's columns are read as, the note and ``{name: the
    names its columns are read as}`` (as :func:`csv_options` gives them for a CSV header):
    a name the schema gives two columns is read as ``a``, ``a.1``, where pandas and Dask
    stop at pyarrow's "Multiple matches for FieldRef"."""
    import pyarrow.parquet as pq

    names = [str(n) for n in pq.read_schema(path).names]
    opts, notes, repeated = _repeated_names(names, {"names": names}, [])
    return list(opts["names"]), notes, repeated


def read_renamed_parquet(path: str | Path, names: list[str],
                         keep: list[int] | None = None) -> Any:
    """One Parquet file as a pandas DataFrame with its columns named ``names``
    (:func:`parquet_names`), read by pyarrow's file reader, which takes a schema that
    names two columns alike; only the columns at ``keep`` (None: all)."""
    import pyarrow.parquet as pq

    table = pq.ParquetFile(path).read().rename_columns(names)
    return (table if keep is None else table.select(keep)).to_pandas()


def check_encodings(path: str | Path, files: list[str], encoding: str) -> None:
    """A UsageError naming the first of ``files`` (the CSV files of the pattern ``path``)
    whose first bytes are in another encoding than ``encoding``, the first file's: Dask
    reads every file in one encoding."""
    for f in files[1:]:
        try:
            with COMPRESSED.get(Path(f).suffix.lower(), open)(f, "rb") as fh:
                other = _sample_encoding(fh.read(_SNIFF_BYTES))
        except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:
            raise UsageError(f"could not read '{f}': {first_line(exc)}") from None
        if other != encoding:
            raise UsageError(f"the files of '{path}' are in different encodings: "
                             f"'{Path(files[0]).name}' is {encoding}, '{Path(f).name}' is "
                             f"{other}; save them in one encoding (UTF-8)")


def check_parquet_parts(path: str | Path, files: list[str]) -> None:
    """A UsageError naming two parts of the partitioned Parquet ``path`` whose columns
    differ (Dask's reader takes the first part's and fails on a later part with a
    ``KeyError``); each part's schema is read from its footer only."""
    import pyarrow.parquet as pq

    first = [str(n) for n in pq.read_schema(files[0]).names]
    for f in files[1:]:
        names = [str(n) for n in pq.read_schema(f).names]
        if names != first:
            one, other = Path(files[0]).name, Path(f).name
            missing = [n for n in first if n not in names]
            extra = [n for n in names if n not in first]
            what = " and ".join(x for x in (f"lacks {missing}" if missing else "",
                                            f"has {extra}" if extra else "") if x)
            what = (f"{what}, against '{one}'" if what
                    else f"has the columns of '{one}' in another order")
            raise UsageError(f"the Parquet parts of '{path}' disagree on their columns: "
                             f"'{other}' {what}; write every part with the same columns")


def parquet_left_out(path: str | Path, names: list[str]) -> tuple[list[int], list[str]]:
    """The positions of the columns of a Parquet file that can be read as a table's columns
    (numbers, text, dates), and a note naming the others, left out: nested values
    (struct, map, list) and bytes, which are neither features nor names."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    keep, notes = [], []
    for j, fld in enumerate(pq.read_schema(path)):
        t = fld.type
        if pa.types.is_nested(t):
            notes.append(f"'{names[j]}' ({t}: nested values)")
        elif pa.types.is_binary(t) or pa.types.is_large_binary(t) \
                or pa.types.is_fixed_size_binary(t):
            notes.append(f"'{names[j]}' (bytes)")
        else:
            keep.append(j)
    if not notes:
        return keep, []
    return keep, [f"column(s) {', '.join(notes)} left out: not numbers nor text"]


def check_not_repeated(option: str, name: str | None, repeated: dict[str, list[str]]) -> None:
    """A UsageError when the column the user named with ``option`` is one of several the
    header names alike (:func:`_repeated_names`): which one is meant is not known."""
    if name in repeated:
        read = repeated[name]
        raise UsageError(
            f"{option} '{name}' is ambiguous: the header names {len(read)} columns '{name}' "
            f"(read as {_listed(read)}); rename them apart in the file, or pass {option} "
            + (f"'{read[1]}' for the second" if len(read) == 2
               else " or ".join(repr(r) for r in read[1:]) + " for a later one"))


def _listed(names: list[str]) -> str:
    """``'a' and 'a.1'``, ``'a', 'a.1' and 'a.2'``."""
    quoted = [repr(n) for n in names]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _comment_lines(text: str) -> int:
    """The number of lines at the top of ``text`` that start with ``#`` (comments, as many
    instruments and scripts write above the header), blank lines among them counted."""
    lines = text.splitlines()
    n = 0
    while n < len(lines) and (not lines[n].strip() or lines[n].lstrip().startswith("#")):
        n += 1
    return n if any(ln.lstrip().startswith("#") for ln in lines[:n]) else 0


def _longer_rows(
    p: Path, text: str, opts: dict[str, Any], notes: list[str], skipped: int = 0,
) -> tuple[dict[str, Any], list[str]]:
    """The options and notes for data rows with more fields than the header has names, which
    pandas would read by taking the first fields as the index and shifting every name onto
    the column after it. Empty fields at the end of the rows (a separator ending every data
    line) are left out; one more field in every row is R's ``write.table`` row names (the
    header has no name for them): a column ``rownames``; anything else is a UsageError."""
    sep = opts["sep"]
    lines = [ln for ln in text.splitlines()[:21] if ln.strip()]
    if len(lines) > 2:
        lines = lines[:-1]  # the last may be cut by the sample
    rows = _rows(lines, sep)
    if len(rows) < 2:
        return opts, notes
    header, n_head = rows[0], len(rows[0])
    longer = [(i, r) for i, r in enumerate(rows[1:], 2 + skipped) if len(r) > n_head]
    if not longer:
        return opts, notes
    what = "a tab" if sep == "\t" else _name(sep)
    if all(not f.strip() for _, r in longer for f in r[n_head:]):
        notes.append(f"data rows end with {what} and an empty field the header has no name "
                     "for: the empty fields are left out")
        return opts | {"usecols": list(range(n_head))}, notes
    if {len(r) for r in rows[1:]} == {n_head + 1}:
        name = next(n for n in ("rownames", "rownames_", "_rownames") if n not in header)
        notes.append("the header has one name fewer than the data rows have fields (row "
                     "names, as R's write.table writes them): the first column is read as "
                     f"the row names, '{name}'")
        return opts | {"header": 0, "names": [name, *header]}, notes
    line, row = longer[0]
    columns = f"{n_head} column" + "s" * (n_head != 1)
    raise UsageError(f"input '{p}': line {line} has {len(row)} fields but the header names "
                     f"{columns}; give every column a name in the header (or remove the extra "
                     "fields)")
