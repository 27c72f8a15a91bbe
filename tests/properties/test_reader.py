"""Properties of the command line's reader (``kernel_patterns.cli._io.read_table``): any
table pandas writes (``to_csv`` with any separator, decimal mark, encoding, quoting, with or
without the index; ``to_parquet``) is read as the numeric matrix pandas reads back, and the
file is never changed. Since the column roles (issue 62) a numeric column can be left out
(constant, label-like, an id); every numeric column is then either a feature read exactly
or left out with its role, and a table with none left is one error saying so."""

from __future__ import annotations

import csv
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from kernel_patterns.cli._io import read_table
from kernel_patterns.cli._registry import UsageError

#: header names: letters pandas never reads as numbers, encodable in every encoding drawn
NAMES = st.text(alphabet="abcxyzéüß_ ", min_size=1, max_size=8).filter(
    lambda s: s.strip() == s and s.strip().lower() not in {"id", "rownames", "nan", "na",
                                                           "null", "none", "n/a"})
VALUES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.sampled_from([0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1e-320, 1.5, -2.25]),
    st.integers(-10**15, 10**15).map(float),
)


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    """2 to 30 rows of 1 to 6 float columns with distinct names, and perhaps a text column
    of distinct row names (the id the reader takes)."""
    n = draw(st.integers(2, 30))
    names = draw(st.lists(NAMES, min_size=1, max_size=6, unique_by=str.lower))
    data = {name: draw(st.lists(VALUES, min_size=n, max_size=n)) for name in names}
    df = pd.DataFrame(data)
    if draw(st.booleans()):
        df.insert(draw(st.integers(0, len(names))), "name", [f"r{i}" for i in range(n)])
    return df


@st.composite
def csv_options(draw: st.DrawFn) -> dict[str, Any]:
    """Options of ``DataFrame.to_csv`` a user may have used."""
    sep = draw(st.sampled_from([",", ";", "\t", "|"]))
    decimal = draw(st.sampled_from(["."] if sep == "," else [".", ","]))
    return {
        "sep": sep,
        "decimal": decimal,
        "encoding": draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "latin-1",
                                          "utf-16", "utf-32"])),
        "quoting": draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL,
                                         csv.QUOTE_NONNUMERIC])),
        "index": draw(st.booleans()),
        "lineterminator": draw(st.sampled_from(["\n", "\r\n"])),
    }


def _digest(p: Path) -> tuple[str, int]:
    return hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns


def _check(p: Path, back: pd.DataFrame) -> None:
    """The reader's features are the numeric columns pandas reads back, value for value,
    but those left out by their role (each told); none left is one UsageError."""
    numeric = [str(c) for c in back.select_dtypes("number").columns]
    back = back.set_axis([str(c) for c in back.columns], axis=1)
    try:
        table = read_table(p)
    except UsageError as err:
        assert str(err).startswith("no numeric feature columns left to use"), err
        return
    assert table.feature_names == [c for c in numeric if c in table.feature_names]
    np.testing.assert_array_equal(table.X, back[table.feature_names].to_numpy(np.float64))
    roles = {r.name: r.role for r in table.roles}
    assert all(roles[c] != "feature" for c in numeric if c not in table.feature_names)


@given(df=frames(), opts=csv_options())
def test_csv_written_by_pandas_reads_as_pandas_reads_it(df: pd.DataFrame,
                                                        opts: dict[str, Any]) -> None:
    """A CSV written by ``to_csv`` (any of the options above) is read as the matrix of
    numeric columns ``pd.read_csv`` with the same options reads; the index pandas wrote
    (row numbers) is left out; the file's bytes and mtime are unchanged. A file of one
    column is written with ',' and '.': it has no separator the reader could tell, and a
    decimal comma in it reads as a separator."""
    if df.shape[1] + opts["index"] == 1:  # one column: no separator to tell, and a decimal
        opts |= {"sep": ",", "decimal": "."}  # comma would read as one (documented)
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / ("t.tsv" if opts["sep"] == "\t" else "t.csv")
        df.to_csv(p, **opts)
        before = _digest(p)
        back = pd.read_csv(p, sep=opts["sep"], decimal=opts["decimal"],
                           encoding=opts["encoding"], index_col=0 if opts["index"] else None)
        _check(p, back)
        assert _digest(p) == before


@given(df=frames(), index=st.booleans())
def test_parquet_written_by_pandas_reads_as_pandas_reads_it(df: pd.DataFrame,
                                                            index: bool) -> None:
    """A Parquet file written by ``to_parquet`` is read as the numeric matrix
    ``pd.read_parquet`` reads; the file is unchanged."""
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "t.parquet"
        df.to_parquet(p, index=index)
        before = _digest(p)
        _check(p, pd.read_parquet(p))
        assert _digest(p) == before
        assert os.listdir(tmp) == ["t.parquet"]
