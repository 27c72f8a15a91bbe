"""Lloyd's k-means on a row-chunked Dask array, and Nyström kernel k-means built on it.

Each iteration maps every block of F (n_b × r, resident on a worker) to its per-cluster sums,
counts and squared distances (k × (r + 2) numbers), and only those travel to the driver,
which adds them up and moves the k × r centroids. The labels stay a Dask array. The start
is k-means (``n_init`` restarts, scikit-learn) on a uniform sample of the rows, so the
distributed iterations only polish centroids that are nearly right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from scipy import sparse
from sklearn.utils import check_random_state

from .._validation import FloatArray, check_matrix, check_n_clusters
from ..kernels import DEFAULT_N_LANDMARKS, make_kernel
from ._client import check_client
from ._nystrom import NystromMap, _check_dask_X, _sample_rows, nystrom_features
from ._resilience import compute

#: rows gathered to the driver for the k-means start (default).
DEFAULT_INIT_SAMPLE = 20_000


def _sq_distances(Fb: FloatArray, C: FloatArray) -> FloatArray:
    F64 = np.asarray(Fb, dtype=np.float64)
    d = (
        np.einsum("ij,ij->i", F64, F64)[:, None]
        - 2.0 * F64 @ C.T
        + np.einsum("ij,ij->i", C, C)[None, :]
    )
    return np.maximum(d, 0.0)


def _block_stats(Fb: FloatArray, C: FloatArray) -> FloatArray:
    """Per-cluster ``[Σ f, count, Σ ‖f − c‖²]`` of one block, shape (k, r + 2) (on a worker)."""
    k, r = C.shape
    d = _sq_distances(Fb, C)
    lab = np.argmin(d, axis=1)
    out = np.zeros((k, r + 2))
    Z = sparse.csr_array((np.ones(lab.size), (lab, np.arange(lab.size))), shape=(k, lab.size))
    out[:, :r] = Z @ np.asarray(Fb, dtype=np.float64)
    out[:, r] = np.bincount(lab, minlength=k)
    out[:, r + 1] = np.bincount(lab, weights=d[np.arange(lab.size), lab], minlength=k)
    return out


def _block_labels(Fb: FloatArray, C: FloatArray) -> np.ndarray:
    return np.argmin(_sq_distances(Fb, C), axis=1).astype(np.intp)


@dataclass
class DaskKMeansResult:
    """What :func:`dask_kmeans` and :func:`nystrom_kmeans` return.

    Attributes
    ----------
    labels : dask.array.Array of shape (n_samples,)
        Nearest final centroid of every row (lazy; ``.compute()`` or ``client.compute``).
    cluster_centers : ndarray of shape (n_clusters, r)
        Centroids in feature space.
    inertia : float
        Σ of squared distances to the nearest centroid (of the centroids before the last move).
    n_iter : int
        Distributed Lloyd iterations.
    nystrom_map : NystromMap or None
        The feature map (``nystrom_kmeans`` only); ``predict`` uses it.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import make_moons, nystrom_kmeans
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     X, y = make_moons(200, chunks=100, random_state=0)
    ...     res = nystrom_kmeans(X, 2, kernel_params={"gamma": 8.0}, n_landmarks=20,
    ...                          random_state=0, client=client)
    ...     labels = res.labels.compute()
    >>> labels.shape, res.cluster_centers.shape, res.nystrom_map is not None
    ((200,), (2, 20), True)
    """

    labels: Any
    cluster_centers: FloatArray
    inertia: float
    n_iter: int
    nystrom_map: NystromMap | None = None

    def predict(self, X: Any) -> Any:
        """Nearest centroid for new points (features through ``nystrom_map`` when set)."""
        F = X if self.nystrom_map is None else self.nystrom_map.transform(X)
        if type(F).__module__.startswith("dask."):
            return F.map_blocks(_block_labels, self.cluster_centers, drop_axis=1,
                                dtype=np.intp)
        return _block_labels(check_matrix(F, "X"), self.cluster_centers)


def _lloyd_dask(
    F: Any, C: FloatArray, max_iter: int, tol: float, client: Any
) -> tuple[FloatArray, float, int]:
    """Lloyd iterations from centroids ``C``; ``tol`` is on Σ‖ΔC‖² (absolute). Pure driver."""
    k, r = C.shape
    nb = len(F.chunks[0])
    C = np.array(C, dtype=np.float64)
    inertia = np.inf
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        stats = F.map_blocks(
            _block_stats, C, chunks=((k,) * nb, (r + 2,)), dtype=np.float64
        )
        S = np.asarray(compute(client, stats, what=f"k-means iteration {n_iter}"))
        S = S.reshape(nb, k, r + 2).sum(axis=0)
        counts = S[:, r]
        inertia = float(S[:, r + 1].sum())
        new = C.copy()
        full = counts > 0
        new[full] = S[full, :r] / counts[full, None]  # an empty cluster keeps its centroid
        shift = float(np.sum((new - C) ** 2))
        C = new
        if shift <= tol:
            break
    return C, inertia, n_iter


def dask_kmeans(
    F: Any,
    n_clusters: int,
    *,
    init: str | ArrayLike = "k-means++",
    n_init: int = 10,
    max_iter: int = 100,
    tol: float = 1e-4,
    sample_size: int | None = None,
    random_state: Any = None,
    client: Any = None,
) -> DaskKMeansResult:
    """k-means of a row-chunked Dask array; only centroids and per-block sums move.

    Parameters
    ----------
    F : dask.array.Array of shape (n_samples, r)
    n_clusters : int
    init : "k-means++" or array of shape (n_clusters, r), default="k-means++"
        "k-means++": scikit-learn ``KMeans`` (``n_init`` restarts) on ``sample_size`` rows
        drawn uniformly (default 20,000); an array: the initial centroids.
    n_init : int, default=10
    max_iter : int, default=100
        Distributed Lloyd iterations at most.
    tol : float, default=1e-4
        Stop when Σ‖ΔC‖² ≤ tol × the mean per-feature variance of the sample (0: a fixed point).
    sample_size : int, default=20,000
    random_state : int, RandomState or None
    client : distributed.Client, default=None

    Returns
    -------
    DaskKMeansResult

    Examples
    --------
    Two well-separated groups of rows, in two chunks:

    >>> import dask.array as da
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import dask_kmeans
    >>> F = da.from_array(np.repeat([[0.0, 0.0], [5.0, 5.0]], 50, axis=0), chunks=(25, 2))
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     res = dask_kmeans(F, 2, random_state=0, client=client)
    ...     labels = res.labels.compute()
    >>> np.round(np.sort(res.cluster_centers[:, 0]), 3), len(set(labels[:50])), res.inertia
    (array([0., 5.]), 1, 0.0)
    """
    client = check_client(client)
    F = _check_dask_X(F)
    n, r = F.shape
    for name, v, low in (("n_clusters", n_clusters, 1), ("n_init", n_init, 1),
                         ("max_iter", max_iter, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an integer; got {v!r}.")
        if v < low:
            raise ValueError(f"{name} must be >= {low}; got {v}.")
    check_n_clusters(n_clusters, n)
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a finite number >= 0; got {tol!r}.")
    rng = check_random_state(random_state)
    S = _sample_rows(F, min(n, max(n_clusters, sample_size or DEFAULT_INIT_SAMPLE)), rng, client)
    if isinstance(init, str):
        if init != "k-means++":
            raise ValueError(f"init must be 'k-means++' or an array of centroids; got {init!r}.")
        from sklearn.cluster import KMeans

        km = KMeans(n_clusters, n_init=n_init, random_state=rng.randint(2**31 - 1))
        C0 = km.fit(S.astype(np.float64)).cluster_centers_
    else:
        C0 = check_matrix(init, "init")
        if C0.shape != (n_clusters, r):
            raise ValueError(
                f"init as an array must have shape (n_clusters, r) = ({n_clusters}, {r}); "
                f"got {C0.shape}."
            )
    scale = float(np.mean(np.var(S.astype(np.float64), axis=0)))
    C, inertia, n_iter = _lloyd_dask(F, C0, max_iter, tol * scale, client)
    labels = F.map_blocks(_block_labels, C, drop_axis=1, dtype=np.intp)
    return DaskKMeansResult(labels, C, inertia, n_iter)


def nystrom_kmeans(
    X: Any,
    n_clusters: int,
    *,
    kernel: Any = "rbf",
    kernel_params: dict[str, Any] | None = None,
    n_landmarks: int = DEFAULT_N_LANDMARKS,
    landmarks: str | ArrayLike = "uniform",
    rank: int | None = None,
    dtype: DTypeLike | str = "auto",
    n_init: int = 10,
    max_iter: int = 100,
    tol: float = 1e-4,
    sample_size: int | None = None,
    random_state: Any = None,
    client: Any = None,
) -> DaskKMeansResult:
    """Nyström kernel k-means of a Dask array, entirely on the workers.

    Features ``F`` (``map_blocks``, see :func:`nystrom_features`) are persisted on the
    workers, then clustered by :func:`dask_kmeans`: k-means on F is kernel k-means with the
    Nyström kernel ``F Fᵀ`` (the same objective, eq. 8.12, on the approximate kernel). Only
    landmarks, the map, centroids and per-block sums cross the network; labels are returned
    as a Dask array.

    Parameters are those of :func:`nystrom_features` and :func:`dask_kmeans`.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked data.
    n_clusters : int
        Number of clusters.
    kernel, kernel_params, n_landmarks, landmarks, rank, dtype
        The kernel and its Nyström features, as in :func:`nystrom_features`.
    n_init, max_iter, tol
        The k-means, as in :func:`dask_kmeans`.
    sample_size : int, default=20,000
        Rows gathered to choose landmarks and to initialise k-means.
    random_state : int, RandomState or None, default=None
        Every random choice (landmarks, k-means++).
    client : distributed.Client, default=None
        None: the client of the active :func:`dask_backend`.

    Returns
    -------
    DaskKMeansResult
        With ``nystrom_map`` set (``predict`` works on new points, numpy or Dask).

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import make_moons, nystrom_kmeans
    >>> from kernel_patterns.metrics import clustering_accuracy
    >>> with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, \\
    ...         Client(cluster) as client:
    ...     X, y = make_moons(20_000, chunks=5_000, random_state=0)
    ...     res = nystrom_kmeans(X, 2, kernel_params={"gamma": 8.0}, n_landmarks=100,
    ...                          sample_size=5_000, random_state=0, client=client)
    ...     acc = clustering_accuracy(y.compute(), res.labels.compute())
    >>> acc > 0.99
    True
    """
    client = check_client(client)
    k = make_kernel(kernel, kernel_params)
    F, nmap = nystrom_features(
        X, k, n_landmarks, landmarks=landmarks, rank=rank, dtype=dtype,
        sample_size=sample_size, random_state=random_state, client=client,
    )
    res = dask_kmeans(
        F, n_clusters, n_init=n_init, max_iter=max_iter, tol=tol, sample_size=sample_size,
        random_state=random_state, client=client,
    )  # F (persisted) is released with the last reference, when the labels are done
    res.nystrom_map = nmap
    return res
