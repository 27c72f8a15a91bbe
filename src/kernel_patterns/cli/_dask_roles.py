"""The statistics the column roles read (:func:`._roles.column_stats`), over every partition
of a Dask frame: the ``--scheduler`` reader's, so that it applies the local reader's rules
(:func:`._roles.decide_roles`) to the whole file, not to its first rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._roles import column_stats


def _run_stats(part: Any, names: list[Any]) -> Any:
    """Per integer column of one partition (on a worker): its first and last value, its rows,
    whether it counts up by one throughout (``up``) and whether it counts up by one or
    restarts at 0 (``runs0``) or at 1 (``runs1``), and whether it restarts there."""
    import pandas as pd

    rows = []
    for c in names:
        v = part[c].to_numpy(dtype=np.float64)
        d = np.diff(v)
        rows.append({"first": v[0] if len(v) else np.nan, "last": v[-1] if len(v) else np.nan,
                     "n": len(v), "up": bool((d == 1).all()),
                     **{f"runs{s}": bool(((d == 1) | (v[1:] == s)).all()) for s in (0, 1)},
                     **{f"restart{s}": bool((v[1:] == s).any()) for s in (0, 1)}})
    return pd.DataFrame(rows, index=[str(c) for c in names])


def whole_frame_stats(rows: Any, client: Any, sample: Any, ints: list[str]) -> Any:
    """:func:`._roles.column_stats` over every row of the Dask frame ``rows`` (not only the
    ``sample``): values present, distinct values, min, max, whole numbers, row numbers and row
    numbers within groups (the integer columns and those of whole numbers read as floats,
    ``ints``), from one pass of Dask aggregations and one over the partitions' runs."""
    import pandas as pd

    stats = column_stats(sample)
    stats["n_rows"] = n_rows = int(client.compute(rows.shape[0]).result())
    names = list(sample.columns)
    num = [c for c, ok in zip(names, stats["numeric"], strict=True) if ok]
    ints_ = [c for c in num if pd.api.types.is_integer_dtype(sample[c].dtype) or str(c) in ints]
    tasks = [rows.count(), *[rows[c].nunique() for c in names]]
    if num:
        tasks += [rows[num].min(), rows[num].max(), *[(rows[c] % 1).abs().max() for c in num]]
    got = client.compute(tasks, sync=True)
    counts, uniques = got[0], got[1:1 + len(names)]
    if num:
        los, his, fracs = got[1 + len(names)], got[2 + len(names)], got[3 + len(names):]
    stats["n"] = np.asarray(counts, dtype=np.int64)
    stats["n_unique"] = np.asarray(uniques, dtype=np.int64)
    pos = {c: i for i, c in enumerate(names)}
    where = [pos[c] for c in num]
    if num:
        stats.loc[where, "min"] = np.asarray(los, dtype=np.float64)
        stats.loc[where, "max"] = np.asarray(his, dtype=np.float64)
        stats.loc[where, "whole"] = (np.asarray(fracs, dtype=np.float64) == 0) | (
            stats.loc[where, "n"].to_numpy() == 0)
    stats["integer"] = [c in ints_ for c in names]
    stats["row_number"] = stats["runs"] = False
    if ints_ and n_rows >= 2:
        meta = _run_stats(sample.iloc[:2], ints_).iloc[:0]
        parts = client.compute(rows.map_partitions(_run_stats, ints_, meta=meta)).result()
        for c in ints_:
            p = parts.loc[[str(c)]]
            p = p[p["n"] > 0]
            if stats.loc[pos[c], "n"] != n_rows or not len(p):
                continue
            first, last = p["first"].to_numpy(), p["last"].to_numpy()
            start = first[0]
            if start not in (0, 1):
                continue
            s = int(start)
            on = first[1:] == last[:-1] + 1
            up = bool(p["up"].all() and on.all())
            again = first[1:] == s
            runs = bool(p[f"runs{s}"].all() and (on | again).all()
                        and (p[f"restart{s}"].any() or again.any()))
            stats.loc[pos[c], "row_number"] = up
            stats.loc[pos[c], "runs"] = runs and not up
    return stats
