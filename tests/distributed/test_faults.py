"""Every distributed path survives a worker SIGKILLed mid-run, with the fault-free result.

Each test runs on a two-process LocalCluster of its own (``fresh_cluster`` in conftest.py),
kills one worker process when a chosen task first finishes (``kill_on``), and asserts the
labels of the fault-free run exactly; ``assert_killed_mid_run`` checks that the kill landed
and the scheduler lost the worker.
"""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import dask.array as da
import numpy as np
import pytest

from distributed import Client, LocalCluster
from kernel_patterns import GPClustering, KernelKMeans
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.datasets import make_rings, make_two_moons, scale_unit_interval
from kernel_patterns.distributed import (
    DaskKernelOperator,
    SchedulerLostError,
    WorkerLostError,
    dask_backend,
    dask_kmeans,
    gp_flow,
    gp_predict,
    make_moons,
    nystrom_kmeans,
)
from kernel_patterns.kernels import RBF, GPCovariance, make_operator

from .conftest import HANG_GUARD


def _bounded(func: Any, *args: Any) -> Any:
    """``func(*args)`` in a thread, failing the test instead of hanging."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(func, *args).result(timeout=HANG_GUARD)


@pytest.mark.parametrize("resident", [True, False])
def test_kernel_kmeans_backend_survives_a_killed_worker(fresh_cluster, kill_on, resident):
    _, client = fresh_cluster
    X, _ = make_two_moons((1000, 1000), noise=0.1, random_state=0)
    params = {"n_clusters": 2, "kernel_params": {"gamma": 5.0}, "n_init": 1, "random_state": 0}
    local = KernelKMeans(**params).fit(X)
    killer = kill_on("_block_columns" if resident else "_apply_to_rows", 10)

    def run() -> Any:
        with dask_backend(client, resident=resident, n_blocks=4):
            return KernelKMeans(**params).fit(X)

    km = _bounded(run)
    killer.assert_killed_mid_run()
    assert np.array_equal(km.labels_, local.labels_)
    assert km.n_iter_ == local.n_iter_


def test_operator_products_survive_a_killed_worker(fresh_cluster, kill_on):
    _, client = fresh_cluster
    X = np.random.default_rng(0).normal(size=(600, 2))
    V = np.random.default_rng(1).normal(size=(600, 3))
    K = make_operator(RBF(1.0), X, operator="dense").to_dense()
    op = DaskKernelOperator(RBF(1.0), X, client=client, resident=True, n_blocks=6)
    op.persist()
    killer = kill_on("_block_matmat", 1)
    outs = _bounded(lambda: [op.matmat(V) for _ in range(4)])
    killer.assert_killed_mid_run()
    for out in outs:
        assert np.allclose(out, K @ V, atol=1e-12)
    assert np.allclose(op.rows(0, 600), K, atol=1e-14)  # the lost blocks were rebuilt


@pytest.fixture(scope="module")
def gp_fitted():
    X, _ = make_rings(random_state=0)
    X = scale_unit_interval(X)
    gp = GPClustering(kernel=GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)).fit(X)
    Y = np.random.default_rng(3).uniform(0.0, 1.0, size=(800, 2))
    return gp, X, Y


def test_gp_predict_survives_a_killed_worker(fresh_cluster, kill_on, gp_fitted):
    _, client = fresh_cluster
    gp, _, Y = gp_fitted
    local = gp.predict(Y)
    killer = kill_on("_predict_partition", 1)
    labels = _bounded(lambda: gp_predict(gp, Y, n_partitions=8, client=client))
    killer.assert_killed_mid_run()
    assert np.array_equal(labels, local)


def test_gp_flow_survives_a_killed_worker(fresh_cluster, kill_on, gp_fitted):
    _, client = fresh_cluster
    _, X, Y = gp_fitted
    kernel = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)
    model = fit_variance_model(kernel, X)
    kwargs = {"length_scale": float(kernel.length_scale().min()),
              "variance_scale": float(model.variance(X).max())}
    ref = gp_flow(model, Y, n_partitions=8, client=client, **kwargs)
    killer = kill_on("_flow_partition", 1)
    res = _bounded(lambda: gp_flow(model, Y, n_partitions=8, client=client, **kwargs))
    killer.assert_killed_mid_run()
    assert np.array_equal(res.assignment, ref.assignment)
    assert np.array_equal(res.equilibria, ref.equilibria)


@pytest.mark.slow
def test_nystrom_kmeans_survives_a_killed_worker(fresh_cluster, kill_on):
    _, client = fresh_cluster
    kwargs = {"kernel_params": {"gamma": 8.0}, "n_components": 50, "sample_size": 2_000,
              "random_state": 0, "client": client}
    X, _ = make_moons(40_000, chunks=5_000, random_state=0)
    ref = nystrom_kmeans(X, 2, **kwargs).labels.compute()
    killer = kill_on("_block_stats", 10)  # second Lloyd iteration (8 blocks)
    X, _ = make_moons(40_000, chunks=5_000, random_state=0)  # a fresh graph
    labels = _bounded(lambda: nystrom_kmeans(X, 2, **kwargs).labels.compute())
    killer.assert_killed_mid_run()
    assert np.array_equal(labels, ref)


def test_dask_kmeans_survives_a_killed_worker(fresh_cluster, kill_on):
    _, client = fresh_cluster
    F = np.random.default_rng(4).normal(size=(6_000, 3)) + np.repeat(np.eye(3) * 4, 2_000, 0)
    Fd = client.persist(da.from_array(F, chunks=(750, 3)))
    ref = dask_kmeans(Fd, 3, random_state=0, client=client, tol=0)
    ref_labels = ref.labels.compute()
    killer = kill_on("_block_stats", 10)

    def run() -> Any:
        res = dask_kmeans(Fd, 3, random_state=0, client=client, tol=0)
        return res, res.labels.compute()

    res, labels = _bounded(run)
    killer.assert_killed_mid_run()
    assert np.array_equal(labels, ref_labels)
    assert np.array_equal(res.cluster_centers, ref.cluster_centers)


def test_backend_nystrom_kernel_kmeans_survives_a_killed_worker(fresh_cluster, kill_on):
    _, client = fresh_cluster
    X, _ = make_two_moons((2000, 2000), noise=0.1, random_state=0)
    params = {"n_clusters": 2, "kernel_params": {"gamma": 5.0}, "approximation": "nystrom",
              "n_components": 100, "random_state": 0}
    with dask_backend(client, n_blocks=8):
        ref = KernelKMeans(**params).fit(X).labels_
    killer = kill_on("_feature_block", 1)

    def run() -> Any:
        with dask_backend(client, n_blocks=8):
            return KernelKMeans(**params).fit(X).labels_

    labels = _bounded(run)
    killer.assert_killed_mid_run()
    assert np.array_equal(labels, ref)


# ------------------------------------------------------------- a cluster that keeps failing
@pytest.mark.slow
def test_task_killing_every_worker_ends_with_a_clear_error():
    import os

    import dask

    from kernel_patterns.distributed._resilience import gather

    # every attempt of the task kills the worker running it (os._exit): after max_retries
    # re-submissions the run stops, naming the workers lost
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster) as client, dask_backend(client, max_retries=1), \
            pytest.raises(WorkerLostError, match=r"boom: a task was lost 2 times \(max_retries"
                          r"=1\); workers lost during the run: tcp://127\.0\.0\.1:\d+"):
        gather(client, 1, lambda _: client.submit(os._exit, 1, pure=False), what="boom")


@pytest.mark.slow
def test_scheduler_lost_mid_run_is_a_clear_error_within_the_timeout(external_cluster,
                                                                     gp_fitted):
    address, scheduler = external_cluster
    gp, _, _ = gp_fitted
    Y = np.random.default_rng(5).uniform(0.0, 1.0, size=(6_000, 2))
    client = Client(address, timeout=30)
    fired = threading.Event()

    def kill_when_busy() -> None:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            busy = client.processing()
            if any(k.startswith("_predict_partition") for keys in busy.values() for k in keys):
                scheduler.send_signal(signal.SIGKILL)
                fired.set()
                return
            time.sleep(0.05)

    def run() -> Any:
        with dask_backend(client, timeout=3):
            return gp_predict(gp, Y, n_partitions=60)

    threading.Thread(target=kill_when_busy, daemon=True).start()
    try:
        with pytest.raises(SchedulerLostError, match=r"lost the connection to the Dask "
                           rf"scheduler at {address}.*timeout=3 s"):
            _bounded(run)
        assert fired.is_set()
    finally:
        client.close(timeout=5)
