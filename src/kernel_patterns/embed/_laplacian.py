"""Laplacian embedding: Computation 8.30, Theorem 8.32, Algorithm 8.33 (Shawe-Taylor &
Cristianini, chapter 8).

Minimise ``E(τ) = Σ_ij κ(x_i, x_j) ‖τ(x_i) − τ(x_j)‖²`` over embeddings with unit, mutually
orthogonal coordinate vectors orthogonal to the all-ones vector j (eq. 8.14). Since
``Σ_ij K_ij (v_i − v_j)² = 2 vᵀ L v`` with the Laplacian L = D − K (Definition 8.31), the
optimum takes the eigenvectors of L after the one of eigenvalue 0 (which is j), and
``E = 2 (λ_2 + … + λ_{k+1})`` (Theorem 8.32).

The affinity is by default a k-nearest-neighbour graph built as spectral clustering's
(``kernel_patterns.utils.knn_operator``, shared with :class:`SpectralClustering`), with
:func:`auto_n_neighbors` neighbours per point; its Laplacian is sparse and solved one
connected component at a time
(:func:`~kernel_patterns._graph_eigen.laplacian_bottom_eigenpairs`). With a dense kernel,
the bottom eigenvectors of L orthogonal to j are the top eigenvectors of the deflated,
shifted operator ``H (σ I − L) H`` (H = I − j jᵀ/N, σ = 2 max D ≥ λ_max(L)), applied through
``K @ V`` products: L is never formed.

Errata 9: with a disconnected graph, L has one zero eigenvalue per connected component; the
extra ones are the first embedding coordinates (they collapse each component to a point), as
Theorem 8.32 says when read literally. Code Fragment 8.4 instead drops *every* eigenvalue below
1e-5. We follow the theorem and warn with the number of components.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _num_samples

from .._eigen import EIGEN_SOLVERS, sign_flip_columns, top_eigenpairs
from .._graph import check_affinity, shifted_laplacian_matmat, sparse_components
from .._graph_eigen import laplacian_bottom_eigenpairs
from .._validation import FloatArray
from .._warnings import user_stacklevel
from ..kernels import KernelOperator, SparseKernelOperator
from ..utils import KNN_KERNELS, is_knn_kernel, knn_operator, store_init_params
from ._base import EMBEDDING_PARAMETER_CONSTRAINTS, _EmbeddingBase

#: Laplacian eigenvalues below this share of σ = 2 max D count as zero.
_ZERO_RTOL = 1e-9
#: ``n_neighbors="auto"``: at least SpectralClustering's 10 neighbours, at most 32
#: (:func:`auto_n_neighbors`)
AUTO_NEIGHBORS_RANGE = (10, 32)


def auto_n_neighbors(n_samples: int) -> int:
    """Neighbours per point of :class:`LaplacianEmbedding`'s default graph: ``√(n/2)``,
    rounded, within ``AUTO_NEIGHBORS_RANGE`` = [10, 32].

    The neighbourhood grows with the sample, more slowly than the sample, as a k-NN graph
    must to converge to its limit (k → ∞, k / n → 0): a denser graph of many points
    smooths overlapping groups that 10 neighbours cut raggedly. It is 10 up to 220 points,
    where the paper's rings and moons need a sparse graph to stay apart, and stops at 32
    from 2,048 points on, where the graph's size (n × k) and its eigensolve would grow
    faster than the picture gains.

    Parameters
    ----------
    n_samples : int
        Points embedded (at least 1).

    Returns
    -------
    int

    Examples
    --------
    >>> from kernel_patterns.embed import auto_n_neighbors
    >>> [auto_n_neighbors(n) for n in (200, 1000, 5000)]
    [10, 22, 32]
    """
    low, high = AUTO_NEIGHBORS_RANGE
    return int(min(max(round(np.sqrt(n_samples / 2.0)), low), high))


def _laplacian_embedding(
    op: KernelOperator,
    n_components: int,
    *,
    random_state: Any = None,
    tol: float = 0.0,
    eigen_solver: str = "auto",
) -> tuple[FloatArray, FloatArray, int]:
    """Eigenpairs 2, …, k+1 of L = D − K (increasing), and the number of zero ones among them.

    Returns
    -------
    eigenvalues : ndarray (n_components,)
        λ_2 ≤ … ≤ λ_{k+1}.
    vectors : ndarray (n_samples, n_components)
        Orthonormal, orthogonal to the all-ones vector, deterministic signs.
    n_zero : int
        How many of those eigenvalues are zero (the graph has at least ``1 + n_zero``
        connected components).
    """
    degrees = check_affinity(op, "the Laplacian embedding",
                             "KernelMDS, which embeds a kernel of any sign")
    rtol = max(_ZERO_RTOL, 100 * float(np.finfo(op.dtype).eps))
    if isinstance(op, SparseKernelOperator):
        # A sparse graph: its components are known exactly and L is solved one component at
        # a time (shift-invert where the bottom of the spectrum is clustered). The zero
        # eigenspace is spanned by the c component indicators; its part orthogonal to j gives
        # the first c − 1 coordinates, the non-zero eigenpairs the rest.
        n_comp = sparse_components(op) or 1
        lam_all, W, c = laplacian_bottom_eigenpairs(
            op.A, max(n_comp, n_components + 1), normed=False, random_state=random_state,
            tol=tol, solver=eigen_solver,
        )
        Uc = W[:, :c] - W[:, :c].mean(axis=0)
        left, sv, _ = np.linalg.svd(Uc, full_matrices=False)
        Z = sign_flip_columns(left[:, sv > 1e-8 * sv.max()]) if c > 1 else W[:, :0]
        V = np.hstack([Z, W[:, c:]])[:, :n_components]
        lam = np.r_[np.zeros(Z.shape[1]), lam_all[c:]][:n_components]
        sigma = 2.0 * float(np.max(degrees))
        return lam, V, int(np.sum(lam <= rtol * sigma))
    shifted, sigma = shifted_laplacian_matmat(op, degrees)

    def deflated(V: FloatArray) -> FloatArray:
        V = np.asarray(V).reshape(op.n_samples, -1)
        out = shifted(V - V.mean(axis=0))
        return out - out.mean(axis=0)

    w, V = top_eigenpairs(deflated, op.n_samples, n_components, dtype=op.dtype,
                          random_state=random_state, tol=tol, solver=eigen_solver)
    lam = np.maximum(sigma - w, 0.0)
    n_zero = int(np.sum(lam <= rtol * sigma))
    return lam, V, n_zero


class LaplacianEmbedding(_EmbeddingBase):
    """Data visualisation by the Laplacian of an affinity (Algorithm 8.33, Thm 8.32).

    Coordinates are the eigenvectors v², …, v^{k+1} of L(K) = D − K: points with a large
    affinity are placed close together. The default affinity is a k-nearest-neighbour graph
    built as :class:`SpectralClustering`'s (by the same function,
    ``kernel_patterns.utils.knn_operator``), with ``√(n_samples / 2)`` neighbours per point
    within [10, 32]; any non-negative kernel (an RBF kernel, a
    :class:`~kernel_patterns.kernels.Kernel`, a callable, a precomputed affinity) can be
    passed instead.

    Parameters
    ----------
    n_components : int, default=2
        Dimension k of the picture; must be smaller than n_samples.
    kernel : Kernel, str or callable, default="nearest_neighbors"
        The affinity. ``"nearest_neighbors"`` (the default): the symmetrised
        k-nearest-neighbour connectivity ``½ (C + Cᵀ)`` (``n_neighbors`` per point, itself
        included), built as :class:`SpectralClustering`'s default and scikit-learn's
        ``affinity="nearest_neighbors"``: sparse, its width local by construction (one rule
        for all data, nothing to tune), and solved one connected component at a time.
        ``"precomputed_nearest_neighbors"``: the same graph from ``X`` as an N × N distance
        matrix (dense or a sparse distance graph; extra stored neighbours are ignored).
        ``"precomputed"``: ``X`` is the N × N affinity (dense or scipy.sparse).
        Any other kernel (``"rbf"`` with its data-driven width ``gamma="scale"``, a
        :class:`~kernel_patterns.kernels.Kernel`, a callable) gives the book's dense kernel
        matrix K (through a kernel operator, never stored N × N).
    kernel_params : dict, default=None
        Parameters of a named kernel or a callable (not used by the k-NN affinities, whose
        one parameter is ``n_neighbors``).
    eigen_tol : float or "auto", default=0.0
        Relative accuracy of ARPACK / LOBPCG (0 and ``"auto"``: machine precision).
    operator : {"auto", "dense", "chunked"}, default="auto"
        Kernel operator of the exact method with a dense kernel.
    dtype : {"auto", "float64", "float32"}, default="auto"
        ``"auto"``: float64 up to 20,000 samples, float32 beyond.
    approximation : {"exact", "nystrom"}, default="exact"
        ``"nystrom"`` (with a kernel function, e.g. ``kernel="rbf"``): the affinity is the
        Nyström approximation ``K ≈ F Fᵀ`` from ``n_landmarks`` landmarks (memory O(N m),
        each product O(N m)). The Laplacian ``D − F Fᵀ`` is a diagonal plus a low-rank
        matrix, not a low-rank one, so the eigenproblem stays iterative (ARPACK on those
        products). Not available with the k-NN affinities (sparse already) or
        ``kernel="precomputed"``.
    n_landmarks : int, default=None
        Number of Nyström landmarks m (default ``min(300, n_samples)``); ignored when
        ``approximation="exact"``. The same name in every estimator of the library; here, as
        in scikit-learn's ``SpectralEmbedding``, ``n_components`` is the dimension of the
        embedding.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    random_state : int, RandomState instance or None, default=None
        Seeds the landmarks and the eigensolvers' start vectors.
    eigen_solver : {"auto", "arpack", "lobpcg", "dense"}, default="auto"
        A sparse affinity (the k-NN graph, a sparse precomputed one) is solved one connected
        component at a time, as in :class:`SpectralClustering`: ``"auto"`` solves small
        components densely and large ones by shift-invert Lanczos where the bottom of the
        spectrum is clustered, each solver within a bounded budget with fallbacks. A dense
        kernel: ``"auto"`` is a dense ``eigh`` up to 600 points, else ARPACK (falling back to
        a dense or LOBPCG solve when it does not converge). The others: that solver only.
    n_neighbors : int, "auto" or None, default="auto"
        Neighbours per point of the k-NN affinities (capped at n_samples). ``"auto"``:
        ``√(n_samples / 2)`` within [10, 32]
        (:func:`~kernel_patterns.embed.auto_n_neighbors`; 10, the default of
        :class:`SpectralClustering`, up to 220 points). ``None`` is scikit-learn's
        ``SpectralEmbedding`` rule, ``max(n_samples // 10, 1)`` (a denser graph: 2,000
        neighbours per point at 20,000 points). Ignored by other kernels.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        τ: orthonormal columns, each orthogonal to the all-ones vector. float32 when ``X``
        is float32, else float64.
    eigenvalues_ : ndarray of shape (n_components,)
        λ_2 ≤ … ≤ λ_{k+1} of L.
    objective_ : float
        The minimal ``E(τ) = Σ_ij K_ij ‖τ_i − τ_j‖² = 2 Σ λ`` (Theorem 8.32).
    kernel_ : Kernel or str
        The kernel used, its width resolved from the data (``"rbf"``), or the name of the
        k-NN affinity.
    n_connected_components_ : int
        Connected components of the affinity graph: exact for a sparse affinity, otherwise
        counted from the zero eigenvalues found (a lower bound when all of them are zero).
    affinity_matrix_ : scipy.sparse array of shape (n_samples, n_samples) or None
        The k-NN affinity (None for kernel matrices, which are never stored N × N).
    n_neighbors_ : int or None
        Neighbours per point of the k-NN affinity actually used (None for other kernels).
    n_features_in_ : int

    Notes
    -----
    Differences from scikit-learn's ``SpectralEmbedding``, on purpose (its test file, ported in
    ``tests/peers/test_sklearn_spectral_embedding.py``, marks each): the default graph has
    ``√(n_samples / 2)`` neighbours per point within [10, 32], not ``n_samples // 10`` (at
    5,000 points about 30 times faster, and it keeps two moons and two rings apart); the
    matrix is the book's unnormalised Laplacian ``D − K`` (scikit-learn's default is the
    normalised one), and its constant eigenvector is always dropped (no ``norm_laplacian`` /
    ``drop_first``); a dense kernel matrix is never kept, so ``affinity_matrix_`` is the
    k-NN graph or None; a kernel callable takes two blocks of points ``(X, Y)`` and dense
    arrays only; there is no ``eigen_solver="amg"`` (``SpectralClustering`` has it, for the
    normalised Laplacian).

    With the k-NN graph, a graph of several connected components (well separated clusters)
    warns: its first coordinates then only tell the components apart.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.cluster import KMeans
    >>> from sklearn.metrics import adjusted_rand_score
    >>> from kernel_patterns import LaplacianEmbedding
    >>> from kernel_patterns.datasets import make_rings
    >>> X, y = make_rings(n_samples=(100, 100), random_state=0)
    >>> le = LaplacianEmbedding(random_state=0).fit(X)   # √(200 / 2) = 10 neighbours
    >>> le.embedding_.shape, le.n_neighbors_, le.n_connected_components_
    ((200, 2), 10, 1)
    >>> bool(np.allclose(le.embedding_.sum(axis=0), 0.0))
    True
    >>> labels = KMeans(2, n_init=10, random_state=0).fit_predict(le.embedding_)
    >>> adjusted_rand_score(y, labels)
    1.0

    Any non-negative kernel instead of the graph, e.g. an RBF kernel of a given width:

    >>> rbf = LaplacianEmbedding(kernel="rbf", kernel_params={"gamma": 10.0}).fit(X)
    >>> rbf.kernel_
    RBF(gamma=10.0)
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **EMBEDDING_PARAMETER_CONSTRAINTS,
        "eigen_tol": [Interval(Real, 0, None, closed="left"), StrOptions({"auto"})],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "n_neighbors": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"}),
                        None],
    }

    def __init__(
        self,
        n_components: int | None = 2,
        *,
        kernel: Any = "nearest_neighbors",
        kernel_params: dict[str, Any] | None = None,
        eigen_tol: float | str = 0.0,
        operator: str = "auto",
        dtype: str = "auto",
        approximation: str = "exact",
        n_landmarks: int | None = None,
        landmarks: str = "uniform",
        random_state: Any = None,
        eigen_solver: str = "auto",
        n_neighbors: int | str | None = "auto",
    ) -> None:
        store_init_params(self, locals())

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        if self.kernel == KNN_KERNELS[1]:  # X is a distance matrix, dense or sparse
            tags.input_tags.pairwise = True
        if is_knn_kernel(self.kernel):  # points or distances, dense or sparse
            tags.input_tags.sparse = True
        return tags

    def _knn_fit_operator(self, X: ArrayLike) -> KernelOperator:
        """The k-NN affinity's operator (shared with ``SpectralClustering``)."""
        self._validate_params()
        self._set_output_dtype(X)
        n_samples = _num_samples(X)
        if self.n_neighbors == "auto":
            k = auto_n_neighbors(n_samples)
        elif self.n_neighbors is None:
            k = max(n_samples // 10, 1)
        else:
            k = int(self.n_neighbors)
        op, _, used, _ = knn_operator(
            self, X, self.kernel, k, kernel_params=self.kernel_params,
            approximation=self.approximation, dtype=self.dtype,
        )
        self.n_neighbors_: int | None = used
        if self.n_components is not None and self.n_components >= op.n_samples:
            raise ValueError(
                f"n_components={self.n_components} must be smaller than the number of samples "
                f"({op.n_samples}): the embedding drops the constant eigenvector of the "
                "Laplacian."
            )
        return op

    def fit(self, X: ArrayLike, y: Any = None) -> LaplacianEmbedding:
        """Compute the embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or the (n_samples, n_samples)
            affinity (dense or scipy.sparse) with ``kernel="precomputed"``
        y : ignored

        Returns
        -------
        self
        """
        if is_knn_kernel(self.kernel):
            op = self._knn_fit_operator(X)
            self.kernel_ = self.kernel
            self.affinity_matrix_ = op.A  # type: ignore[attr-defined]
        else:
            setup = self._fit_operator(
                X, ": the embedding drops the constant eigenvector of the Laplacian"
            )
            kernel, op = setup.kernel, setup.operator
            self.kernel_ = op.kernel if op.kernel is not None else kernel
            self.n_neighbors_ = None
            self.affinity_matrix_ = None
        k = self.n_components
        assert k is not None  # an int here (None is KernelMDS's "every positive axis")
        tol = 0.0 if self.eigen_tol == "auto" else float(self.eigen_tol)
        lam, V, n_zero = _laplacian_embedding(op, k, random_state=self.random_state, tol=tol,
                                              eigen_solver=self.eigen_solver)
        exact = sparse_components(op)
        n_comp = exact if exact is not None else 1 + n_zero
        if n_comp > 1:
            at_least = "at least " if exact is None and n_zero == k else ""
            warnings.warn(
                f"the affinity graph is disconnected: it has {at_least}{n_comp} connected "
                f"components, so the Laplacian has {at_least}{n_comp} zero eigenvalues "
                f"(errata 9). {min(n_comp - 1, k)} of the {k} coordinates only tell the "
                "components apart (each component collapses to a point). "
                + ("Raise n_neighbors" if is_knn_kernel(self.kernel) else "Widen the kernel")
                + " or embed each component separately.",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        self.n_connected_components_ = int(n_comp)
        self.eigenvalues_ = lam
        self.embedding_ = V.astype(self._out_dtype, copy=False)
        self.objective_ = float(2.0 * lam.sum())
        return self

    def fit_transform(self, X: ArrayLike, y: Any = None) -> FloatArray:
        """Fit and return ``embedding_``."""
        return self.fit(X).embedding_

    @classmethod
    def _sk_check_instances(cls) -> list[LaplacianEmbedding]:
        return [cls(), cls(kernel="rbf"),
                cls(kernel="rbf", approximation="nystrom", n_landmarks=20, random_state=0)]
