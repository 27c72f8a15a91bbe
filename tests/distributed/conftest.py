"""Fault injection for the distributed tests: a real worker process SIGKILLed mid-run.

``kill_on(prefix, count)`` arms a scheduler plugin (the LocalCluster's scheduler runs in this
process) that fires when the ``count``-th task named ``prefix`` finishes; a killer thread
then SIGKILLs the process of the worker holding that result, so the kill always lands
partway through the run (never before it starts or after it ends), whatever the machine's
speed. The nanny restarts the worker afterwards, as a cluster manager would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from dask.utils import key_split
from distributed.diagnostics.plugin import SchedulerPlugin

from distributed import Client, LocalCluster

#: longest a fault test may take before it is a failure (a hang guard, not a timing claim).
HANG_GUARD = 240.0


class _Trigger(SchedulerPlugin):
    def __init__(self, scheduler: Any, prefix: str, count: int) -> None:
        self.scheduler, self.prefix, self.count = scheduler, prefix, count
        self.seen = 0
        self.worker: str | None = None
        self.fired = threading.Event()

    def transition(self, key: Any, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        name = key_split(key).lstrip("_")
        if finish != "memory" or self.fired.is_set() or name != self.prefix.lstrip("_"):
            return
        self.seen += 1
        if self.seen >= self.count:
            ts = self.scheduler.tasks.get(key)
            holders = [ws.address for ws in ts.who_has] if ts is not None else []
            self.worker = holders[0] if holders else None
            self.fired.set()


class Killer:
    """SIGKILL the worker that computed the ``count``-th ``prefix`` task (see module doc)."""

    def __init__(self, cluster: Any, client: Any, prefix: str, count: int) -> None:
        self.client = client
        self.pids = dict(client.run(os.getpid))
        self.trigger = _Trigger(cluster.scheduler, prefix, count)
        self.killed: str | None = None
        self.killed_pid: int | None = None
        self.since = time.time()
        cluster.scheduler.loop.add_callback(cluster.scheduler.add_plugin, self.trigger)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.trigger.fired.wait(0.05):
                address = self.trigger.worker or next(iter(self.pids))
                pid = self.pids.get(address)
                if pid is not None:
                    os.kill(pid, signal.SIGKILL)
                    self.killed, self.killed_pid = address, pid
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def assert_killed_mid_run(self) -> None:
        """The kill happened (before the run returned) and the scheduler saw the worker go."""
        self.stop()
        assert self.killed is not None, "the trigger task never ran: the kill did not happen"
        from kernel_patterns.distributed._resilience import lost_workers

        deadline = time.monotonic() + 30
        while self.killed not in lost_workers(self.client, self.since):
            assert time.monotonic() < deadline, "the scheduler never removed the killed worker"
            time.sleep(0.1)


@pytest.fixture
def fresh_cluster() -> Iterator[tuple[Any, Any]]:
    """A two-process LocalCluster of its own (one of its workers will be killed)."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster) as client:
        yield cluster, client


@pytest.fixture
def kill_on(fresh_cluster: tuple[Any, Any]) -> Iterator[Any]:
    cluster, client = fresh_cluster
    killers: list[Killer] = []

    def arm(prefix: str, count: int = 1) -> Killer:
        killer = Killer(cluster, client, prefix, count)
        killers.append(killer)
        return killer

    yield arm
    for k in killers:
        k.stop()


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env={**os.environ, "OMP_NUM_THREADS": "1"},
    )


@pytest.fixture
def external_cluster(tmp_path: Any) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, stopped afterwards.

    Yields the scheduler's address and its process (a test may kill it)."""
    import json

    file = tmp_path / "scheduler.json"
    procs = [_start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(file))]
    try:
        deadline = time.monotonic() + 60
        while not file.exists() or not file.read_text().strip():
            assert time.monotonic() < deadline, "dask scheduler did not start"
            assert procs[0].poll() is None, "dask scheduler exited"
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        procs += [_start("worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                         "--no-dashboard", "--memory-limit", "1GB") for _ in range(2)]
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[0]
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)
