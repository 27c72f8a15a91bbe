"""The k-nearest-neighbour affinity of spectral clustering and the Laplacian embedding.

``kernel="nearest_neighbors"`` is the symmetrised connectivity graph scikit-learn's
``SpectralClustering(affinity="nearest_neighbors")`` builds: ``A = ½ (C + Cᵀ)`` where row i of
C has a 1 at each of the ``n_neighbors`` nearest points of x_i (itself included). Its width is
local by construction (each point's scale is the distance to its own neighbours), which is what
a single global RBF width lacks on real data: with one γ, outliers in 30-64 dimensions become
near-isolated vertices and the leading eigenvectors pick them out (the user guide's Spectral
clustering page has the measurements).
``"precomputed_nearest_neighbors"`` takes ``X`` as an N × N distance matrix (dense or a sparse
distance graph) and builds the same connectivity from it.

New points get the row of their ``n_neighbors`` nearest training points (weight 1 each), the
precomputed-block path of the out-of-sample extension.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.neighbors import NearestNeighbors, sort_graph_by_row_values
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import validate_data

from .._tails import apply_to, transform_for_fit
from .._validation import check_matrix
from ..kernels import KernelOperator, Precomputed, make_operator

#: kernel names that mean a k-nearest-neighbour affinity.
KNN_KERNELS = ("nearest_neighbors", "precomputed_nearest_neighbors")


def is_knn_kernel(kernel: Any) -> bool:
    """Whether ``kernel`` names the k-NN affinity.

    Parameters
    ----------
    kernel : object
        What an estimator was given as ``kernel=``.

    Returns
    -------
    bool
        True for ``"nearest_neighbors"`` and ``"precomputed_nearest_neighbors"``.

    Examples
    --------
    >>> from kernel_patterns.utils import is_knn_kernel
    >>> is_knn_kernel("nearest_neighbors"), is_knn_kernel("rbf")
    (True, False)
    """
    return isinstance(kernel, str) and kernel in KNN_KERNELS


def check_distance_graph(X: Any) -> None:
    """A precomputed distance graph must be square with finite, non-negative entries."""
    n, m = X.shape
    if n != m:
        raise ValueError(
            "kernel='precomputed_nearest_neighbors' needs X to be the square matrix of "
            f"distances between the samples; got shape {X.shape}."
        )
    data = X.data if sparse.issparse(X) else np.asarray(X)
    if data.size and (not np.all(np.isfinite(data)) or float(np.min(data)) < 0):
        raise ValueError(
            "kernel='precomputed_nearest_neighbors' needs finite, non-negative distances in X."
        )


def knn_affinity(
    X: Any, n_neighbors: int, *, precomputed: bool
) -> tuple[sparse.csr_array, NearestNeighbors, int]:
    """The symmetrised k-NN connectivity ``½ (C + Cᵀ)`` of ``X`` and the fitted neighbour model.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features), or (n_samples, n_samples)
        Points (dense or sparse), or (``precomputed=True``) their distance matrix, dense or
        sparse.
    n_neighbors : int
        Neighbours per point, the point itself included; capped at n_samples.
    precomputed : bool
        Whether ``X`` holds distances.

    Returns
    -------
    affinity : scipy.sparse.csr_array of shape (n_samples, n_samples)
    neighbors : sklearn.neighbors.NearestNeighbors
        The fitted neighbour model (for new points, :func:`knn_rows`).
    n_neighbors : int
        The number of neighbours used.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.utils import knn_affinity
    >>> A, nn, k = knn_affinity(np.array([[0.0], [1.0], [5.0], [6.0]]), 2, precomputed=False)
    >>> A.toarray()
    array([[1., 1., 0., 0.],
           [1., 1., 0., 0.],
           [0., 0., 1., 1.],
           [0., 0., 1., 1.]])
    """
    n = X.shape[0]
    k = min(int(n_neighbors), n)
    if precomputed:
        check_distance_graph(X)
        if sparse.issparse(X):  # a copy sorted by distance, as the neighbour search wants
            X = sort_graph_by_row_values(sparse.csr_matrix(X, copy=True),
                                         warn_when_not_sorted=False)
        else:  # the search keeps its training matrix: a copy, not the caller's array
            X = np.array(X, copy=True)
        nn = NearestNeighbors(n_neighbors=k, metric="precomputed").fit(X)
        # a dense distance matrix makes every point its own nearest neighbour (distance 0);
        # a sparse graph that does not store the zero diagonal leaves the point out
        try:
            C = nn.kneighbors_graph(X, mode="connectivity")
        except ValueError as exc:
            raise ValueError(
                f"kernel='precomputed_nearest_neighbors' with n_neighbors={k}: {exc}"
            ) from None
    else:
        # NearestNeighbors keeps the array it is fitted on, without a copy: the fitted model
        # (and its predict) must not change when the caller edits X afterwards
        X = X.copy()
        nn = NearestNeighbors(n_neighbors=k).fit(X)
        C = nn.kneighbors_graph(X, mode="connectivity")  # includes the point itself
    C = sparse.csr_array(C, dtype=np.float64)
    A = (0.5 * (C + C.T)).tocsr()
    A.sum_duplicates()
    return A, nn, k


def knn_rows(nn: NearestNeighbors, Y: Any) -> sparse.csr_array:
    """Affinity rows of new points: 1 at each of their nearest training points.

    Parameters
    ----------
    nn : sklearn.neighbors.NearestNeighbors
        The model returned by :func:`knn_affinity`.
    Y : array-like of shape (n_new, n_features), or (n_new, n_samples) distances

    Returns
    -------
    scipy.sparse.csr_array of shape (n_new, n_samples)

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.utils import knn_affinity, knn_rows
    >>> _, nn, _ = knn_affinity(np.array([[0.0], [1.0], [5.0], [6.0]]), 2, precomputed=False)
    >>> knn_rows(nn, np.array([[5.5]])).toarray()
    array([[0., 0., 1., 1.]])
    """
    return sparse.csr_array(nn.kneighbors_graph(Y, mode="connectivity"), dtype=np.float64)


def knn_operator(
    est: BaseEstimator,
    X: ArrayLike,
    kernel: str,
    n_neighbors: int,
    *,
    kernel_params: dict[str, Any] | None,
    approximation: str,
    dtype: str,
    feature_transform: str | None = None,
) -> tuple[KernelOperator, NearestNeighbors, int, Pipeline | None]:
    """Validate ``X`` and build the sparse kernel operator of the k-NN affinity.

    ``feature_transform`` (an estimator's parameter of that name) Gaussianises heavy-tailed
    points first (the k-NN graph's width is local, chosen from the data); the fitted
    transform is returned for the estimator to store as ``feature_transform_``.

    Parameters
    ----------
    est : BaseEstimator
        The estimator being fitted (``validate_data`` records ``n_features_in_`` on it).
    X : {array-like, sparse matrix}
        Points (dense or scipy.sparse), or the distance matrix with
        ``kernel="precomputed_nearest_neighbors"``.
    kernel : {"nearest_neighbors", "precomputed_nearest_neighbors"}
    n_neighbors : int
        Neighbours per point.
    kernel_params : dict or None
        Must be empty (the affinity's one parameter is ``n_neighbors``).
    approximation : str
        Must be ``"exact"`` (the graph is sparse already).
    dtype : {"auto", "float64", "float32"}
        Precision of the operator.
    feature_transform : {"auto", "yeo-johnson"} or None, default=None
        The estimator's Gaussianising of heavy-tailed features.

    Returns
    -------
    op : KernelOperator
        The sparse affinity as an operator.
    neighbors : sklearn.neighbors.NearestNeighbors
    n_neighbors : int
        The number of neighbours used.
    transform : sklearn Pipeline or None
        The fitted feature transform.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> from kernel_patterns.utils import knn_operator
    >>> X = np.array([[0.0], [1.0], [5.0], [6.0]])
    >>> op, nn, k, _ = knn_operator(BaseEstimator(), X, "nearest_neighbors", 2,
    ...                          kernel_params=None, approximation="exact", dtype="auto")
    >>> op.n_samples, k, op.row_sums().tolist()
    (4, 2, [2.0, 2.0, 2.0, 2.0])
    """
    if approximation != "exact":
        raise ValueError(
            f"kernel={kernel!r} is a sparse affinity already and takes no "
            f"approximation={approximation!r}; use approximation='exact', or a "
            "kernel function such as kernel='rbf' with the Nyström approximation."
        )
    if kernel_params:
        raise ValueError(
            f"kernel_params is not used with kernel={kernel!r} (the k-NN affinity, the "
            "default); pass kernel='rbf' (or another kernel name) to use them, or set "
            "n_neighbors."
        )
    precomputed = kernel == KNN_KERNELS[1]
    # sparse features too (TF-IDF, one-hot): the neighbour search takes them as they are,
    # as scikit-learn's SpectralClustering(affinity="nearest_neighbors") does
    Xa = validate_data(
        est, X, reset=True, accept_sparse=("csr", "csc", "coo"),
        dtype=[np.float64, np.float32], ensure_all_finite=False, ensure_min_samples=2,
    )
    if not precomputed:
        Xa = check_matrix(Xa, "X", min_samples=2, accept_sparse=True)
    transform = transform_for_fit(Xa, feature_transform, not precomputed, precomputed)
    A, nn, k = knn_affinity(apply_to(transform, Xa), n_neighbors, precomputed=precomputed)
    return make_operator(Precomputed(), A, dtype=dtype), nn, k, transform
