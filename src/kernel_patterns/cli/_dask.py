"""``--scheduler ADDRESS``: run a data command's fit on a running Dask cluster.

The address comes from ``--scheduler`` or, as Dask's own tools read it, from the environment
variable ``DASK_SCHEDULER_ADDRESS``; without either the command runs on this machine. On a
cluster the table is read partition by partition by the workers (``_dask_io``: the local
column rules, scaling from Dask statistics), then:

* ``cluster --method kernel-kmeans`` with ``--param approximation=nystrom``, or on more than
  :data:`NYSTROM_ROWS` rows without ``--param approximation=exact``, runs
  :func:`kernel_patterns.distributed.nystrom_kmeans` on the workers' Dask array: the data
  stays there, only the labels come back, written to ``labels.csv`` partition by partition;
* every other fit gathers the scaled table to this process (a note line says so) and runs the
  estimator inside :func:`kernel_patterns.distributed.dask_backend`: every exact kernel
  operator keeps its row blocks on the workers.

A worker lost mid-run costs time, not the result; a scheduler that cannot be reached, or is
lost for 60 seconds, is a one-line error.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .. import _progress
from .._optional import import_optional
from ._io import parse_params
from ._registry import UsageError

log = logging.getLogger("kernel_patterns")

#: the environment variable Dask reads for the scheduler's address.
ENV = "DASK_SCHEDULER_ADDRESS"
#: rows above which kernel-kmeans on a scheduler keeps the data on the workers (Nyström): an
#: exact kernel matrix of 100,000 rows is 80 GB in float64.
NYSTROM_ROWS = 100_000
_CLIENT: ContextVar[Any] = ContextVar("kernel_patterns_cli_client", default=None)


def add_scheduler_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"run on the Dask cluster of this scheduler, e.g. tcp://host:8786 "
                   f"(default: ${ENV} when set, else this machine)")
    p.add_argument("--blocksize", metavar="SIZE",
                   help="on a scheduler: bytes of CSV per partition, e.g. 16MB (default "
                   "Dask's, 64MB); a glob of files ('parts/*.csv') or a Parquet folder gives "
                   "partitions of their own")


def scheduler_address(args: argparse.Namespace) -> str | None:
    """``--scheduler``, else ``$DASK_SCHEDULER_ADDRESS``, else None (run locally)."""
    return getattr(args, "scheduler", None) or os.environ.get(ENV) or None


@contextmanager
def on_scheduler(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """Inside: the estimators run on the named cluster. Yields what the summary records
    (``{"scheduler": address, "workers": n}``; ``{}`` when running locally)."""
    address = scheduler_address(args)
    if not address:
        yield {}
        return
    Client = import_optional("distributed", extra="distributed", purpose="--scheduler").Client
    from distributed.comm import get_address_host_port, parse_address

    from ..distributed import SchedulerLostError, WorkerLostError, dask_backend

    try:  # a malformed address fails here, at once: a Client it failed in waits 60 s at exit
        if parse_address(address)[0] != "inproc":  # in-process (a Client of this process)
            get_address_host_port(address)
    except ValueError as exc:
        raise UsageError(f"--scheduler {address!r} is not a scheduler address ({exc}); give "
                         "one such as tcp://host:8786") from None
    try:
        # how long to try: Dask's own setting (distributed.comm.timeouts.connect, 30 s;
        # e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s)
        client = Client(address, set_as_default=False)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
    with _quiet_dask_logs(), client:
        workers = len(client.nthreads())
        if workers == 0:
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some "
                             f"(dask worker {address})")
        log.info("running on the Dask scheduler %s (%d workers)", address, workers)
        try:
            token = _CLIENT.set(client)
            try:
                with dask_backend(client):
                    yield {"scheduler": address, "workers": workers}
            finally:
                _CLIENT.reset(token)
        except WorkerLostError as exc:
            raise UsageError(str(exc)) from exc
        except (CancelledError, SchedulerLostError) as exc:
            # the command's own reads and writes (Dask futures), or a library call that
            # waited for the scheduler in vain
            if client.status == "running":
                raise
            during = str(exc).split(": lost the connection")[0] \
                if isinstance(exc, SchedulerLostError) else "reading or writing"
            raise UsageError(f"lost the connection to the Dask scheduler at {address} while "
                             f"{during}; restart it and run again") from exc


@contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Dask logs a lost connection and its reconnection attempts with tracebacks; the command
    says it in one line, so those logs are silenced (``--debug`` keeps them)."""
    if log.isEnabledFor(logging.DEBUG):
        yield
        return
    names = ["distributed", "tornado"] + [n for n in logging.root.manager.loggerDict
                                          if n.startswith(("distributed.", "tornado."))]
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


def client() -> Any:
    """The client of the enclosing :func:`on_scheduler` (None when running locally)."""
    return _CLIENT.get()


def note(args: argparse.Namespace, text: str) -> None:
    """One ``kernel-patterns COMMAND: note: ...`` line on stderr."""
    _progress.write(f"kernel-patterns {args.command}: note: {text}", file=sys.stderr)


def nystrom_reason(est: Any, args: argparse.Namespace, n_rows: int) -> str | None:
    """Why kernel k-means runs as :func:`~kernel_patterns.distributed.nystrom_kmeans` on the
    workers, or None (the fit gathers the table to this process)."""
    from ..cluster import KernelKMeans

    if type(est) is not KernelKMeans:
        return None
    if est.approximation == "nystrom":
        return "approximation=nystrom"
    if n_rows > NYSTROM_ROWS and "approximation" not in parse_params(args.param, "--param"):
        return (f"{n_rows} rows > {NYSTROM_ROWS} (pass --param approximation=exact to gather "
                "the table and fit exactly)")
    return None


def nystrom_kwargs(est: Any, n_rows: int) -> dict[str, Any]:
    """:func:`~kernel_patterns.distributed.nystrom_kmeans` arguments from a KernelKMeans
    (``n_init="auto"`` is 10 restarts of the k-means start; ``n_landmarks=None`` is 300, at
    most the rows, as the local estimator)."""
    p = est.get_params(deep=False)
    return {
        "kernel": p["kernel"], "kernel_params": p["kernel_params"],
        "n_landmarks": (min(_default_landmarks(), n_rows) if p["n_landmarks"] is None
                        else p["n_landmarks"]),
        "landmarks": p["landmarks"], "dtype": p["dtype"],
        "n_init": 10 if p["n_init"] == "auto" else p["n_init"],
        "max_iter": p["max_iter"], "tol": p["tol"], "random_state": p["random_state"],
    }


def check_blocksize(value: str | int | None) -> int | None:
    """``--blocksize`` in bytes (``16MB``, ``600``; None: Dask's default); a UsageError naming
    the option for a size that is not one or not above 0 (Dask divides by it)."""
    if value is None:
        return None
    from dask.utils import parse_bytes

    try:
        size = int(parse_bytes(value))
    except (ValueError, TypeError):
        size = None
    if size is None or size <= 0:
        raise UsageError(f"--blocksize {value!r} is not a size above 0; give bytes of CSV per "
                         "partition, e.g. 16MB")
    return size


def read_input(args: argparse.Namespace, timer: Any, label_column: str | None) -> tuple[Any, Any]:
    """On a scheduler: the table read by the workers and its scaled features (a persisted
    Dask array); the same note lines as the local path."""
    from . import _dask_io
    from ._common import tell_columns

    args.blocksize = check_blocksize(getattr(args, "blocksize", None))
    c = client()
    with timer("read"):
        table = _dask_io.read_table(args.input, args, c, label_column)
        X = _dask_io.scale(table.X, args.scale, c)
    tell_columns(args, table)
    return table, X


def gather_input(
    args: argparse.Namespace, timer: Any, label_column: str | None,
    read: tuple[Any, Any] | None = None,
) -> Any:
    """On a scheduler, for a fit that needs the table here: read by the workers (or the
    ``(table, X)`` :func:`read_input` gave already), then gathered partition by partition (a
    :class:`~kernel_patterns.cli._io.Table` with the scaled features as ``X``, and as
    ``frame`` the ids, the features as read and the label)."""
    import pandas as pd

    from . import _dask_io

    table, X = read if read is not None else read_input(args, timer, label_column)
    with timer("read"):
        local = _dask_io.to_local(client(), table, X)
        # the features as read too, for the results in the file's units (clustered.csv, ...)
        raw = _dask_io.to_local(client(), table, table.X)
        local.frame = pd.DataFrame({
            local.id_name: raw.ids, **{n: raw.X[:, j] for j, n in enumerate(raw.feature_names)},
            **({str(raw.label_name): raw.labels} if raw.labels is not None else {})})
    note(args, f"the fit runs in this process on the gathered table ({local.X.shape[0]} x "
         f"{local.X.shape[1]}), its kernel operators on the workers")
    return local


def _default_landmarks() -> int:
    """:data:`kernel_patterns.kernels.DEFAULT_N_LANDMARKS` (imported when needed)."""
    from ..kernels import DEFAULT_N_LANDMARKS

    return int(DEFAULT_N_LANDMARKS)
