"""Guards at the door: a table too large for this machine, or for the dense fit the command
would make, is refused before it is read, naming the option that would do (issue 63).

The rows are estimated from the file without reading it: a Parquet file's footer holds them;
a CSV's are its size over the mean length of the lines in its first megabyte. A compressed
CSV is not estimated (its size says little about its rows): it is read as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..kernels import default_memory_budget
from ._registry import UsageError
from ._sniff import COMPRESSED, table_suffix

#: the dense-kernel fits' ``approximation="auto"`` is exact up to this many rows (as
#: ``_fit.AUTO_EXACT_MAX_SAMPLES``) and Nyström beyond
AUTO_EXACT_ROWS = 10_000
#: peak bytes of the local reader per value of the table: pandas' frame, the float64
#: features copied out of it and their scaled copy
READ_BYTES_PER_VALUE = 3 * 8
#: bytes of the file read to estimate its rows
_ESTIMATE_BYTES = 2**20


def estimate_shape(path: str | Path) -> tuple[int, int] | None:
    """About how many rows and columns the table at ``path`` holds, without reading it (None
    when it cannot be told: a compressed CSV, a file too short or unreadable, which the
    reader then reports)."""
    p = Path(path)
    try:
        if table_suffix(p) in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            meta = pq.ParquetFile(p).metadata
            return int(meta.num_rows), int(meta.num_columns)
        if p.suffix.lower() in COMPRESSED or not p.is_file():
            return None
        size = p.stat().st_size
        with open(p, "rb") as fh:
            sample = fh.read(_ESTIMATE_BYTES)
    except (OSError, ValueError):
        return None
    newline = b"\n" if sample.count(b"\n") >= sample.count(b"\r") else b"\r"
    lines = sample.count(newline)
    if lines < 2:
        return None
    whole = sample[: sample.rindex(newline) + 1]
    header = sample.split(newline, 1)[0].replace(b"\x00", b"")
    cols = 1 + max(header.count(sep) for sep in (b",", b";", b"\t", b"|"))
    rows = max(int(size / (len(whole) / lines)) - 1, 1)
    return rows, cols


def _fmt(nbytes: float) -> str:
    return f"{nbytes / 2**30:.3g} GB" if nbytes >= 2**30 else f"{nbytes / 2**20:.3g} MB"


def _is_gp(est: Any) -> bool:
    from ..cluster import GPClustering

    return isinstance(est, GPClustering)


def _dense_fit(est: Any, rows: int) -> bool:
    """Whether ``est`` fitted on ``rows`` rows holds an exact rows × rows kernel matrix: the
    dense-kernel estimators (their ``memory_budget`` parameter) with ``approximation``
    "exact", or "auto" at most :data:`AUTO_EXACT_ROWS` rows or with a kernel fitted to
    the data (geodesic), and an operator that is not ``"chunked"``; and GPClustering with
    ``approximation="exact"`` (its covariance and Cholesky factor)."""
    params = est.get_params(deep=False)
    if _is_gp(est):  # "exact" factors the rows x rows covariance ("auto": inducing past 1,000)
        return bool(params.get("approximation") == "exact")
    if "memory_budget" not in params or params.get("operator", "auto") == "chunked":
        return False
    kernel = params.get("kernel")
    if isinstance(kernel, str) and kernel in ("nearest_neighbors",
                                              "precomputed_nearest_neighbors"):
        return False  # a sparse graph
    approximation = params.get("approximation", "exact")
    if approximation == "auto":
        return rows <= AUTO_EXACT_ROWS or bool(getattr(kernel, "data_dependent", False))
    return bool(approximation == "exact")


def check_at_the_door(path: str | Path, est: Any | None = None, fit_rows: int | None = None,
                      ) -> None:
    """A UsageError, before the table at ``path`` is read, when reading it here would need
    more memory than is available (``--scheduler`` reads it in partitions on a Dask
    cluster), or when ``est``'s exact fit on its rows (at most ``fit_rows``) would hold a
    kernel matrix beyond its memory budget (``--param approximation=nystrom``)."""
    shape = estimate_shape(path)
    if shape is None:
        return
    rows, cols = shape
    # the memory available now: twice the default budget of one kernel matrix (its half)
    need, avail = READ_BYTES_PER_VALUE * rows * cols, 2 * default_memory_budget()
    if need > avail:
        raise UsageError(
            f"input '{path}' is about {rows:,} rows x {cols:,} columns: reading it here needs "
            f"about {_fmt(need)}, more than the {_fmt(avail)} of memory available; run it on "
            "a Dask cluster with --scheduler ADDRESS (the workers read it in partitions)")
    n = rows if fit_rows is None else min(rows, fit_rows)
    if est is None or not _dense_fit(est, n):
        return
    params = est.get_params(deep=False)
    gp = _is_gp(est)
    budget = params.get("memory_budget") or default_memory_budget()
    # dtype="auto": float32 past 20,000; GP's covariance and its Cholesky factor in float64
    dense = 8 * n * n if gp or n <= 20_000 else 4 * n * n
    if dense > budget:
        alt = ("inducing (memory rows x inducing points)" if gp
               else "nystrom (memory rows x landmarks)")
        raise UsageError(
            f"input '{path}' has about {n:,} rows: the exact {type(est).__name__} fit holds "
            f"the {n:,} x {n:,} kernel matrix, {_fmt(dense)}, more than its memory budget of "
            f"{_fmt(budget)}; pass --param approximation={alt}, "
            "or run it on a Dask cluster with --scheduler ADDRESS")
