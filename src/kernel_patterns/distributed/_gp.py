"""GP-variance clustering's flow (eq. 4.2) partition by partition on Dask workers.

The fitted variance model (:class:`~kernel_patterns.cluster.gp.GPVarianceModel`:
kernel, training points and Cholesky factor; a picklable dataclass) is sent once, as a task
the scheduler can recompute (not ``client.scatter``: scattered data dies with its worker and
takes every task that reads it along), and the workers fetch it from each other; each
partition of the points (sent inside its own task, or a Dask array's block) descends σ²
with the existing batched solver :func:`~kernel_patterns.cluster.gp.flow_to_equilibria`.
The driver then merges the partitions' SEPs with the solver's own rule: a SEP within
``merge_radius`` length scales of one already known joins it, otherwise it is new.
"""

from __future__ import annotations

import inspect
import itertools
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._validation import FloatArray, check_matrix
from ..cluster.gp import GPVarianceModel, flow_to_equilibria
from ._client import check_client, worker_threads
from ._nystrom import _check_dask_X, _is_dask
from ._resilience import Shared, gather

#: default partitions of a numpy X per worker thread: a lost worker loses one partition's
#: work, not half of it, and the threads stay busy to the end.
PARTITIONS_PER_THREAD = 4


@dataclass
class DaskFlowResult:
    """Where the points went (the distributed counterpart of ``FlowResult``).

    Attributes
    ----------
    equilibria : ndarray of shape (n_equilibria, n_features)
        The SEPs (known ones first, then new ones, partition by partition).
    assignment : ndarray of shape (n_points,)
        Index into ``equilibria`` of the SEP each point reached.
    n_iter : int
        Largest number of descent iterations of a partition.
    n_unconverged : int
        Points stopped by ``max_iter``.

    Examples
    --------
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.cluster.gp import fit_variance_model
    >>> from kernel_patterns.distributed import gp_flow
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     res = gp_flow(model, X, n_partitions=2, client=client,
    ...                   length_scale=1.0, variance_scale=1.3)
    >>> res.assignment, res.equilibria.shape, res.n_unconverged
    (array([0, 0, 0, 1, 1, 1]), (2, 2), 0)
    """

    equilibria: FloatArray
    assignment: NDArray[np.intp]
    n_iter: int
    n_unconverged: int


def _flow_partition(model: GPVarianceModel, X0: FloatArray, kwargs: dict[str, Any]) -> tuple[
    FloatArray, NDArray[np.intp], int, int
]:
    """One partition's flow on a worker (arrays out; endpoints stay there)."""
    X0 = np.asarray(X0, dtype=np.float64)
    if not np.all(np.isfinite(X0)):
        raise ValueError("X contains NaN or infinity.")
    res = flow_to_equilibria(model, X0, **kwargs)
    return res.equilibria, res.assignment, res.n_iter, res.n_unconverged


def _merge_seps(
    parts: list[tuple[FloatArray, NDArray[np.intp], int, int]],
    known: FloatArray | None,
    radius: float,
    d: int,
) -> tuple[FloatArray, NDArray[np.intp]]:
    """Union of the partitions' SEPs (nearest within ``radius`` joins) and the assignment."""
    seps: list[FloatArray] = [] if known is None else [s.copy() for s in known]
    assignment = []
    for eq, assign, _, _ in parts:
        mapping = np.empty(eq.shape[0], dtype=np.intp)
        for j, s in enumerate(eq):
            if seps:
                dist = np.linalg.norm(np.asarray(seps) - s, axis=1)
                i = int(np.argmin(dist))
                if dist[i] <= radius:
                    mapping[j] = i
                    continue
            seps.append(np.array(s, dtype=np.float64))
            mapping[j] = len(seps) - 1
        assignment.append(mapping[assign])
    equilibria = np.asarray(seps, dtype=np.float64).reshape(-1, d)
    return equilibria, np.concatenate(assignment).astype(np.intp)


def _partitions(X: Any, client: Any, n_partitions: int | None) -> tuple[list[Any], int]:
    """The row partitions of ``X``: numpy slices (each sent inside its own task, so the
    scheduler can recompute it) or, for a Dask array, a :class:`Shared` per block (its
    graph is the lineage)."""
    if _is_dask(X):
        Xd = _check_dask_X(X)
        blocks = Xd.to_delayed().ravel().tolist()
        return [Shared(client, make=partial(client.compute, b)) for b in blocks], int(
            Xd.shape[1])
    Xv = check_matrix(X, "X")
    n = Xv.shape[0]
    p = n_partitions or PARTITIONS_PER_THREAD * sum(worker_threads(client).values())
    edges = np.linspace(0, n, min(int(p), n) + 1).round().astype(int)
    return [Xv[a:b] for a, b in itertools.pairwise(edges)], int(Xv.shape[1])


def _run_partitions(
    client: Any, func: Any, shared: Shared, parts: list[Any], *args: Any, what: str
) -> list[Any]:
    """``func(shared value, part, *args)`` for every partition, surviving lost workers."""

    def submit(i: int) -> Any:
        part = parts[i].future() if isinstance(parts[i], Shared) else parts[i]
        return client.submit(func, shared.future(), part, *args, pure=False)

    try:
        return gather(client, len(parts), submit, what=what)
    finally:
        shared.release()
        for part in parts:
            if isinstance(part, Shared):
                part.release()


def gp_flow(
    model: GPVarianceModel,
    X: Any,
    *,
    n_partitions: int | None = None,
    client: Any = None,
    **flow_params: Any,
) -> DaskFlowResult:
    """:func:`flow_to_equilibria` of every row of ``X``, partition by partition on Dask.

    Parameters
    ----------
    model : GPVarianceModel
        The fitted variance model (sent once; the workers share it).
    X : ndarray or dask.array.Array of shape (n_points, n_features)
        Starting points: a numpy array is split into ``n_partitions`` row ranges; a Dask
        array flows block by block where its blocks are.
    n_partitions : int, default=None
        For a numpy ``X``: partitions (default four per worker thread).
    client : distributed.Client, default=None
    **flow_params
        Keyword arguments of :func:`~kernel_patterns.cluster.gp.flow_to_equilibria`, applied
        to every partition: ``length_scale`` and ``variance_scale`` (required), ``tol``,
        ``max_iter``, ``merge_radius``, ``capture``, ``known``, ``share_new``.

    Returns
    -------
    DaskFlowResult

    Examples
    --------
    The same SEPs as :func:`~kernel_patterns.cluster.gp.flow_to_equilibria` in one process:

    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.cluster.gp import fit_variance_model, flow_to_equilibria
    >>> from kernel_patterns.distributed import gp_flow
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> model = fit_variance_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X)
    >>> local = flow_to_equilibria(model, X, length_scale=1.0, variance_scale=1.3)
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     res = gp_flow(model, X, n_partitions=2, client=client,
    ...                   length_scale=1.0, variance_scale=1.3)
    >>> bool(np.allclose(res.equilibria, local.equilibria, atol=1e-3))
    True
    """
    client = check_client(client)
    if not isinstance(model, GPVarianceModel):
        raise TypeError(f"model must be a GPVarianceModel; got {type(model).__name__}.")
    kwargs = dict(flow_params)
    for name in ("length_scale", "variance_scale"):
        if name not in kwargs:
            raise TypeError(f"gp_flow() missing required keyword argument: {name!r}.")
        value = kwargs[name]
        if not (np.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite number > 0; got {value!r}.")
        kwargs[name] = float(value)
    unknown = set(kwargs) - set(inspect.signature(flow_to_equilibria).parameters) - {
        "model", "X0"}
    if unknown:
        raise TypeError(f"gp_flow() got unexpected keyword argument(s): {sorted(unknown)}.")
    parts, d = _partitions(X, client, n_partitions)
    if d != model.X.shape[1]:
        raise ValueError(f"X has {d} features, but the model was fitted on {model.X.shape[1]}.")
    results = _run_partitions(client, _flow_partition, Shared(client, model), parts, kwargs,
                              what="gp_flow")
    default_radius = inspect.signature(flow_to_equilibria).parameters["merge_radius"].default
    radius = kwargs.get("merge_radius", default_radius) * kwargs["length_scale"]
    equilibria, assignment = _merge_seps(results, kwargs.get("known"), radius, d)
    return DaskFlowResult(
        equilibria=equilibria,
        assignment=assignment,
        n_iter=max(r[2] for r in results),
        n_unconverged=sum(r[3] for r in results),
    )


def _predict_partition(estimator: Any, X: FloatArray) -> NDArray[np.intp]:
    return np.asarray(estimator.predict(X), dtype=np.intp)


def gp_predict(
    estimator: Any, X: Any, *, n_partitions: int | None = None, client: Any = None
) -> NDArray[np.intp]:
    """Clusters of many new points from a fitted :class:`GPClustering`, partition by partition.

    The fitted estimator (its variance model, SEPs and their clusters) is sent once and
    shared by the workers; each partition runs ``estimator.predict`` (a flow to the known
    SEPs, each point independent of the others), so the labels equal ``estimator.predict(X)``.

    Parameters
    ----------
    estimator : GPClustering
        Fitted.
    X : ndarray or dask.array.Array of shape (n_points, n_features)
    n_partitions : int, default=None
        For a numpy ``X`` (default: four per worker thread).
    client : distributed.Client, default=None

    Returns
    -------
    labels : ndarray of shape (n_points,)

    Examples
    --------
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns import GPClustering
    >>> from kernel_patterns.distributed import gp_predict
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> est = GPClustering(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), min_cluster_size=2).fit(X)
    >>> new = np.array([[0.1, 0.0], [3.0, 3.1], [0.2, 0.2]])
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     labels = gp_predict(est, new, n_partitions=2, client=client)
    >>> bool((labels == est.predict(new)).all()), bool(labels[0] != labels[1])
    (True, True)
    """
    from sklearn.utils.validation import check_is_fitted

    client = check_client(client)
    check_is_fitted(estimator)
    parts, d = _partitions(X, client, n_partitions)
    if d != estimator.n_features_in_:
        raise ValueError(
            f"X has {d} features, but the estimator was fitted on {estimator.n_features_in_}."
        )
    labels = _run_partitions(client, _predict_partition, Shared(client, estimator), parts,
                             what="gp_predict")
    return np.concatenate(labels).astype(np.intp)
