"""The k-nearest-neighbour graph both geodesic kernels (exact and landmark) are built on.

:func:`knn_graph` is the symmetrised graph with Euclidean edge weights, :func:`join_components`
joins its connected components along a minimum spanning tree of their shortest Euclidean edges
(errata 10, see :mod:`~._geodesic`), and :func:`geodesic_distances` gives all geodesic distances
with the components joined.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph
from sklearn.neighbors import NearestNeighbors, kneighbors_graph

from .._validation import FloatArray
from .._warnings import user_stacklevel


def check_n_neighbors(n_neighbors: int, n_samples: int) -> None:
    """Raise ``ValueError`` unless ``n_neighbors < n_samples`` (a geodesic kernel's
    neighbourhood graph needs points outside each neighbourhood)."""
    if n_neighbors >= n_samples:
        raise ValueError(
            f"n_neighbors={n_neighbors} must be smaller than n_samples={n_samples} (the "
            "neighbourhood graph needs points outside each neighbourhood)."
        )


def knn_graph(X: FloatArray, n_neighbors: int) -> sparse.csr_array:
    """The symmetrised k-nearest-neighbour graph with Euclidean edge weights.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The points.
    n_neighbors : int
        Neighbours per point; the graph keeps an edge when either end chose it.

    Returns
    -------
    scipy.sparse.csr_array of shape (n_samples, n_samples)
        Symmetric, Euclidean edge lengths (a duplicate point's edge is tiny, not 0).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.utils import knn_graph
    >>> G = knn_graph(np.array([[0.0], [1.0], [3.0]]), n_neighbors=1)
    >>> G.toarray()
    array([[0., 1., 0.],
           [1., 0., 2.],
           [0., 2., 0.]])
    """
    G = kneighbors_graph(X, n_neighbors, mode="distance", include_self=False)
    G = sparse.csr_array(G)
    # duplicate points: a 0-weight edge would vanish in the sparse graph; keep it tiny.
    tiny = np.finfo(np.float64).eps * max(1.0, float(G.data.max(initial=0.0)))
    G.data = np.maximum(G.data, tiny)
    return G.maximum(G.T).tocsr()


def geodesic_distances(
    X: FloatArray, n_neighbors: int, join_penalty: float
) -> tuple[FloatArray, int]:
    """Geodesic distances on the symmetrised kNN graph, components joined (errata 10).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The points.
    n_neighbors : int
        Neighbours per point in the k-nearest-neighbour graph.
    join_penalty : float
        When the graph has several components, each joining edge is lengthened by
        ``join_penalty`` times the largest geodesic distance (a warning says so).

    Returns
    -------
    D : ndarray of shape (n_samples, n_samples)
        Shortest-path distances.
    n_components : int
        Connected components of the kNN graph before joining.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import geodesic_distances
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]])
    >>> D, n_components = geodesic_distances(X, n_neighbors=1, join_penalty=1.0)
    >>> D[0].round(3), n_components
    (array([0., 1., 2., 3.]), 1)
    """
    G = knn_graph(X, n_neighbors)
    n_comp, comp = csgraph.connected_components(G, directed=False)
    D = csgraph.shortest_path(G, method="D", directed=False)
    if n_comp > 1:
        penalty = join_penalty * float(np.max(D[np.isfinite(D)]))
        G, ends = join_components(X, G, comp, n_comp, penalty)
        # Every path out of a component leaves through one of its bridge endpoints, so the
        # distances between components need shortest paths from those endpoints only:
        # D(i, j) = min_a D(i, a) + D(a, j) over the endpoints a in i's component.
        DE = csgraph.shortest_path(G, method="D", directed=False, indices=ends)
        for c in range(n_comp):
            inside = comp == c
            rows, cols = np.flatnonzero(inside), np.flatnonzero(~inside)
            block = None
            for p in np.flatnonzero(comp[ends] == c):
                cand = D[rows, ends[p]][:, None] + DE[p, cols][None, :]
                block = cand if block is None else np.minimum(block, cand)
            D[np.ix_(rows, cols)] = block
    return D, n_comp


def join_components(
    X: FloatArray, G: sparse.csr_array, comp: np.ndarray, n_comp: int, penalty: float
) -> tuple[sparse.csr_array, np.ndarray]:
    """Add, along a minimum spanning tree over components, each pair's shortest Euclidean edge
    (lengthened by ``penalty``). Returns the joined graph and the bridge endpoints.

    Each pair's shortest edge comes from a nearest-neighbour tree on component b queried with
    the points of the components before it: O(n_comp N log N), not the O(N²) of all pairs.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The points.
    G : scipy.sparse.csr_array of shape (n_samples, n_samples)
        The kNN graph (:func:`knn_graph`).
    comp : ndarray of shape (n_samples,)
        Component label of each point (``scipy.sparse.csgraph.connected_components``).
    n_comp : int
        Number of components.
    penalty : float
        Length added to each joining edge.

    Returns
    -------
    G : scipy.sparse.csr_array
        The graph with the joining edges added (a ``UserWarning`` says how many).
    ends : ndarray of int
        The joining edges' endpoints.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from scipy.sparse import csgraph
    >>> from kernel_patterns.utils import join_components, knn_graph
    >>> X = np.array([[0.0], [1.0], [5.0], [6.0]])
    >>> G = knn_graph(X, n_neighbors=1)
    >>> n_comp, comp = csgraph.connected_components(G, directed=False)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", UserWarning)
    ...     J, ends = join_components(X, G, comp, n_comp, penalty=0.5)
    >>> n_comp, ends, float(J[1, 2])
    (2, array([1, 2]), 4.5)
    """
    best = np.full((n_comp, n_comp), np.inf)
    pair = np.zeros((n_comp, n_comp, 2), dtype=np.intp)
    for b in range(1, n_comp):
        ib = np.flatnonzero(comp == b)
        q = np.flatnonzero(comp < b)
        dist, arg = NearestNeighbors(n_neighbors=1).fit(X[ib]).kneighbors(X[q])
        dist, arg, cq = dist[:, 0], arg[:, 0], comp[q]
        order = np.lexsort((dist, cq))  # by component, then distance (first index on ties)
        for pos in np.r_[0, np.flatnonzero(np.diff(cq[order])) + 1]:
            i = order[pos]
            a = int(cq[i])
            best[a, b] = best[b, a] = max(float(dist[i]), np.finfo(np.float64).tiny)
            pair[a, b] = pair[b, a] = (q[i], ib[arg[i]])
    tree = csgraph.minimum_spanning_tree(np.where(np.isfinite(best), best, 0.0)).tocoo()
    rows, cols, vals = [], [], []
    for a, b, v in zip(tree.row, tree.col, tree.data, strict=True):
        i, j = pair[a, b]
        rows += [i, j]
        cols += [j, i]
        vals += [v + penalty, v + penalty]
    extra = sparse.csr_array((vals, (rows, cols)), shape=G.shape)
    warnings.warn(
        f"the {int(G.shape[0])}-point nearest-neighbour graph has {n_comp} connected components; "
        f"joined them by {len(tree.data)} shortest Euclidean edges, each lengthened by "
        f"{penalty:.3g} (join_penalty times the largest geodesic distance).",
        UserWarning,
        stacklevel=user_stacklevel(),
    )
    return G.maximum(extra).tocsr(), np.unique(np.asarray(rows, dtype=np.intp))
