"""The geodesic kernel at scale: landmark shortest paths and a low-rank kernel (landmark MDS).

The exact geodesic kernel (:mod:`._geodesic`) needs all N² geodesic distances (one Dijkstra per
point) and an N × N Cailliez problem. Here only ``m`` landmarks ``L`` (a few hundred) are
Dijkstra sources, and the kernel is the **landmark MDS** of de Silva & Tenenbaum (2004,
"Sparse multidimensional scaling using landmark points"), which Platt (2005, "FastMap,
MetricMap, and Landmark MDS are all Nyström algorithms", AISTATS) showed to be the Nyström
approximation of the MDS kernel centred on the landmarks:

1. the same symmetrised k-nearest-neighbour graph as the exact kernel (components joined as
   there, errata 10 of ``papers/README.md``);
2. geodesic distances ``D`` (m × N) from the landmarks, ``scipy.sparse.csgraph.dijkstra`` with
   ``indices=``; landmarks ``"uniform"`` or ``"maxmin"`` (farthest-point: each new landmark is
   the point farthest, geodesically, from those chosen; de Silva & Tenenbaum's choice);
3. Cailliez's constant ``c`` of the **landmark block** ``D_LL`` (eq. 5 of file 004 with errata 5),
   so that ``Δ = D + c`` off the diagonal is Euclidean on the landmarks and
   ``B = −½ H_m Δ²_LL H_m = U Λ Uᵀ`` is PSD;
4. features ``F(x) = −½ (Δ²(x, L) − μ) U Λ^{-1/2}`` with ``μ`` the column means of ``Δ²_LL``
   (LMDS triangulation = Nyström ``C W⁺`` with the landmark-centred kernel), re-centred on the
   mean of the training features: ``F Fᵀ`` then approximates the exact kernel
   ``−½ H Δ² H`` (eq. 6 with errata 5), centred on the data as it is.

What the approximation is: ``F Fᵀ`` is the Nyström approximation, from the landmark columns,
of the geodesic MDS kernel with the Cailliez constant of the landmark block, centred on the
data. With every point a landmark (``m = N``) the landmark block is the whole matrix, ``c`` is
the exact ``c*`` and ``F Fᵀ`` is the exact kernel (up to the eigenvalues ≤ round-off that are
dropped). With ``m < N``: ``c ≤ c*`` (a sub-matrix of a Euclidean distance matrix is
Euclidean), and points off the landmarks are placed by triangulation, so ``F Fᵀ`` is PSD by
construction but only approximates the exact kernel. The Cailliez part ``½ c² H`` of the exact
kernel has full rank, which no rank-r kernel holds. For kernel k-means the dropped part (each
point's component orthogonal to the landmarks) shifts a point's distances to all centroids
alike. How close it comes, measured, is in the user guide (Soft and geodesic kernel k-means).

Why landmark MDS and not plain Nyström on the exact kernel: the Nyström columns ``K(X, L)`` of
``−½ H Δ² H`` need the row means of the full Δ², i.e. all N² geodesic distances, which is what
we avoid; LMDS needs the N × m landmark distances only, and the kernel k-means objective
(distances in feature space) does not depend on where the features are centred.

Cost: ``m`` Dijkstra runs, O(m (E + N log N)) with E ≈ N k edges, memory O(N m); the features
F (N × r, r ≤ m − 1) are the whole kernel: ``K @ V = F (Fᵀ V)`` through
:class:`LandmarkGeodesicOperator`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike, DTypeLike
from scipy import sparse
from scipy.sparse import csgraph
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_random_state

from .._validation import FloatArray, check_matrix, check_same_features
from ._cailliez import cailliez_constant
from ._knn import check_n_neighbors, join_components, knn_graph
from ._nystrom import LowRankKernelOperator

_BLOCK = 8192


@dataclass
class _LandmarkState:
    X: FloatArray
    landmarks: np.ndarray  # sorted indices into X, shape (m,)
    D: FloatArray  # geodesic distances landmarks × training points, shape (m, N)
    shift: float  # c
    mu: FloatArray  # column means of Δ²_LL, shape (m,)
    M: FloatArray  # U Λ^{-1/2} with the factor −½ folded in, shape (m, r)
    F: FloatArray  # training features, centred, shape (N, r)
    F_mean: FloatArray  # the mean removed from the raw features, shape (r,)
    n_components: int  # connected components of the graph before joining
    nn: NearestNeighbors


# ----------------------------------------------------------------------------- landmarks
def _choose_landmarks(
    G: sparse.csr_array, m: int, method: str, rng: np.random.RandomState
) -> tuple[np.ndarray, FloatArray]:
    """Landmark indices (sorted) and their geodesic distances (m × N) on graph ``G``.

    ``"maxmin"``: the first landmark is drawn at random, each next one is the point whose
    geodesic distance to the chosen landmarks is largest (points of a component without a
    landmark are infinitely far, so every component gets one while landmarks remain).
    ``G`` is symmetric, so Dijkstra runs in directed mode (undirected mode adds the transpose
    and is slower).
    """
    n = G.shape[0]
    if method == "uniform":
        idx = np.sort(rng.choice(n, size=m, replace=False))
        return idx, csgraph.dijkstra(G, directed=True, indices=idx)
    D = np.empty((m, n))
    chosen = np.empty(m, dtype=np.intp)
    chosen[0] = rng.randint(n)
    nearest = np.full(n, np.inf)
    for t in range(m):
        D[t] = csgraph.dijkstra(G, directed=True, indices=int(chosen[t]))
        np.minimum(nearest, D[t], out=nearest)
        if t + 1 < m:
            nearest[chosen[: t + 1]] = -1.0  # never pick a landmark twice (duplicate points)
            chosen[t + 1] = int(np.argmax(nearest))
    order = np.argsort(chosen)
    return chosen[order], D[order]


def _join_landmark_distances(
    X: FloatArray,
    G: sparse.csr_array,
    comp: np.ndarray,
    n_comp: int,
    idx: np.ndarray,
    D: FloatArray,
    join_penalty: float,
) -> None:
    """Finite landmark distances across components, in place, as the exact kernel joins them.

    The components are joined along the minimum spanning tree of their shortest Euclidean
    edges, each lengthened by ``join_penalty`` times the largest finite geodesic distance;
    that largest distance is taken over the landmark rows (the exact kernel's value when every
    point is a landmark, a lower bound of it otherwise). A path leaving a component passes a
    bridge endpoint ``a`` of it, so ``D(l, j) = min_a D(l, a) + D(a, j)`` for ``j`` outside
    ``l``'s component, with Dijkstra from the few bridge endpoints only.
    """
    finite = D[np.isfinite(D)]
    penalty = join_penalty * float(finite.max(initial=0.0))
    Gj, ends = join_components(X, G, comp, n_comp, penalty)
    DE = csgraph.dijkstra(Gj, directed=True, indices=ends)
    for c in range(n_comp):
        rows = np.flatnonzero(comp[idx] == c)
        if rows.size == 0:
            continue
        cols = np.flatnonzero(comp != c)
        block = np.full((rows.size, cols.size), np.inf)
        for p in np.flatnonzero(comp[ends] == c):
            np.minimum(block, D[rows, ends[p]][:, None] + DE[p, cols][None, :], out=block)
        D[np.ix_(rows, cols)] = block


# ----------------------------------------------------------------------------- features
def _shifted_squares(D: FloatArray, c: float) -> FloatArray:
    """``Δ² = (D + c)²`` where ``D > 0`` and 0 where ``D = 0`` (a point and itself)."""
    A = D + c * (D > 0)
    A *= A
    return A


def _lmds_map(A_LL: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Column means ``μ`` of ``Δ²_LL`` and the map ``M = −½ U Λ^{-1/2}`` of landmark MDS.

    Eigenvalues of ``B = −½ H Δ²_LL H`` at or below ``10 m ε λ_max`` are dropped (``c*`` makes
    the smallest one zero; a kept near-zero one would blow up the triangulation).
    """
    m = A_LL.shape[0]
    mu = A_LL.mean(axis=0)
    B = A_LL - mu[None, :]
    B -= B.mean(axis=1, keepdims=True)
    B *= -0.5
    B = 0.5 * (B + B.T)
    w, U = scipy.linalg.eigh(B)  # scipy's LAPACK: the one ARPACK just used (no 2nd pool)
    w, U = w[::-1], U[:, ::-1]
    tol = max(float(w[0]), 0.0) * m * np.finfo(np.float64).eps * 10
    keep = w > tol
    if not np.any(keep):
        raise ValueError(
            "the landmark block of the geodesic kernel is numerically zero (all landmarks at "
            "the same place?); use more or other landmarks."
        )
    return mu, -0.5 * U[:, keep] / np.sqrt(w[keep])


def _raw_features(D: FloatArray, c: float, mu: FloatArray, M: FloatArray) -> FloatArray:
    """``−½ (Δ²(x, L) − μ) U Λ^{-1/2}`` for the columns of ``D`` (m × n), in blocks."""
    n = D.shape[1]
    out = np.empty((n, M.shape[1]))
    for a in range(0, n, _BLOCK):
        A = _shifted_squares(D[:, a : a + _BLOCK].T, c)
        A -= mu[None, :]
        out[a : a + _BLOCK] = A @ M
    return out


def landmark_geodesic_state(
    X: FloatArray,
    n_neighbors: int,
    n_landmarks: int,
    landmarks: str,
    shift: Any,
    eigen_solver: str,
    join_penalty: float,
    random_state: Any,
) -> _LandmarkState:
    """Graph, landmark shortest paths, Cailliez constant and features (module docstring)."""
    n = X.shape[0]
    check_n_neighbors(n_neighbors, n)
    if not 2 <= n_landmarks <= n:
        raise ValueError(
            f"n_landmarks (the number of landmarks) must be between 2 and n_samples={n} "
            f"(one landmark has no geometry); got {n_landmarks}."
        )
    X64 = X.astype(np.float64, copy=False)
    G = knn_graph(X64, n_neighbors)
    n_comp, comp = csgraph.connected_components(G, directed=False)
    idx, D = _choose_landmarks(G, n_landmarks, landmarks, check_random_state(random_state))
    if n_comp > 1:
        _join_landmark_distances(X64, G, comp, n_comp, idx, D, join_penalty)
    D_LL = D[:, idx]
    D_LL = 0.5 * (D_LL + D_LL.T)  # Dijkstra sums may differ in the last bit
    c = max(cailliez_constant(D_LL, eigen_solver), 0.0) if shift == "cailliez" else float(shift)
    mu, M = _lmds_map(_shifted_squares(D_LL, c) * (1 - np.eye(n_landmarks)))
    F = _raw_features(D, c, mu, M)
    F_mean = F.mean(axis=0)
    F -= F_mean
    nn = NearestNeighbors(n_neighbors=n_neighbors).fit(X64)
    return _LandmarkState(X64, idx, D, c, mu, M, F, F_mean, n_comp, nn)


def landmark_transform(Y: FloatArray, st: _LandmarkState, n_neighbors: int) -> FloatArray:
    """Features of new points: geodesic distance to each landmark through the nearest training
    points, ``d(y, l) = min_{t ∈ kNN(y)} ‖y − x_t‖ + D(l, x_t)``, then the LMDS map.

    For a training point this returns its training features exactly.
    """
    check_same_features(st.X, Y, "the training data", "X")
    k = min(n_neighbors, st.X.shape[0])
    out = np.empty((Y.shape[0], st.F.shape[1]))
    for a in range(0, Y.shape[0], _BLOCK):
        Yb = Y[a : a + _BLOCK].astype(np.float64, copy=False)
        dist, nb = st.nn.kneighbors(Yb, n_neighbors=k)
        geo = np.full((st.D.shape[0], Yb.shape[0]), np.inf)
        for t in range(k):
            np.minimum(geo, dist[:, t][None, :] + st.D[:, nb[:, t]], out=geo)
        out[a : a + _BLOCK] = _raw_features(geo, st.shift, st.mu, st.M)
    out -= st.F_mean
    return out


class LandmarkGeodesicOperator(LowRankKernelOperator):
    """The landmark geodesic kernel ``K ≈ F Fᵀ`` behind the kernel-operator seam.

    Built by :func:`make_operator` for ``GeodesicKernel(approximation="landmark")``; never
    N × N. ``transform(Y)`` gives the features of new points, so ``cross(Y) = F(Y) Fᵀ``.

    Parameters
    ----------
    kernel : GeodesicKernel
        A kernel with ``approximation="landmark"``.
    X : ndarray of shape (n_samples, n_features)
        The training points (the kernel is fitted on them unless it already is).
    dtype : float32 or float64, default=float64

    Attributes
    ----------
    features : ndarray of shape (n_samples, r)
    landmark_indices : ndarray of shape (n_landmarks,)

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.datasets import make_two_moons
    >>> from kernel_patterns.kernels import GeodesicKernel, make_operator
    >>> X, _ = make_two_moons(n_samples=(300, 300), noise=0.1, random_state=0)
    >>> k = GeodesicKernel(n_neighbors=10, approximation="landmark", n_landmarks=50,
    ...                    random_state=0)
    >>> op = make_operator(k, X)
    >>> type(op).__name__, op.features.shape[0], op.rank <= 49
    ('LandmarkGeodesicOperator', 600, True)
    >>> bool(np.allclose(op.matmat(np.eye(600)[:, :2]), op.features @ op.features[:2].T))
    True
    >>> op.cross(X[:3] + 0.01).shape
    (3, 600)
    """

    def __init__(self, kernel: Any, X: FloatArray, dtype: DTypeLike = np.float64) -> None:
        st = kernel._state_for(X)
        if not isinstance(st, _LandmarkState):
            raise ValueError("LandmarkGeodesicOperator needs approximation='landmark'.")
        dt = np.dtype(dtype)
        super().__init__(st.F.astype(dt, copy=False), kernel=kernel, X=st.X)
        self.landmark_indices = st.landmarks
        self._state = st

    def transform(self, Y: ArrayLike) -> FloatArray:
        """Features of new points (``K(Y, X) ≈ transform(Y) Fᵀ``)."""
        Yv = check_matrix(Y, "X")
        F = landmark_transform(Yv, self._state, int(self.kernel.n_neighbors))  # type: ignore[union-attr]
        return F.astype(self.dtype, copy=False)

    def cross_diag(self, Y: ArrayLike) -> FloatArray:
        """``k(y, y) = ‖F(y)‖²`` for new points."""
        F = self.transform(Y)
        return np.einsum("ij,ij->i", F, F)
