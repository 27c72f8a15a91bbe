"""The geodesic kernel of Kim, Shim & Choi (file ``004``, eq. 5–6): Isomap distances made a
Mercer kernel by Cailliez's additive constant.

Construction on training points x_1..x_N:

1. the symmetrised k-nearest-neighbour graph with Euclidean edge weights;
2. geodesic distances D_ij = shortest paths in that graph (``scipy.sparse.csgraph``, Dijkstra);
3. the Cailliez constant c* = the largest real eigenvalue of the non-symmetric 2N × 2N matrix
   [[0, 2K̃(D²)], [−I, −4K̃(D)]], with K̃(A) = −½ H A H and H = I − 11ᵀ/N;
4. K = −½ H Δ² H with Δ_ij = D_ij + c (i ≠ j), Δ_ii = 0, which equals
   K̃(D²) + 2c K̃(D) + ½ c² H and is positive semidefinite for every c ≥ c*.

Errata 5: eq. 5 and eq. 6 of the paper print K̃(D²) twice; the second occurrence must be
K̃(D), the double-centred matrix of the plain (unsquared) distances (Cailliez 1983; R's
``cmdscale(add=TRUE)``). The block matrix is not symmetric: we use a general eigensolver
(dense ``scipy.linalg.eigvals`` for small N, ARPACK ``eigs`` with ``which="LR"`` on a
matrix-free product for large N), never a symmetric one. We use c = max(c*, 0).

Errata 10 (disconnected graphs): when the k-nearest-neighbour graph has several components,
the geodesic distances between them are infinite. We join the components along a minimum
spanning tree of their shortest Euclidean inter-component edges (as Isomap implementations
do) and warn. Each joining edge is lengthened by ``join_penalty`` times the largest finite
geodesic distance (default 1): the distances stay a shortest-path metric, and every path
between components is longer than any path inside one, so components, which the geodesic view
sees as separate pieces of the manifold, stay apart. This reproduces the paper's two-moons
results (100 % for neighbourhood sizes where the moons are separate components, lower once the
graph connects them through short cuts); ``join_penalty=0`` is plain Isomap-style joining.

New points (out of sample): the geodesic distance from y to training point j is
d(y, x_j) = min_{l ∈ kNN(y)} (‖y − x_l‖ + D_lj) over y's k nearest training points; shifted
like the training distances (a := (d + c·[d > 0])²) and centred with the training statistics
(Gower's / the Nyström–MDS out-of-sample formula):

    k(y, x_j) = −½ (a_j − mean(a) − r_j + g),   k(y, y) = mean(a) − g/2,

where r_j is the mean of row j of Δ² and g the mean of Δ². For a training point this returns
exactly its row of K.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from sklearn.neighbors import NearestNeighbors

from .._validation import FloatArray, check_matrix, check_same_features
from ._base import Kernel, check_kernel_input
from ._cailliez import cailliez_constant
from ._geodesic_landmark import (
    LandmarkGeodesicOperator,
    _LandmarkState,
    landmark_geodesic_state,
    landmark_transform,
)
from ._knn import check_n_neighbors, geodesic_distances
from ._memory import check_dense_fits
from ._nystrom import DEFAULT_N_LANDMARKS, LowRankKernelOperator


@dataclass
class _GeodesicState:
    X: FloatArray
    K: FloatArray  # the training Gram matrix
    row_means: FloatArray  # r_j: row means of Δ²
    grand_mean: float  # g: mean of Δ²
    shift: float  # c
    n_components: int
    nn: NearestNeighbors


def _geodesic_state(
    X: FloatArray, n_neighbors: int, shift: Any, eigen_solver: str, join_penalty: float
) -> _GeodesicState:
    check_n_neighbors(n_neighbors, X.shape[0])
    X64 = X.astype(np.float64, copy=False)
    D, n_comp = geodesic_distances(X64, n_neighbors, join_penalty)
    # distances at the round-off of the coordinates are 0 (copies of a point): else c* and
    # K are round-off too, and identical points look distinct to the clustering
    round_off = 16 * np.finfo(np.float64).eps * float(np.abs(X64).max(initial=0.0))
    D[np.less_equal(D, round_off)] = 0.0
    c = max(cailliez_constant(D, eigen_solver), 0.0) if shift == "cailliez" else float(shift)
    # Δ = D + c off the diagonal; K = −½ H Δ² H built in place in D's memory.
    K = D
    K += c
    K *= K
    np.fill_diagonal(K, 0.0)
    r = K.mean(axis=1)
    g = float(r.mean())
    K -= r[:, None]
    K -= r[None, :]
    K += g
    K *= -0.5
    K += K.T.copy()  # exact symmetry
    K *= 0.5
    nn = NearestNeighbors(n_neighbors=n_neighbors).fit(X64)
    return _GeodesicState(X64, K, r, g, c, n_comp, nn)


class GeodesicKernel(Kernel):
    """The geodesic kernel of file 004 (eq. 5–6 with errata 5 and 10): a data-dependent kernel.

    Parameters
    ----------
    n_neighbors : int, default=10
        Neighbourhood size k of the nearest-neighbour graph.
    shift : "cailliez" or float, default="cailliez"
        The additive constant c: Cailliez's c* (clipped at 0; K is then PSD up to round-off)
        or a given value.
    eigen_solver : {"auto", "dense", "arpack"}, default="auto"
        How c* is computed (see :func:`cailliez_constant`).
    join_penalty : float, default=1.0
        Disconnected graphs (errata 10): components are joined by their shortest Euclidean
        edges, each lengthened by ``join_penalty`` times the largest finite geodesic distance,
        with a ``UserWarning``. 0 joins them at their Euclidean length.
    approximation : {"exact", "landmark"}, default="exact"
        ``"exact"``: all-pairs shortest paths and the N × N kernel. ``"landmark"``: shortest
        paths from ``n_landmarks`` landmarks only and the low-rank landmark-MDS kernel
        ``K ≈ F Fᵀ`` (de Silva & Tenenbaum 2004; see
        :mod:`kernel_patterns.kernels._geodesic_landmark`): memory O(N m), never N × N; its
        Cailliez constant is that of the landmark block, and the largest geodesic distance
        behind ``join_penalty`` is taken over the landmark rows. :func:`make_operator` then
        returns a low-rank :class:`~kernel_patterns.kernels.LandmarkGeodesicOperator`.
    n_landmarks : int, default=None
        Number of landmarks m for ``approximation="landmark"`` (default ``min(300, N)``);
        ignored by the exact kernel. With m = N the landmark kernel is the exact one.
    landmarks : {"maxmin", "uniform"}, default="maxmin"
        ``"maxmin"``: farthest-point sampling in geodesic distance from a random first point
        (de Silva & Tenenbaum's choice; every graph component gets a landmark first);
        ``"uniform"``: m points drawn without replacement.
    random_state : int, RandomState or None, default=None
        Seeds the landmark choice.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training points (this and the attributes below are set by :meth:`fit`).
    kernel_matrix_ : ndarray of shape (n_samples, n_samples)
        The training Gram matrix (exact kernel only).
    features_ : ndarray of shape (n_samples, r)
        F with K ≈ F Fᵀ (landmark kernel only).
    landmark_indices_ : ndarray of shape (m,)
        Sorted indices of the landmarks (landmark kernel only).
    shift_ : float
        The constant c used.
    n_connected_components_ : int
        Connected components of the neighbourhood graph before joining (not the number of
        landmarks, which is ``landmark_indices_.size``).

    Notes
    -----
    Called on the training points (``k(X)``, or inside a kernel operator) it returns the
    geodesic Gram matrix; called as ``k(Y, X_train)`` it returns out-of-sample rows (see the
    module docstring). An unfitted kernel computes its state from the data it is called on
    (from ``Y`` for ``k(X, Y)``); estimators fit a clone on their training data.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.kernels import GeodesicKernel
    >>> from kernel_patterns.datasets import make_two_moons
    >>> X, _ = make_two_moons(random_state=0)
    >>> k = GeodesicKernel(n_neighbors=6).fit(X)
    >>> K = k(X)
    >>> bool(np.linalg.eigvalsh(K).min() > -1e-8 * np.abs(K).max())
    True
    >>> bool(np.allclose(k(X[:3], X), K[:3]))
    True

    The landmark kernel with every point a landmark is the exact kernel:

    >>> lk = GeodesicKernel(n_neighbors=6, approximation="landmark", n_landmarks=200).fit(X)
    >>> bool(np.allclose(lk(X), K, atol=1e-8 * np.abs(K).max()))
    True
    """

    data_dependent: ClassVar[bool] = True

    def __init__(
        self,
        n_neighbors: int = 10,
        shift: Any = "cailliez",
        eigen_solver: str = "auto",
        join_penalty: float = 1.0,
        approximation: str = "exact",
        n_landmarks: int | None = None,
        landmarks: str = "maxmin",
        random_state: Any = None,
    ) -> None:
        self.n_neighbors = n_neighbors
        self.shift = shift
        self.eigen_solver = eigen_solver
        self.join_penalty = join_penalty
        self.approximation = approximation
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks
        self.random_state = random_state

    def _check_params(self) -> None:
        k = self.n_neighbors
        if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
            raise ValueError(f"n_neighbors must be a positive integer; got {k!r}.")
        if not (
            self.shift == "cailliez"
            or (isinstance(self.shift, Real) and np.isfinite(self.shift) and self.shift >= 0)
        ):
            raise ValueError(f"shift must be 'cailliez' or a number >= 0; got {self.shift!r}.")
        p = self.join_penalty
        if isinstance(p, bool) or not isinstance(p, Real) or not np.isfinite(p) or p < 0:
            raise ValueError(f"join_penalty must be a number >= 0; got {p!r}.")
        if self.eigen_solver not in ("auto", "dense", "arpack"):
            raise ValueError(
                f"eigen_solver must be 'auto', 'dense' or 'arpack'; got {self.eigen_solver!r}."
            )
        if self.approximation not in ("exact", "landmark"):
            raise ValueError(
                f"approximation must be 'exact' or 'landmark'; got {self.approximation!r}."
            )
        m = self.n_landmarks
        if m is not None and (isinstance(m, bool) or not isinstance(m, Integral) or m < 1):
            raise ValueError(
                f"n_landmarks (the number of landmarks) must be a positive integer or None; "
                f"got {m!r}."
            )
        if self.landmarks not in ("maxmin", "uniform"):
            raise ValueError(f"landmarks must be 'maxmin' or 'uniform'; got {self.landmarks!r}.")

    def _build(self, X: FloatArray) -> _GeodesicState | _LandmarkState:
        self._check_params()
        if self.approximation == "landmark":
            m = self.n_landmarks
            return landmark_geodesic_state(
                X,
                int(self.n_neighbors),
                min(DEFAULT_N_LANDMARKS, X.shape[0]) if m is None else int(m),
                self.landmarks,
                self.shift,
                self.eigen_solver,
                float(self.join_penalty),
                self.random_state,
            )
        return _geodesic_state(
            X, int(self.n_neighbors), self.shift, self.eigen_solver, float(self.join_penalty)
        )

    def fit(self, X: ArrayLike, y: Any = None) -> GeodesicKernel:
        """Build the graph, the geodesic distances, c* and the Gram matrix (exact) or the
        landmark features (``approximation="landmark"``) of ``X``."""
        self._check_params()
        Xv = check_matrix(X, "X", min_samples=2, copy=True)  # X_fit_ is ours
        st = self._build(Xv)
        self._state = st
        self.X_fit_ = st.X
        if isinstance(st, _LandmarkState):
            self.features_ = st.F
            self.landmark_indices_ = st.landmarks
        else:
            self.kernel_matrix_ = st.K
        self.shift_ = st.shift
        self.n_connected_components_ = st.n_components
        return self

    # -- internals ------------------------------------------------------------------
    def _state_for(self, X: FloatArray) -> _GeodesicState | _LandmarkState:
        st: _GeodesicState | _LandmarkState | None = getattr(self, "_state", None)
        if st is not None and (
            X is st.X or (X.shape == st.X.shape and np.array_equal(X, st.X.astype(X.dtype)))
        ):
            return st
        return self._build(X)

    def low_rank_operator(self, X: ArrayLike, dtype: DTypeLike) -> LowRankKernelOperator | None:
        """The landmark operator ``K = F Fᵀ`` with ``approximation="landmark"``, else None."""
        if self.approximation != "landmark":
            return None
        return LandmarkGeodesicOperator(self, check_kernel_input(self, X), dtype=dtype)

    def _out_of_sample(self, Y: FloatArray, st: _GeodesicState) -> tuple[FloatArray, FloatArray]:
        """Kernel rows ``k(Y, X_train)`` and ``k(y, y)`` (module docstring formula)."""
        check_same_features(st.X, Y, "the training data", "X")
        n = st.X.shape[0]
        k = min(int(self.n_neighbors), n)
        out = np.empty((Y.shape[0], n))
        self_k = np.empty(Y.shape[0])
        Kd = np.diag(st.K)
        c = st.shift
        for a in range(0, Y.shape[0], 512):
            Yb = Y[a : a + 512].astype(np.float64, copy=False)
            dist, idx = st.nn.kneighbors(Yb, n_neighbors=k)
            uniq, inv = np.unique(idx, return_inverse=True)
            # geodesic distances of the neighbours, recovered from K: Δ² = K_ii + K_jj − 2K_ij
            sq = Kd[uniq][:, None] + Kd[None, :] - 2.0 * st.K[uniq]
            Dl = np.sqrt(np.maximum(sq, 0.0)) - c
            Dl[np.arange(uniq.size), uniq] = 0.0
            Dl = np.maximum(Dl, 0.0)
            inv = inv.reshape(idx.shape)
            geo = np.full((Yb.shape[0], n), np.inf)
            for t in range(k):
                np.minimum(geo, dist[:, t : t + 1] + Dl[inv[:, t]], out=geo)
            A = geo + c * (geo > 0)
            A *= A
            m = A.mean(axis=1)
            out[a : a + 512] = -0.5 * (A - m[:, None] - st.row_means[None, :] + st.grand_mean)
            self_k[a : a + 512] = m - 0.5 * st.grand_mean
        return out, self_k

    def pairwise(self, X: FloatArray, Y: FloatArray, same: bool = False) -> FloatArray:
        if same:
            st = self._state_for(X)
            if isinstance(st, _LandmarkState):
                check_dense_fits(X.shape[0], X.shape[0], X.dtype)
                return (st.F @ st.F.T).astype(X.dtype, copy=False)
            return st.K.astype(X.dtype, copy=True)
        st = self._state_for(Y)
        if isinstance(st, _LandmarkState):
            F = landmark_transform(X, st, int(self.n_neighbors))
            return (F @ st.F.T).astype(X.dtype, copy=False)
        return self._out_of_sample(X, st)[0].astype(X.dtype, copy=False)

    def pairwise_diag(self, X: FloatArray) -> FloatArray:
        st: _GeodesicState | _LandmarkState | None = getattr(self, "_state", None)
        if st is None or (X.shape == st.X.shape and np.array_equal(X, st.X.astype(X.dtype))):
            st = self._state_for(X)
            if isinstance(st, _LandmarkState):
                return np.einsum("ij,ij->i", st.F, st.F).astype(X.dtype)
            return np.diag(st.K).astype(X.dtype)
        if isinstance(st, _LandmarkState):
            F = landmark_transform(X, st, int(self.n_neighbors))
            return np.einsum("ij,ij->i", F, F).astype(X.dtype)
        return self._out_of_sample(X, st)[1].astype(X.dtype, copy=False)

    def prepare(self, X: FloatArray) -> Any:
        st = self._state_for(X)
        return st.F if isinstance(st, _LandmarkState) else st.K

    def block(self, prepared: Any, start: int, stop: int, cols: slice | None = None) -> FloatArray:
        if self.approximation == "landmark":
            F = prepared
            return np.asarray(F[start:stop] @ (F if cols is None else F[cols]).T)
        K = prepared
        return np.array(K[start:stop] if cols is None else K[start:stop, cols])
