"""Dask as the distributed engine: local against a 2-worker LocalCluster, same process.

* exact kernel k-means, 5,000 two-moons points (RBF γ = 5, float64): ``KernelKMeans`` local
  against the same estimator inside ``dask_backend(client)`` (row blocks of K resident on the
  workers); times and whether the labels are equal.
* GPClustering fitted on a 1,000-point subsample of rings, then every point of 10,000 assigned
  by its flow to the SEPs: ``gp.predict`` against ``distributed.gp_predict`` (the fitted model
  broadcast, one partition per worker); times, labels equal, accuracy.
* Nyström kernel k-means of 1,000,000 two-moons points generated ON the workers
  (``distributed.make_moons``), ``distributed.nystrom_kmeans`` (300 landmarks, float32): time,
  ARI against the truth (the contingency table is summed on the workers) and the driver's
  peak RSS above its start (``_scaling.measure_rss``): the data never reach the driver.

* Fault runs (issue 20): every distributed path again, each run on a fresh cluster, fault-free and
  with one of the two worker processes SIGKILLed a third of the way through (a third of this
  machine's fault-free time, from a timer thread; the nanny restarts the worker afterwards,
  as a cluster manager would): seconds and whether the labels equal the fault-free run's.

Run: ``python benchmarks/bench_dask.py [--quick] [--tries N]`` (quick: 100,000 Nyström
points, 4,000 GP, 20,000 GP points in the fault runs). Timings under
``flock /tmp/kp-bench.lock``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.special import comb
from sklearn.metrics import adjusted_rand_score

sys.path.insert(0, str(Path(__file__).parent))

from _common import machine, save, table
from _scaling import measure_rss
from kernel_patterns import KernelKMeans
from kernel_patterns.datasets import make_two_moons

GAMMA_EXACT = 5.0
GAMMA_NYSTROM = 8.0


def _contingency(block: np.ndarray, k: int) -> np.ndarray:
    """2-D counts of (truth, label) pairs of one block of rows ``[truth, label]``."""
    t, lab = block[:, 0].astype(np.intp), block[:, 1].astype(np.intp)
    return np.bincount(t * k + lab, minlength=k * k).reshape(1, k * k)


def ari_from_table(C: np.ndarray) -> float:
    """Adjusted Rand index from a contingency table (Hubert & Arabie)."""
    n = C.sum()
    s_ij = comb(C, 2).sum()
    s_a, s_b = comb(C.sum(1), 2).sum(), comb(C.sum(0), 2).sum()
    expected = s_a * s_b / comb(n, 2)
    return float((s_ij - expected) / (0.5 * (s_a + s_b) - expected))


def exact_rows(client: Any, n_init: int) -> list[list[Any]]:
    from kernel_patterns.distributed import dask_backend

    X, _ = make_two_moons((2500, 2500), random_state=0)
    params = {"n_clusters": 2, "kernel_params": {"gamma": GAMMA_EXACT}, "n_init": n_init,
                  "random_state": 0}
    t0 = time.perf_counter()
    local = KernelKMeans(**params).fit(X)
    t_local = time.perf_counter() - t0
    with dask_backend(client):
        t0 = time.perf_counter()
        dist = KernelKMeans(**params).fit(X)
        t_dask = time.perf_counter() - t0
    same = bool(np.array_equal(local.labels_, dist.labels_))
    ari = adjusted_rand_score(local.labels_, dist.labels_)
    return [
        [f"exact, 5,000, n_init={n_init}", "local", f"{t_local:.2f}", "", "", ""],
        [f"exact, 5,000, n_init={n_init}", "Dask (2 workers)", f"{t_dask:.2f}",
         f"{t_dask / t_local:.2f}", f"labels equal: {same} (ARI {ari:.4f})", ""],
    ]


def nystrom_row(client: Any, n: int) -> list[Any]:
    import dask.array as da

    from kernel_patterns.distributed import make_moons, nystrom_kmeans

    def run() -> tuple[float, int]:
        X, y = make_moons(n, chunks=100_000, random_state=0)
        X, y = client.persist([X, y])  # generated on the workers, never in the driver
        res = nystrom_kmeans(X, 2, kernel_params={"gamma": GAMMA_NYSTROM}, n_landmarks=300,
                             random_state=0, client=client)
        pairs = da.stack([y, res.labels], axis=1).rechunk({1: 2})
        tab = pairs.map_blocks(_contingency, 2, chunks=(1, 4), dtype=np.intp)
        C = client.compute(tab.sum(axis=0)).result().reshape(2, 2)
        return ari_from_table(C), res.n_iter

    seconds, peak_mb, (ari, n_iter) = measure_rss(run)
    return [f"Nyström k-means, {n:,} (generated on workers)", "Dask (2 workers)",
            f"{seconds:.1f}", "", f"ARI vs truth {ari:.4f} ({n_iter} Lloyd iterations)",
            f"{peak_mb:.0f}"]


def gp_rows(client: Any, n: int) -> list[list[Any]]:
    from kernel_patterns import GPClustering
    from kernel_patterns.datasets import make_rings
    from kernel_patterns.distributed import gp_predict
    from kernel_patterns.metrics import clustering_accuracy

    X, y = make_rings(n_samples=(n // 3, n - n // 3), random_state=0)
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    sub = np.random.default_rng(0).choice(n, 1000, replace=False)
    gp = GPClustering(n_clusters=2).fit(X[sub])  # SEPs from a 1,000-point subsample
    t0 = time.perf_counter()
    local = gp.predict(X)
    t_local = time.perf_counter() - t0
    t0 = time.perf_counter()
    dist = gp_predict(gp, X, client=client)
    t_dask = time.perf_counter() - t0
    acc = clustering_accuracy(y, dist)
    case = f"GP predict (flow to SEPs), {n:,} rings"
    return [
        [case, "local", f"{t_local:.1f}", "", "", ""],
        [case, "Dask (2 workers)", f"{t_dask:.1f}", f"{t_dask / t_local:.2f}",
         f"labels equal: {bool(np.array_equal(local, dist))}, accuracy {acc:.4f}", ""],
    ]


def _fault_paths(quick: bool) -> list[tuple[str, Any]]:
    """(name, run(client) -> labels) of every distributed path, data built once."""
    from kernel_patterns import GPClustering
    from kernel_patterns.datasets import make_rings
    from kernel_patterns.distributed import dask_backend, gp_predict, make_moons, nystrom_kmeans

    X5, _ = make_two_moons((2500, 2500), random_state=0)
    params = {"n_clusters": 2, "kernel_params": {"gamma": GAMMA_EXACT}, "n_init": 1,
              "random_state": 0}
    n_gp = 20_000 if quick else 100_000
    R, _ = make_rings(n_samples=(n_gp // 3, n_gp - n_gp // 3), random_state=0)
    R = (R - R.min(0)) / (R.max(0) - R.min(0))
    gp = GPClustering(n_clusters=2).fit(R[np.random.default_rng(0).choice(n_gp, 1000, False)])
    n_ny = 100_000 if quick else 1_000_000

    def exact(client: Any) -> np.ndarray:
        with dask_backend(client):
            return KernelKMeans(**params).fit(X5).labels_

    def predict(client: Any) -> np.ndarray:
        return gp_predict(gp, R, client=client)

    def nystrom(client: Any) -> np.ndarray:
        X, _ = make_moons(n_ny, chunks=100_000, random_state=0)
        res = nystrom_kmeans(X, 2, kernel_params={"gamma": GAMMA_NYSTROM}, n_landmarks=300,
                             random_state=0, client=client)
        return np.asarray(client.compute(res.labels).result())

    return [
        ("KernelKMeans exact in dask_backend, 5,000 moons", exact),
        (f"gp_predict, {n_gp:,} rings", predict),
        (f"nystrom_kmeans (+ dask_kmeans), {n_ny:,} moons", nystrom),
    ]


def fault_rows(quick: bool, tries: int) -> list[list[Any]]:
    """Fault-free and one-worker-killed runs of every path (see the module docstring), each
    on a fresh two-process LocalCluster (started outside the timing)."""
    import signal
    import threading

    from distributed import Client, LocalCluster

    def timed(run: Any, kill_after: float | None, victim: int) -> tuple[float, Any, bool]:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.wait_for_workers(2, timeout=300)
            timer = None
            if kill_after is not None:
                pids = dict(client.run(os.getpid))
                pid = pids[sorted(pids)[victim % 2]]
                timer = threading.Timer(kill_after, os.kill, (pid, signal.SIGKILL))
            t0 = time.perf_counter()
            if timer is not None:
                timer.start()
            try:
                labels: Any = run(client)
            except Exception as exc:  # reported in the table
                labels = exc
            seconds = time.perf_counter() - t0
            if timer is not None:
                timer.join()
            return seconds, labels, kill_after is not None and seconds > kill_after

    rows = []
    for name, run in _fault_paths(quick):
        t_ref, ref, _ = timed(run, None, 0)
        rows.append([name, "no fault", f"{t_ref:.1f}", "", ""])
        for i in range(tries):
            seconds, labels, landed = timed(run, t_ref / 3, i)
            if isinstance(labels, Exception):
                outcome = f"failed: {type(labels).__name__}: {str(labels)[:80]}"
            else:
                outcome = f"labels identical: {bool(np.array_equal(labels, ref))}"
            rows.append([name, f"worker killed at {t_ref / 3:.1f} s (try {i + 1})",
                         f"{seconds:.1f}", "yes" if landed else "no (run ended first)",
                         outcome])
    return rows


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="100,000 Nyström points")
    parser.add_argument("--tries", type=int, default=3, help="fault runs per path")
    args = parser.parse_args(argv)
    from distributed import Client, LocalCluster

    n = 100_000 if args.quick else 1_000_000
    load_start = os.getloadavg()[0]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        rows = exact_rows(client, 1) + exact_rows(client, 10)
        rows += gp_rows(client, 4_000 if args.quick else 10_000)
        rows.append(nystrom_row(client, n))
    faults = fault_rows(args.quick, args.tries)
    load_end = os.getloadavg()[0]
    text = "\n".join([
        "# Dask LocalCluster (2 workers × 1 thread, processes) against the local path",
        "",
        f"Machine: {machine()}; 2 cores shared by the driver and both workers, so the Dask "
        "rows measure overhead, not speed-up (a real cluster adds cores and memory). Load "
        f"average (1 min) at the start and the end: {load_start:.1f}, {load_end:.1f} (above 2, "
        "other programs shared the cores and the seconds are inflated).",
        "",
        table(["case", "engine", "seconds", "ratio to local", "result",
               "driver peak RSS above start (MB)"], rows),
        "",
        "n_init=10: runs that reach the same partition with permuted label numbers have "
        "inertias equal up to round-off; the first run within round-off of the best is kept, "
        "so the two paths give the same labels.",
        "",
        "## A worker killed mid-run (issue 20)",
        "",
        "Every run on a fresh two-process LocalCluster; one of the two worker processes "
        "SIGKILLed by a timer a third of the way through the fault-free time (the nanny "
        "restarts it). What the workers hold is "
        "recomputable (tasks with lineage, never `scatter`), so a lost worker costs time, "
        "not the result.",
        "",
        table(["path", "run", "seconds", "kill landed mid-run", "result"], faults),
    ])
    save("dask", text)
    return text


if __name__ == "__main__":
    main()
