"""kernel_patterns.distributed against the local results, on a LocalCluster started here."""

from __future__ import annotations

import sys

import dask.array as da
import numpy as np
import pytest
from scipy import sparse
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score

from distributed import Client, LocalCluster
from kernel_patterns import GPClustering, KernelKMeans
from kernel_patterns.cluster._kernel_kmeans_solver import _lloyd_kernel_kmeans_runs
from kernel_patterns.cluster.gp._flow import flow_to_equilibria
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.datasets import make_rings, make_two_moons, scale_unit_interval
from kernel_patterns.distributed import (
    DaskKernelOperator,
    DaskNystromOperator,
    dask_backend,
    dask_kmeans,
    gp_flow,
    gp_predict,
    make_moons,
    nystrom_features,
    nystrom_kmeans,
)
from kernel_patterns.distributed._client import import_distributed
from kernel_patterns.kernels import (
    RBF,
    DenseKernelOperator,
    GeodesicKernel,
    GPCovariance,
    NystromKernelOperator,
    make_operator,
)
from kernel_patterns.metrics import clustering_accuracy


@pytest.fixture(scope="module")
def client():
    # processes=True: every kernel, model and estimator really goes through pickling
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def moons5k():
    return make_two_moons((2500, 2500), random_state=0)


# ------------------------------------------------------------------------- (a) the operator
@pytest.mark.parametrize("resident", [True, False])
def test_operator_matches_dense(client, resident):
    X = np.random.default_rng(0).normal(size=(400, 3))
    X0 = X.copy()
    kernel = GPCovariance(v0=1.0, v1=2.0, v2=0.5, l=0.7)  # noise on the diagonal too
    op = DaskKernelOperator(kernel, X, client=client, resident=resident, n_blocks=3)
    ref = make_operator(kernel, X, operator="dense")
    K = ref.to_dense()
    rng = np.random.default_rng(1)
    V = rng.normal(size=(400, 4))
    Z = sparse.csr_array((np.ones(400), (np.arange(400), rng.integers(0, 5, 400))), (400, 5))
    assert np.allclose(op.matmat(V), K @ V, atol=1e-12)
    assert np.allclose(op.matmat(Z), K @ Z.toarray(), atol=1e-12)
    assert np.allclose(op.matvec(V[:, 0]), K @ V[:, 0], atol=1e-12)
    assert np.allclose(op.diag(), np.diag(K))
    assert np.allclose(op.rows(50, 260), K[50:260], atol=1e-14)
    idx = np.array([5, 399, 0, 5, 133])
    assert np.allclose(op.take_rows(idx), K[idx], atol=1e-14)
    assert np.allclose(op.to_dense(), K, atol=1e-14)
    assert op.min() == pytest.approx(K.min())
    Y = rng.normal(size=(7, 3))
    assert np.allclose(op.cross(Y), ref.cross(Y))
    assert op.shape == (400, 400) and op.dtype == np.float64 and op.resident is resident
    assert np.array_equal(X, X0)  # the user's data is not modified
    op.release()


def test_operator_float32(client):
    X = np.random.default_rng(2).normal(size=(300, 2))
    op = DaskKernelOperator(RBF(0.5), X, client=client, dtype=np.float32)
    out = op.matmat(np.ones((300, 2)))
    assert out.dtype == np.float32
    assert np.allclose(out, make_operator(RBF(0.5), X).matmat(np.ones((300, 2))), rtol=1e-5)


def test_lloyd_solver_runs_unchanged_on_dask_operator(client, moons5k):
    X, _ = moons5k
    X = X[:1500]
    init = np.random.default_rng(0).integers(0, 3, size=(2, 1500))
    dense = make_operator(RBF(5.0), X, operator="dense")
    dask_op = DaskKernelOperator(RBF(5.0), X, client=client)
    lab_l, in_l, it_l = _lloyd_kernel_kmeans_runs(dense, init, 3)
    lab_d, in_d, it_d = _lloyd_kernel_kmeans_runs(dask_op, init, 3)
    assert np.array_equal(lab_l, lab_d)
    assert np.allclose(in_l, in_d) and np.array_equal(it_l, it_d)


def test_backend_kernel_kmeans_same_labels_5000(client, moons5k):
    X, _ = moons5k
    params = {"n_clusters": 2, "kernel_params": {"gamma": 5.0}, "random_state": 0}
    local = KernelKMeans(n_init=1, **params).fit(X)
    local3 = KernelKMeans(n_init=3, **params).fit(X)
    with dask_backend(client) as c:
        assert c is client
        assert isinstance(make_operator(RBF(5.0), X[:10]), DaskKernelOperator)
        km = KernelKMeans(n_init=1, **params).fit(X)
        km3 = KernelKMeans(n_init=3, **params).fit(X)
        pred = km.predict(X[:50])
    assert np.array_equal(km.labels_, local.labels_)
    assert km.inertia_ == pytest.approx(local.inertia_, rel=1e-10)
    assert km.n_iter_ == local.n_iter_
    assert np.array_equal(pred, local.predict(X[:50]))
    # with restarts, runs that reach the same partition under permuted label numbers have
    # inertias equal up to round-off; the first of them is kept, so the labels are the same
    assert np.array_equal(km3.labels_, local3.labels_)
    assert km3.inertia_ == pytest.approx(local3.inertia_, rel=1e-10)
    # the hook is gone after the block
    assert isinstance(make_operator(RBF(5.0), X[:10]), DenseKernelOperator)


def test_backend_operator_modes(client):
    X = np.random.default_rng(3).normal(size=(200, 2))
    with dask_backend(client, resident=False, n_blocks=4):
        auto = make_operator(RBF(1.0), X)
        dense = make_operator(RBF(1.0), X, operator="dense")
        chunked = make_operator(RBF(1.0), X, operator="chunked")
        pre = make_operator(_precomputed(), np.eye(3))
    assert not auto.resident and dense.resident and not chunked.resident
    assert len(auto.blocks) == 4
    assert isinstance(pre, DenseKernelOperator)  # a given matrix stays local
    geo = GeodesicKernel(n_neighbors=8).fit(X)
    with dask_backend(client):
        op = make_operator(geo, X)
    assert not isinstance(op, DaskKernelOperator)  # a data-dependent kernel stays local


def test_backend_memory_guard(client, monkeypatch):
    import kernel_patterns.distributed._operator as dop
    from kernel_patterns.kernels import MemoryBudgetError

    monkeypatch.setattr(dop, "worker_memory", lambda c: 100_000)  # 100 kB of workers
    X = np.random.default_rng(4).normal(size=(200, 2))  # K: 320 kB
    with dask_backend(client):
        with pytest.raises(MemoryBudgetError, match="approximation='nystrom'"):
            make_operator(RBF(1.0), X, operator="dense")
        auto = make_operator(RBF(1.0), X)
    assert not auto.resident  # recomputed blocks instead
    assert np.allclose(auto.matvec(np.ones(200)), make_operator(RBF(1.0), X).row_sums())


def test_operator_release_and_lazy_send(client):
    X = np.random.default_rng(5).normal(size=(50, 2))
    op = DaskKernelOperator(RBF(1.0), X, client=client)
    assert op._X_shared is None  # nothing sent until a product needs it
    assert op.cross(X[:3]).shape == (3, 50)
    assert op._X_shared is None
    op.persist()
    assert op._block_futures is not None
    op.release()
    assert op._block_futures is None and op._X_shared is None
    assert np.allclose(op.matvec(np.ones(50)), make_operator(RBF(1.0), X).row_sums())


def test_backend_gp_clustering_same_labels(client, rings):
    X, _ = rings
    gp = GPClustering(kernel=GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0))
    local = gp.fit(X).labels_.copy()
    with dask_backend(client):
        dist = gp.fit(X).labels_
    assert np.array_equal(local, dist)


def _precomputed():
    from kernel_patterns.kernels import Precomputed

    return Precomputed()


# ------------------------------------------------------------------------- (b) Nyström
def test_nystrom_features_equal_local(client):
    X, _ = make_two_moons((1500, 1500), random_state=1)
    Xd = da.from_array(X, chunks=(700, 2))
    F, nmap = nystrom_features(Xd, RBF(5.0), 150, rank=60, dtype="float64", random_state=0,
                               client=client)
    local = NystromKernelOperator(RBF(5.0), X, 150, rank=60, random_state=0)
    assert np.array_equal(nmap.landmark_indices, local.landmark_indices)
    Fd = client.compute(F).result()
    assert Fd.shape == local.features.shape
    assert np.allclose(Fd, local.features, atol=1e-8)
    assert np.allclose(nmap.transform(X[:20]), local.transform(X[:20]), atol=1e-8)


def test_nystrom_features_full_rank_and_sampled_landmarks(client):
    X, _ = make_two_moons((600, 600), random_state=4)
    Xd = da.from_array(X, chunks=(500, 2))
    F, _ = nystrom_features(Xd, RBF(5.0), 100, dtype="float64", random_state=0, client=client)
    local = NystromKernelOperator(RBF(5.0), X, 100, random_state=0).features
    Fd = client.compute(F).result()
    # at full rank the smallest kept eigenvalues are ill-conditioned: compare F Fᵀ
    assert np.allclose(Fd @ Fd.T, local @ local.T, atol=1e-7)
    F2, nmap = nystrom_features(Xd, RBF(5.0), 30, landmarks="kmeans++", sample_size=400,
                                random_state=0, client=client)
    assert F2.shape[0] == 1200 and nmap.landmarks.shape == (30, 2)
    assert nmap.landmark_indices is None  # chosen from a sample
    # every landmark is a row of X
    assert (np.abs(X[None] - nmap.landmarks[:, None]).sum(2).min(1) == 0).all()


def test_backend_nystrom_operator_equals_local(client):
    X, _ = make_two_moons((500, 500), random_state=2)
    local = make_operator(RBF(5.0), X, approximation="nystrom", n_components=80, rank=40,
                          random_state=0)
    with dask_backend(client):
        op = make_operator(RBF(5.0), X, approximation="nystrom", n_components=80, rank=40,
                           random_state=0)
    assert isinstance(op, DaskNystromOperator)
    assert np.array_equal(op.landmark_indices, local.landmark_indices)
    assert np.allclose(op.features, local.features, atol=1e-8)
    assert np.allclose(op.cross(X[:5]), local.cross(X[:5]), atol=1e-8)


def test_dask_kmeans_equals_lloyd_reference(client):
    X, _ = make_two_moons((2000, 2000), random_state=3)
    F = NystromKernelOperator(RBF(5.0), X, 100, random_state=0).features
    C0 = F[[0, 10, 3000]]
    ref = KMeans(3, init=C0, n_init=1, algorithm="lloyd", tol=0.0, max_iter=300).fit(F)
    res = dask_kmeans(da.from_array(F, chunks=(1100, -1)), 3, init=C0, tol=0.0, max_iter=300,
                      client=client)
    assert np.array_equal(res.labels.compute(), ref.labels_)
    assert np.allclose(res.cluster_centers, ref.cluster_centers_)
    assert res.inertia == pytest.approx(ref.inertia_, rel=1e-8)


def test_nystrom_kmeans_moons_generated_on_workers(client):
    X, y = make_moons(20_000, chunks=6_000, random_state=0)
    res = nystrom_kmeans(X, 2, kernel_params={"gamma": 8.0}, n_landmarks=100,
                         sample_size=5_000, random_state=0, client=client)
    assert isinstance(res.labels, da.Array)
    labels = client.compute(res.labels).result()
    truth = client.compute(y).result()
    assert clustering_accuracy(truth, labels) > 0.98
    new = np.array([[0.0, 1.0], [1.0, -0.5]])
    p = res.predict(new)
    assert p[0] != p[1]


def test_make_moons_is_reproducible():
    X1, y1 = make_moons(1000, chunks=300, random_state=5)
    X2, _ = make_moons(1000, chunks=300, random_state=5)
    a = X1.compute(scheduler="sync")
    assert a.shape == (1000, 2) and X1.chunks[0] == (300, 300, 300, 100)
    assert np.array_equal(a, X2.compute(scheduler="sync"))
    assert np.bincount(y1.compute(scheduler="sync")).tolist() == [500, 500]


# ------------------------------------------------------------------------- (c) GP flow
@pytest.fixture(scope="module")
def rings():
    X, y = make_rings(random_state=0)
    return scale_unit_interval(X), y


def test_gp_flow_same_seps_as_local(client, rings):
    X, _ = rings
    kernel = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)
    model = fit_variance_model(kernel, X)
    r_star = float(model.variance(X).max())
    ell = float(kernel.length_scale().min())
    kw = {"length_scale": ell, "variance_scale": r_star}
    local = flow_to_equilibria(model, X, **kw)
    dist = gp_flow(model, X, n_partitions=3, client=client, **kw)
    assert adjusted_rand_score(local.assignment, dist.assignment) == 1.0
    assert dist.equilibria.shape == local.equilibria.shape
    # every SEP found locally is found on the cluster (within the merge radius)
    gap = np.linalg.norm(local.equilibria[:, None] - dist.equilibria[None], axis=2).min(axis=1)
    assert gap.max() <= 0.1 * ell
    # a Dask array flows block by block
    dist2 = gp_flow(model, da.from_array(X, chunks=(70, 2)), client=client, **kw)
    assert adjusted_rand_score(local.assignment, dist2.assignment) == 1.0


def test_gp_predict_equals_local_predict(client, rings):
    X, _ = rings
    gp = GPClustering(kernel=GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=400.0)).fit(X)
    Xn = X + np.random.default_rng(0).normal(scale=0.01, size=X.shape)
    assert np.array_equal(gp_predict(gp, Xn, n_partitions=3, client=client), gp.predict(Xn))
    assert np.array_equal(
        gp_predict(gp, da.from_array(Xn, chunks=(100, 2)), client=client), gp.predict(Xn)
    )


# ------------------------------------------------------------------------- errors
def test_no_client_is_a_clear_error():
    X = np.ones((5, 2))
    with pytest.raises(ValueError, match="no Dask client"):
        DaskKernelOperator(RBF(1.0), X)
    with pytest.raises(ValueError, match="no Dask client"):
        nystrom_kmeans(da.ones((10, 2)), 2)
    with pytest.raises(TypeError, match=r"dask\.distributed\.Client"):
        DaskKernelOperator(RBF(1.0), X, client="tcp://127.0.0.1:8786")


def test_closed_client_is_a_clear_error(client):
    other = Client(client.scheduler.address)
    other.close()
    with pytest.raises(ValueError, match="not running"):
        DaskKernelOperator(RBF(1.0), np.ones((5, 2)), client=other)
    with pytest.raises(ValueError, match="not running"), dask_backend(other):
        pass


def test_backend_retry_settings_are_checked(client):
    with pytest.raises(ValueError, match="max_retries must be an integer >= 0"), \
            dask_backend(client, max_retries=-1):
        pass
    with pytest.raises(ValueError, match="timeout must be a number of seconds > 0"), \
            dask_backend(client, timeout=0):
        pass


def test_a_task_error_is_raised_not_retried(client):
    from kernel_patterns.distributed._resilience import gather

    calls = []

    def submit(i):
        calls.append(i)
        return client.submit(int, "not a number", pure=False)

    with pytest.raises(ValueError, match="invalid literal for int"):
        gather(client, 1, submit)
    assert calls == [0]  # only losses are re-submitted
    gp_bad = np.full((4, 2), np.nan)
    with pytest.raises(ValueError, match="NaN or infinity"):
        gp_flow(fit_variance_model(RBF(1.0), np.eye(2)), da.from_array(gp_bad), client=client,
                length_scale=1.0, variance_scale=1.0)


def test_bad_input(client):
    bad = np.ones((20, 2))
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DaskKernelOperator(RBF(1.0), bad, client=client)
    with pytest.raises(ValueError, match="precomputed"):
        DaskKernelOperator(_precomputed(), np.eye(3), client=client)
    with pytest.raises(ValueError, match="resident"):
        DaskKernelOperator(RBF(1.0), np.ones((5, 2)), client=client, resident="yes")
    op = DaskKernelOperator(RBF(1.0), np.random.default_rng(0).normal(size=(30, 2)),
                            client=client)
    with pytest.raises(ValueError, match="30 rows"):
        op.matmat(np.ones((29, 2)))
    with pytest.raises(ValueError, match="2-D"):
        nystrom_kmeans(da.ones(10), 2, client=client)
    with pytest.raises(TypeError, match=r"dask\.array"):
        nystrom_features(np.ones((10, 2)), client=client)
    with pytest.raises(ValueError, match="n_landmarks"):
        nystrom_kmeans(da.ones((10, 2), chunks=5), 2, n_landmarks=11, client=client)
    Xd = da.from_array(bad, chunks=(10, 2))
    with pytest.raises(ValueError, match="NaN"):
        nystrom_kmeans(Xd, 2, n_landmarks=3, landmarks=np.array([[0.0, 0], [1, 0], [0, 1]]),
                       client=client)
    with pytest.raises(ValueError, match="n_clusters"):
        dask_kmeans(da.ones((5, 2), chunks=5), 6, client=client)
    with pytest.raises(ValueError, match="features"):
        gp_flow(fit_variance_model(RBF(1.0), np.eye(3)), np.ones((4, 2)), length_scale=1.0,
                variance_scale=1.0, client=client)


def test_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"pip install 'kernel_patterns\[distributed\]'"):
        import_distributed()
