"""Nyström features on a Dask array, block by block on the workers.

``K ≈ F Fᵀ`` with ``F = K(X, L) U_r Λ_r^{-1/2}`` (the rank-restricted Nyström map of
``kernels/_nystrom.py``; Wang, Gittens & Mahoney, JMLR 2019). The landmarks ``L`` (m points)
are chosen in the driver, from the same random stream as :class:`NystromKernelOperator`
("uniform": the same indices) or from a uniform sample of the rows ("kmeans++", "leverage");
the m × r map is computed once in the driver, and ``dask.array.map_blocks`` applies
``x ↦ k(x, L) U_r Λ_r^{-1/2}`` to every row block of X where it lives. Only the landmarks
(m × d) and the map (m × r) travel; X and F stay on the workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from sklearn.utils import check_random_state

from .._validation import FloatArray, check_matrix, check_same_features
from ..kernels import DEFAULT_N_LANDMARKS, Kernel, LowRankKernelOperator, Precomputed, make_kernel
from ..utils import (
    kernel_columns,
    kmeanspp_landmarks,
    leverage_landmarks,
    nystrom_factor,
    resolve_dtype,
)
from ._client import check_client, import_dask_array
from ._resilience import compute

#: rows of X gathered to the driver to choose "kmeans++"/"leverage" landmarks (default).
DEFAULT_SAMPLE = 20_000


def _landmark_map(
    kernel: Kernel, L: FloatArray, rank: int | None, dtype: np.dtype[Any]
) -> FloatArray:
    """``U_r Λ_r^{-1/2}`` of the landmark block ``W = K(L, L)`` (m × r, float64)."""
    W = kernel_columns(kernel, L, L, dtype)
    return nystrom_factor(W, W, rank)[1]


def _feature_block(
    Xb: FloatArray, kernel: Kernel, L: FloatArray, M: FloatArray, dtype: np.dtype[Any]
) -> FloatArray:
    """Features of one row block (on a worker); non-finite input is a clear error."""
    if not np.all(np.isfinite(Xb)):
        raise ValueError("X contains NaN or infinity.")
    return kernel_columns(kernel, Xb, L, dtype) @ M.astype(dtype)


@dataclass
class NystromMap:
    """A fitted Nyström feature map ``x ↦ k(x, L) U_r Λ_r^{-1/2}``.

    Attributes
    ----------
    kernel : Kernel
    landmarks : ndarray of shape (m, n_features)
        The landmark points L.
    components : ndarray of shape (m, r)
        ``U_r Λ_r^{-1/2}`` (float64).
    dtype : numpy dtype
        Precision of the features.
    landmark_indices : ndarray or None
        Row indices of the landmarks in X (None when they came from a sample).

    Examples
    --------
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import fit_nystrom_map, make_moons
    >>> from kernel_patterns.kernels import RBF
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     X, _ = make_moons(200, chunks=100, random_state=0)
    ...     nmap = fit_nystrom_map(X, RBF(gamma=8.0), 20, random_state=0, client=client)
    >>> nmap.landmarks.shape, nmap.transform(np.zeros((3, 2))).shape
    ((20, 2), (3, 20))
    """

    kernel: Kernel
    landmarks: FloatArray
    components: FloatArray
    dtype: np.dtype[Any]
    landmark_indices: np.ndarray | None = None

    @property
    def rank(self) -> int:
        return int(self.components.shape[1])

    def transform(self, X: Any) -> Any:
        """Features of ``X``: a numpy array in, numpy out; a Dask array in, Dask out (lazy)."""
        if _is_dask(X):
            X = _check_dask_X(X, self.landmarks.shape[1])
            return X.map_blocks(
                _feature_block, self.kernel, self.landmarks, self.components, self.dtype,
                chunks=(X.chunks[0], (self.rank,)), dtype=self.dtype,
            )
        Xv = check_matrix(X, "X")
        check_same_features(self.landmarks, Xv, "the landmarks", "X")
        return _feature_block(Xv, self.kernel, self.landmarks, self.components, self.dtype)


def _is_dask(X: Any) -> bool:
    return type(X).__module__.startswith("dask.")


def _check_dask_X(X: Any, n_features: int | None = None) -> Any:
    """A 2-D float Dask array chunked by rows only (one chunk across the features)."""
    da = import_dask_array()
    if not isinstance(X, da.Array):
        raise TypeError(f"X must be a dask.array.Array; got {type(X).__name__}.")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X.shape}.")
    if any(np.isnan(s) for s in X.shape):
        raise ValueError("X has unknown chunk sizes; call X.compute_chunk_sizes() first.")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"X must not be empty; got shape {X.shape}.")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(
            f"X has {X.shape[1]} features, but the landmarks have {n_features}."
        )
    if X.dtype.kind not in "fiu":
        raise ValueError(f"X must hold numbers; got dtype {X.dtype}.")
    if X.dtype.kind != "f":
        X = X.astype(np.float64)
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    return X


def _sample_rows(X: Any, size: int, rng: np.random.RandomState, client: Any) -> FloatArray:
    """``size`` rows of a Dask array drawn uniformly without replacement, in the driver."""
    idx = np.sort(rng.choice(X.shape[0], size=size, replace=False))
    return check_matrix(compute(client, X[idx], what="sampling rows of X"), "X")


def fit_nystrom_map(
    X: Any,
    kernel: Kernel,
    n_landmarks: int,
    *,
    landmarks: str | ArrayLike = "uniform",
    rank: int | None = None,
    dtype: DTypeLike | str = "auto",
    sample_size: int | None = None,
    random_state: Any = None,
    client: Any = None,
) -> NystromMap:
    """Choose landmarks from a Dask array ``X`` and fit the Nyström map (in the driver).

    ``landmarks="uniform"`` draws the same indices as :class:`NystromKernelOperator` with the
    same ``random_state``; "kmeans++" and "leverage" run the local selection on a uniform
    sample of ``sample_size`` rows (default 20,000); an array gives the landmark points.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked data.
    kernel : Kernel
        The kernel.
    n_landmarks : int
        Landmarks m.
    landmarks : {"uniform", "kmeans++", "leverage"} or array of shape (m, n_features)
        How the landmarks are chosen, or the landmarks themselves.
    rank : int, default=None
        Keep the top ``rank`` eigenpairs of the landmark block.
    dtype : float32, float64 or "auto", default="auto"
        Precision of the features.
    sample_size : int, default=20,000
        Rows gathered for "kmeans++"/"leverage".
    random_state : int, RandomState or None, default=None
        The landmark choice.
    client : distributed.Client, default=None
        None: the client of the active :func:`dask_backend`.

    Returns
    -------
    NystromMap

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import fit_nystrom_map, make_moons
    >>> from kernel_patterns.kernels import RBF
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     X, _ = make_moons(200, chunks=100, random_state=0)
    ...     nmap = fit_nystrom_map(X, RBF(gamma=8.0), 20, random_state=0, client=client)
    ...     F = nmap.transform(X.compute())
    >>> F.shape, nmap.landmark_indices.shape
    ((200, 20), (20,))
    """
    client = check_client(client)
    X = _check_dask_X(X)
    n, d = X.shape
    if isinstance(n_landmarks, bool) or not isinstance(n_landmarks, (int, np.integer)):
        raise TypeError(f"n_landmarks must be an integer; got {n_landmarks!r}.")
    if not 1 <= n_landmarks <= n:
        raise ValueError(f"n_landmarks must be between 1 and n_samples={n}; got {n_landmarks}.")
    if rank is not None and not 1 <= rank <= n_landmarks:
        raise ValueError(f"rank must be between 1 and n_landmarks; got {rank}.")
    dt = resolve_dtype(dtype, n)
    if kernel.needs_data_scale():
        # RBF(gamma="scale") from a uniform sample (its own seed: the landmark draws below
        # stay those of the local operator)
        sample = _sample_rows(X, min(n, DEFAULT_SAMPLE), np.random.RandomState(0), client)
        kernel = kernel.with_data_scale(sample)
    rng = check_random_state(random_state)
    idx: np.ndarray | None = None
    if isinstance(landmarks, str):
        if landmarks == "uniform":
            idx = np.sort(rng.choice(n, size=n_landmarks, replace=False))
            L = check_matrix(compute(client, X[idx], what="gathering the landmarks"), "X")
        elif landmarks in ("kmeans++", "leverage"):
            s = min(n, max(n_landmarks, sample_size or DEFAULT_SAMPLE))
            S = _sample_rows(X, s, rng, client)
            pick = (
                kmeanspp_landmarks(kernel, S, n_landmarks, rng)
                if landmarks == "kmeans++"
                else leverage_landmarks(kernel, S, n_landmarks, rng, dt)
            )
            L = S[pick]
        else:
            raise ValueError(
                "landmarks must be 'uniform', 'kmeans++', 'leverage' or an array of points; "
                f"got {landmarks!r}."
            )
    else:
        L = check_matrix(landmarks, "landmarks")
        if L.shape[1] != d:
            raise ValueError(f"landmarks have {L.shape[1]} features, X has {d}.")
        if rank is not None and rank > L.shape[0]:
            raise ValueError(f"rank must be at most the number of landmarks; got {rank}.")
    return NystromMap(kernel, L, _landmark_map(kernel, L, rank, dt), dt, idx)


def nystrom_features(
    X: Any,
    kernel: Any = "rbf",
    n_landmarks: int = DEFAULT_N_LANDMARKS,
    *,
    kernel_params: dict[str, Any] | None = None,
    landmarks: str | ArrayLike = "uniform",
    rank: int | None = None,
    dtype: DTypeLike | str = "auto",
    sample_size: int | None = None,
    random_state: Any = None,
    client: Any = None,
    persist: bool = True,
) -> tuple[Any, NystromMap]:
    """Nyström features of a Dask array, computed with ``map_blocks`` on the workers.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked data (it may be generated on the workers and never exist in the driver).
    kernel : str, Kernel or callable, default="rbf"
    n_landmarks : int, default=300
        Landmarks m.
    kernel_params : dict, default=None
    landmarks : {"uniform", "kmeans++", "leverage"} or array of shape (m, n_features)
    rank : int, default=None
        Keep the top ``rank`` eigenpairs of the landmark block.
    dtype : float32, float64 or "auto", default="auto"
        "auto": float64 up to 20,000 samples, float32 beyond.
    sample_size : int, default=20,000
        Rows gathered to choose "kmeans++"/"leverage" landmarks.
    random_state : int, RandomState or None
    client : distributed.Client, default=None
        None: the client of the active :func:`dask_backend`.
    persist : bool, default=True
        Persist the features on the workers (else return the lazy array).

    Returns
    -------
    features : dask.array.Array of shape (n_samples, r)
    nystrom_map : NystromMap
        The landmarks and map (``transform`` gives features of new points).

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import make_moons, nystrom_features
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     X, _ = make_moons(200, chunks=100, random_state=0)
    ...     F, nmap = nystrom_features(X, "rbf", 20, kernel_params={"gamma": 8.0},
    ...                                random_state=0, client=client)
    ...     chunks = F.chunks
    >>> F.shape, chunks[0]
    ((200, 20), (100, 100))
    """
    client = check_client(client)
    k = make_kernel(kernel, kernel_params)
    if isinstance(k, Precomputed):
        raise ValueError("Nyström features need a kernel function, not 'precomputed'.")
    X = _check_dask_X(X)
    nmap = fit_nystrom_map(
        X, k, n_landmarks, landmarks=landmarks, rank=rank, dtype=dtype,
        sample_size=sample_size, random_state=random_state, client=client,
    )
    F = nmap.transform(X)
    return (client.persist(F) if persist else F), nmap


class DaskNystromOperator(LowRankKernelOperator):
    """:class:`NystromKernelOperator` with the features computed on Dask workers.

    Same landmarks as the local operator for the same ``random_state`` (chosen in the driver
    by the same code), features ``F`` computed block-wise on the workers and gathered
    (N × r). What ``make_operator(approximation="nystrom")`` returns inside
    :func:`dask_backend`.

    Parameters
    ----------
    kernel : Kernel
        The kernel (not ``"precomputed"``).
    X : array-like of shape (n_samples, n_features)
        Training points (in the driver; sent to the workers in blocks).
    n_landmarks : int or None
        Landmarks m (None: ``min(300, n_samples)``).
    rank : int, default=None
        Keep the top ``rank`` eigenpairs of the landmark block.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the landmarks are chosen.
    dtype : numpy dtype, default=float64
        Precision of the features.
    random_state : int, RandomState or None, default=None
        The landmark choice.
    client : distributed.Client, default=None
        None: the client of the active :func:`dask_backend`.
    n_blocks : int, default=None
        Row blocks of ``X`` (default: one per worker thread).

    Attributes
    ----------
    features : ndarray of shape (n_samples, r)
    landmark_indices : ndarray of shape (n_landmarks,)

    Examples
    --------
    The same landmarks and features as the local :class:`NystromKernelOperator`:

    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from kernel_patterns.distributed import DaskNystromOperator
    >>> from kernel_patterns.kernels import RBF, make_operator
    >>> X = np.random.RandomState(0).normal(size=(200, 2))
    >>> local = make_operator(RBF(gamma=0.5), X, approximation="nystrom", n_components=20,
    ...                       random_state=0)
    >>> with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     op = DaskNystromOperator(RBF(gamma=0.5), X, 20, random_state=0, client=client)
    >>> op.features.shape, bool(np.allclose(op.matvec(np.ones(200)), local.matvec(np.ones(200))))
    ((200, 20), True)
    """

    def __init__(
        self,
        kernel: Kernel,
        X: ArrayLike,
        n_landmarks: int | None,
        *,
        rank: int | None = None,
        landmarks: str = "uniform",
        dtype: DTypeLike = np.float64,
        random_state: Any = None,
        client: Any = None,
        n_blocks: int | None = None,
    ) -> None:
        da = import_dask_array()
        client = check_client(client)
        if isinstance(kernel, Precomputed):
            raise ValueError("the Nystrom operator needs a kernel function, not 'precomputed'.")
        Xv = check_matrix(X, "X")
        n = Xv.shape[0]
        m = min(DEFAULT_N_LANDMARKS, n) if n_landmarks is None else n_landmarks
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
            raise TypeError(f"n_landmarks must be an integer; got {m!r}.")
        m = int(m)
        if not 1 <= m <= n:
            raise ValueError(f"n_landmarks must be between 1 and n_samples={n}; got {m}.")
        if rank is not None and not 1 <= rank <= m:
            raise ValueError(f"rank must be between 1 and n_landmarks; got {rank}.")
        dt = np.dtype(dtype)
        rng = check_random_state(random_state)
        if landmarks == "uniform":
            idx = np.sort(rng.choice(n, size=m, replace=False))
        elif landmarks == "kmeans++":
            idx = kmeanspp_landmarks(kernel, Xv, m, rng)
        elif landmarks == "leverage":
            idx = leverage_landmarks(kernel, Xv, m, rng, dt)
        else:
            raise ValueError(
                f"landmarks must be 'uniform', 'kmeans++' or 'leverage'; got {landmarks!r}."
            )
        L = Xv[idx]
        W = kernel_columns(kernel, L, L, dt)
        M = nystrom_factor(W, W, rank)[1]
        nb = n_blocks or max(1, sum(dict(client.nthreads()).values()))
        Xd = da.from_array(Xv, chunks=(-(-n // nb), Xv.shape[1]))
        F = Xd.map_blocks(
            _feature_block, kernel, L, M, dt, chunks=(Xd.chunks[0], (M.shape[1],)), dtype=dt
        )
        super().__init__(compute(client, F, what="Nyström features"), kernel=kernel, X=Xv)
        self.landmark_indices = idx
        self.feature_map = M

    def transform(self, Y: ArrayLike) -> FloatArray:
        """Features of new points: ``K(Y, L) U_r Λ_r^{-1/2}``."""
        Yv = check_matrix(Y, "X")
        assert self.X is not None and self.kernel is not None
        check_same_features(self.X, Yv, "the training data", "X")
        assert self.feature_map is not None
        return _feature_block(Yv, self.kernel, self.X[self.landmark_indices], self.feature_map,
                              self.dtype)
