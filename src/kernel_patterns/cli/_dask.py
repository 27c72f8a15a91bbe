"""``--scheduler ADDRESS``: run a data command's fit on a running Dask cluster.

The address comes from ``--scheduler`` or, as Dask's own tools read it, from the environment
variable ``DASK_SCHEDULER_ADDRESS``; without either the command runs on this machine. On a
cluster the fit runs inside :func:`kernel_patterns.distributed.dask_backend`: every exact
kernel operator keeps its row blocks on the workers and ``approximation="nystrom"`` computes
its features there (the table itself is read here, with the local column rules). A worker
lost mid-run costs time, not the result; a scheduler that cannot be reached, or is lost
for 60 seconds, is a one-line error.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._registry import UsageError

log = logging.getLogger("kernel_patterns")

#: the environment variable Dask reads for the scheduler's address.
ENV = "DASK_SCHEDULER_ADDRESS"


def add_scheduler_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"run on the Dask cluster of this scheduler, e.g. tcp://host:8786 "
                   f"(default: ${ENV} when set, else this machine)")


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
    from ..distributed import INSTALL_HINT, WorkerLostError, dask_backend

    try:
        from distributed import Client
    except ImportError as exc:
        raise ImportError(f"--scheduler needs Dask: {INSTALL_HINT}") from exc
    try:
        # how long to try: Dask's own setting (distributed.comm.timeouts.connect, 30 s;
        # e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s)
        client = Client(address, set_as_default=False)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
    with client:
        workers = len(client.nthreads())
        if workers == 0:
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some "
                             f"(dask worker {address})")
        log.info("running on the Dask scheduler %s (%d workers)", address, workers)
        try:
            with dask_backend(client):
                yield {"scheduler": address, "workers": workers}
        except WorkerLostError as exc:
            raise UsageError(str(exc)) from exc
