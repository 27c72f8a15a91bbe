"""The role of every column of a user's table, with its reason: written once, for the local
reader (:mod:`._io`) and the Dask reader (:mod:`._dask_io`) alike.

A column is a ``feature``; an ``id`` (row numbers 0..n-1 or 1..n, row numbers within groups in
a column named like an index, a unique integer key named like an id, a column named
id/rownames, the first text column of unique values); ``label-like`` (whole numbers or text
with few distinct values named like a class: class, label, target, species, cultivar, type,
cut, status, ...; or a year: whole numbers with few distinct values, all in 1900–2100);
``constant`` (one value); ``text`` (not numeric); ``empty`` (no value); or the ``label`` the
user named. Only features are fitted; every other role is left out and told.

The rules read per-column statistics (:func:`column_stats`: one vectorised pass over a pandas
frame, quick on 20,000 columns) so that the Dask reader can compute the same statistics over
every partition and apply the same rules (:func:`decide_roles`). Profilers type columns
(numeric, categorical, text) to choose an encoding or a summary; the command line must also
tell the columns that are not measurements at all (row numbers, keys, the answer itself), by
their values and names, which is why the rules are its own and need no new dependency.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: name words of a class column (compared in lower case, word by word: "Species", "cut_grade")
LABEL_WORDS = frozenset({
    "class", "classes", "label", "labels", "target", "truth", "species", "cultivar", "type",
    "cut", "status", "year", "category", "group", "variety", "genus", "diagnosis", "outcome",
})
#: names of an id column, whatever its values
ID_NAMES = frozenset({"id", "rownames"})
#: name words of an index or key column (row numbers within groups, unique integer keys)
INDEX_WORDS = frozenset({"id", "index", "idx", "key", "rownames", "row", "obs", "no"})
#: at most this many distinct values make a column label-like (and at most a fifth of the rows)
MAX_CLASSES = 20

ROLES = ("feature", "label", "id", "label-like", "constant", "text", "empty", "unused")


@dataclass(frozen=True)
class ColumnRole:
    """One column's role and why.

    Parameters
    ----------
    name : str
        The column's name.
    role : str
        One of :data:`ROLES`.
    reason : str
        Why, in a few words ("integer, 3 distinct values, named like a class").

    Examples
    --------
    >>> ColumnRole("cultivar", "label-like", "named like a class").role
    'label-like'
    """

    name: str
    role: str
    reason: str


def _words(name: Any) -> set[str]:
    return set(re.split(r"[^a-z0-9]+", str(name).strip().lower())) - {""}


def column_stats(df: Any) -> Any:
    """Per-column statistics of a pandas DataFrame, one row per column (in order).

    Columns: ``numeric`` (numbers, not true/false), ``integer`` (an integer dtype), ``whole``
    (every value a whole number), ``n`` (values present), ``n_rows``, ``n_unique`` (distinct
    values present), ``min``, ``max`` (numeric only, else NaN), ``row_number`` (integers
    0..n-1 or 1..n in order), ``runs`` (integers counting up from 0 or 1 and restarting).

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    stats : pandas.DataFrame
        Indexed by position (0..n_columns-1), with a ``name`` column.

    Examples
    --------
    >>> import pandas as pd
    >>> s = column_stats(pd.DataFrame({"i": [1, 2, 3, 1], "x": [0.5, 0.5, 0.5, None],
    ...                                "t": ["a", "b", "a", "c"]}))
    >>> s[["name", "numeric", "n_unique", "runs"]].values.tolist()
    [['i', True, 3, True], ['x', True, 1, False], ['t', False, 3, False]]
    """
    import pandas as pd

    n_cols, n_rows = df.shape[1], df.shape[0]
    dtypes = list(df.dtypes)
    numeric = np.array([pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t)
                        for t in dtypes], dtype=bool)
    integer = np.array([pd.api.types.is_integer_dtype(t) for t in dtypes], dtype=bool)
    n = np.zeros(n_cols, dtype=np.int64)
    n_unique = np.zeros(n_cols, dtype=np.int64)
    lo = np.full(n_cols, np.nan)
    hi = np.full(n_cols, np.nan)
    whole = np.zeros(n_cols, dtype=bool)
    row_number = np.zeros(n_cols, dtype=bool)
    runs = np.zeros(n_cols, dtype=bool)
    num = np.flatnonzero(numeric)
    if num.size:
        A = df.iloc[:, num].to_numpy(dtype=np.float64, na_value=np.nan)
        present = ~np.isnan(A)
        n[num] = present.sum(axis=0)
        S = np.sort(A, axis=0)  # NaN last
        steps = np.diff(S, axis=0) > 0  # NaN compares False
        n_unique[num] = np.where(n[num] > 0, 1 + steps.sum(axis=0), 0)
        has = n[num] > 0
        lo[num] = np.where(has, np.nanmin(np.where(present, A, np.inf), axis=0), np.nan)
        hi[num] = np.where(has, np.nanmax(np.where(present, A, -np.inf), axis=0), np.nan)
        with np.errstate(invalid="ignore"):
            whole[num] = has & np.all(~present | (np.round(A) == A), axis=0)
        if n_rows >= 2:
            full = present.all(axis=0) & integer[num]
            first = A[0]
            starts = np.isin(first, (0, 1))
            d = np.diff(A, axis=0)
            up = d == 1
            row_number[num] = full & starts & up.all(axis=0)
            restart = A[1:] == first
            runs[num] = (full & starts & (up | restart).all(axis=0) & restart.any(axis=0)
                         & ~row_number[num])
    text = np.flatnonzero(~numeric)
    if text.size:
        sub = df.iloc[:, text]
        n[text] = sub.notna().sum(axis=0).to_numpy()
        n_unique[text] = sub.nunique(axis=0).to_numpy()
    return pd.DataFrame({
        "name": list(df.columns), "numeric": numeric, "integer": integer, "whole": whole,
        "n": n, "n_rows": n_rows, "n_unique": n_unique, "min": lo, "max": hi,
        "row_number": row_number, "runs": runs,
    })


def few_values(n_unique: int, n: int) -> bool:
    """Whether ``n_unique`` distinct values among ``n`` are few enough for a class column:
    at most :data:`MAX_CLASSES` and at most a fifth of the values (two at least), among ten
    values at least (fewer tell nothing).

    Examples
    --------
    >>> few_values(3, 178), few_values(30, 178), few_values(3, 12), few_values(2, 5)
    (True, False, False, False)
    """
    return n >= 10 and 1 < n_unique <= min(MAX_CLASSES, max(2, n // 5))


def _numeric_role(name: Any, st: Any) -> tuple[str, str]:
    """The role of a numeric column, not named by the user, from its statistics ``st``."""
    words = _words(name)
    n, k = int(st["n"]), int(st["n_unique"])
    if st["row_number"]:
        return "id", "row numbers"
    if st["runs"] and words & INDEX_WORDS:
        return "id", "row numbers within groups"
    if k == 1 and n == int(st["n_rows"]):
        return "constant", f"one value, {st['min']:.6g}"
    if st["whole"] and k == n == int(st["n_rows"]) and words & INDEX_WORDS and n > 1:
        return "id", "a unique integer key"
    if st["whole"] and few_values(k, n):
        if st["min"] >= 1900 and st["max"] <= 2100:
            return "label-like", (f"a year: {k} distinct values in "
                                  f"{st['min']:.0f}–{st['max']:.0f}")
        if words & LABEL_WORDS:
            return "label-like", f"whole numbers, {k} distinct values, named like a class"
    return "feature", "numeric"


def guess_id_column(stats: Any, taken: set[Any]) -> Any:
    """The id column when none is named: a column named id/ID/rownames, else the first text
    column with every value present and distinct (more than one row); or None.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": [1.0, 2.0], "key": ["a", "b"]})
    >>> guess_id_column(column_stats(df), set())
    'key'
    """
    free = stats[~stats["name"].isin([t for t in taken if t is not None])]
    named = [c for c in free["name"] if str(c).strip().lower() in ID_NAMES]
    if named:
        return named[0]
    unique = free[~free["numeric"] & (free["n"] == free["n_rows"])
                  & (free["n_unique"] == free["n_rows"]) & (free["n_rows"] > 1)]
    return unique["name"].iloc[0] if len(unique) else None


def decide_roles(
    stats: Any, *, label_column: Any = None, id_column: Any = None,
    id_given: bool = False, columns: Sequence[Any] | None = None,
    keep: Sequence[Any] = (), why_not_numeric: Callable[[Any], str] | None = None,
    label_option: str = "--label-column",
) -> list[ColumnRole]:
    """Every column's role (:data:`ROLES`), in the table's order.

    Parameters
    ----------
    stats : pandas.DataFrame
        :func:`column_stats` of the table (or the Dask reader's over every partition).
    label_column, id_column : column name or None
        The label column (``--label-column``) and the id column (named or guessed).
    id_given : bool, default=False
        Whether the user named the id column (``--id-column``).
    columns : sequence of names or None
        ``--columns``: exactly these are the features; the others are told as by default,
        a would-be feature as ``unused``.
    keep : sequence of names
        ``--keep-columns``: numeric columns used as features whatever their role.
    why_not_numeric : callable, default=None
        The reason a column is not numeric (default "not numeric").
    label_option : str, default="--label-column"
        The option that named the label column (``rank``'s is ``--target``), its reason.

    Returns
    -------
    roles : list of ColumnRole

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": [0.1, 0.7, 0.3, 0.2, 0.9, 0.4] * 5,
    ...                    "cultivar": [1, 2, 3] * 10, "n": range(30)})
    >>> [(r.name, r.role) for r in decide_roles(column_stats(df))]
    [('a', 'feature'), ('cultivar', 'label-like'), ('n', 'id')]
    """
    why_not_numeric = why_not_numeric or (lambda c: "not numeric")
    keep_set, asked = set(keep), None if columns is None else set(columns)
    roles = []
    for st in stats.to_dict("records"):
        name = st["name"]
        if name == label_column:
            roles.append(ColumnRole(str(name), "label", label_option))
            continue
        if name == id_column:
            roles.append(ColumnRole(str(name), "id", _id_reason(name, st, id_given)))
            continue
        if asked is not None and name in asked:
            roles.append(ColumnRole(str(name), "feature", "--columns"))
            continue
        if int(st["n"]) == 0:
            role, why = "empty", "empty"
        elif not st["numeric"]:
            k = int(st["n_unique"])
            if _words(name) & LABEL_WORDS and few_values(k, int(st["n"])):
                role, why = "label-like", f"text, {k} distinct values, named like a class"
            else:
                role, why = "text", why_not_numeric(name)
        else:
            role, why = _numeric_role(name, st)
            if name in keep_set and role != "feature":
                role, why = "feature", f"--keep-columns (else {role}: {why})"
        if asked is not None and role == "feature":
            role, why = "unused", "not in --columns"
        roles.append(ColumnRole(str(name), role, why))
    return roles


def _id_reason(name: Any, st: Any, given: bool) -> str:
    if given:
        return "--id-column"
    if str(name).strip().lower() in ID_NAMES:
        return "named like an id"
    return "text, every value different"


#: the roles of columns left out, in the order told, and the word put before their reason
_ROLE_NOTES = {"id": "", "label-like": "label-like: ", "constant": "", "text": "", "empty": ""}


def role_notes(roles: Sequence[ColumnRole], *, label_option: str | None = "--label-column",
               ) -> list[str]:
    """One line per role that left columns out of the features (ids, label-like, constant,
    text, empty), naming them with their reasons; the label-like line says how to put them
    back (``--keep-columns``) or score against one (``label_option``).

    Examples
    --------
    >>> role_notes([ColumnRole("year", "label-like", "a year"), ColumnRole("x", "feature", "")])
    ["left out of the features: 'year' (label-like: a year); --keep-columns year uses it as a feature, --label-column year scores the clusters against it"]
    """  # noqa: E501
    notes = []
    for role, word in _ROLE_NOTES.items():
        cols = [r for r in roles if r.role == role and not (role == "id" and _told_id(r))]
        if not cols:
            continue
        line = "left out of the features: " + ", ".join(
            f"'{r.name}' ({word}{r.reason})" for r in cols)
        if role == "label-like":
            names = ",".join(r.name for r in cols)
            line += (f"; --keep-columns {names} uses {'it' if len(cols) == 1 else 'them'} as "
                     f"{'a feature' if len(cols) == 1 else 'features'}")
            if label_option:
                line += f", {label_option} {cols[0].name} scores the clusters against it"
        notes.append(line)
    return notes


def _told_id(role: ColumnRole) -> bool:
    """The id column itself (carried into the outputs) is told apart, not as left out."""
    return role.reason in ("--id-column", "named like an id", "text, every value different")
