"""Spectral clustering: the relaxations of §8.2.3 of Shawe-Taylor & Cristianini (chapter 8).

The sum-of-squares criterion relaxes (Computation 8.27, Proposition 8.28) to the top
eigenvectors V_N of K; Remark 8.23 gives the degree-based alternatives D⁻¹K,
D^-½ K D^-½ and the Laplacian K − D (here written L = D − K, whose *bottom* eigenvectors are
used). The eigenvectors become clusters by thresholding (two clusters), re-clustering the rows
of V_N, the eigenvector approach (argmax of the rows of V_N √Λ_N) or the QR approach.

Layout: :mod:`~._spectral_eigen` (the eigenpairs of the chosen matrix, through the operator;
:func:`spectral_eigenpairs` is its public face), the default k-nearest-neighbour affinity
(``kernel_patterns.utils.knn_operator``, shared with the Laplacian embedding) and,
in :mod:`~._spectral_assign`, the assignment rules (eigenvectors to labels) are the pure
solvers (arrays and operators in, arrays out); :class:`SpectralClustering` validates, calls
both and stores the results, and :mod:`~._spectral_extension` labels new points.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._eigen import EIGEN_SOLVERS
from .._fit import prepare_operator, resolve_kernel
from .._graph import (
    sparse_components,
    sparse_input_tag,
)
from .._tails import apply_to
from .._validation import check_n_clusters
from .._warnings import user_stacklevel
from ..kernels import RBF, Kernel, Precomputed
from ..utils import (
    APPROXIMATION_PARAMETER_CONSTRAINTS,
    KNN_KERNELS,
    OPERATOR_PARAMETER_CONSTRAINTS,
    is_knn_kernel,
    is_precomputed,
    knn_operator,
    knn_rows,
)
from ._degenerate import held_first, split_identical_rows
from ._spectral_assign import _assign_labels_and_state
from ._spectral_eigen import MATRICES, _spectral_eigen
from ._spectral_extension import (
    KernelRowProducts,
    check_new_points,
    extension_basis,
    new_rows,
    predict_labels,
)

ASSIGNMENTS = ("recluster", "eigenvector", "qr", "threshold", "discretize")


# --------------------------------------------------------------------------- estimator
class SpectralClustering(ClusterMixin, BaseEstimator):
    """Spectral clustering with the relaxations of §8.2.3 (Shawe-Taylor & Cristianini, ch. 8).

    The top eigenvectors V_N of a kernel-derived matrix solve the relaxed sum-of-squares
    problem (Computation 8.27, Proposition 8.28); they become clusters by one of the book's
    three approaches, or by thresholding for two clusters. All matrices are products on the
    kernel operator (no N × N copy is made, a sparse affinity stays sparse), and the
    eigenproblems are partial (ARPACK seeded from ``random_state``; dense only for small N).
    With ``approximation="nystrom"`` they are exact m × m problems on the approximate affinity.
    :meth:`predict` labels new points by the out-of-sample extension of the eigenvectors.

    Parameters
    ----------
    n_clusters : int, default=8
        The one default of every estimator here that needs a count (KernelKMeans,
        SoftKernelKMeans, SpectralClustering), as scikit-learn's ``KMeans`` and
        ``SpectralClustering``; :class:`~kernel_patterns.GPClustering` finds its own count.
    kernel : Kernel, str or callable, default="nearest_neighbors"
        The affinity. ``"nearest_neighbors"`` (the default): the symmetrised k-nearest-neighbour
        connectivity graph ``½ (C + Cᵀ)`` of scikit-learn's
        ``SpectralClustering(affinity="nearest_neighbors")``, sparse, with a width that is
        local by construction (one rule for all data: it keeps the structure of real data in
        30-64 dimensions where any single RBF width isolates outliers; see
        ``benchmarks/results/real.md``); it takes sparse features (TF-IDF) as they are.
        ``"precomputed_nearest_neighbors"``: the same graph
        from ``X`` given as the N × N distance matrix (dense or a sparse distance graph).
        ``"precomputed"``: ``X`` is the (dense or scipy.sparse) N × N affinity matrix itself.
        Any other kernel (``"rbf"`` with its data-driven width, a :class:`Kernel`, a callable)
        gives the book's dense kernel matrix K.
    kernel_params : dict, default=None
        Parameters of a named kernel or a callable (not used by the k-NN affinities, whose
        one parameter is ``n_neighbors``).
    n_neighbors : int, default=10
        Neighbours per point of the k-NN affinities (capped at n_samples); ignored otherwise.
    matrix : {"K", "random_walk", "normalized", "laplacian"}, default="normalized"
        Top eigenvectors of K, of D⁻¹K, of D^-½KD^-½ (Remark 8.23), or the bottom eigenvectors
        of the Laplacian L = D − K (the book's K − D with the sign turned so that it is PSD).
    assign : {"recluster", "eigenvector", "qr", "threshold", "discretize"}, \
            default="recluster"
        ``"recluster"``: k-means on the rows of V_N (rows renormalised for "normalized" and
        "K", as Ng, Jordan & Weiss do); ``"eigenvector"``: argmax of the rows of V_N √Λ_N;
        ``"qr"``: the QR approach (column-pivoted); ``"threshold"``: two clusters only, split
        of the leading non-trivial eigenvector at its best 1-D two-means threshold;
        ``"discretize"``: Yu & Shi's discrete partition closest to the eigenvectors
        (scikit-learn's ``assign_labels="discretize"``).
    n_init : int, default=10
        k-means restarts of ``"recluster"``.
    eigen_tol : float or "auto", default="auto"
        Relative accuracy of ARPACK / LOBPCG; ``"auto"`` (as scikit-learn): machine precision
        for ARPACK, the solver's own default for LOBPCG and AMG.
    eigen_solver : {"auto", "arpack", "lobpcg", "dense", "amg"}, default="auto"
        A sparse affinity (the k-NN kernel, a sparse precomputed one) is solved one
        connected component at a time, each component's trivial eigenvector set exactly;
        ``"auto"`` then solves small components densely and large ones by shift-invert
        Lanczos (one sparse LU), or by regular Lanczos first when the LU would fill in
        (graphs of high-dimensional data), each within a bounded budget and falling back to
        LOBPCG (AMG-preconditioned when pyamg is installed) and a dense solve.
        ``"arpack"`` (shift-invert), ``"lobpcg"``, ``"amg"`` (LOBPCG preconditioned by
        algebraic multigrid, the ``amg`` extra) and ``"dense"`` choose the solver of each
        component; one that does not converge within its budget warns and falls back as
        ``"auto"``. A dense kernel: ``"auto"`` is a dense ``eigh`` for up to 600 points,
        else ARPACK (bounded), falling back to a dense solve (up to 8,000 points) or LOBPCG,
        so that a default run never fails on the eigensolver; ``"amg"`` needs a sparse
        affinity and the normalised matrices.
    operator : {"auto", "dense", "chunked"}, default="auto"
        Kernel operator of the exact method (see
        :func:`kernel_patterns.kernels.make_operator`).
    dtype : {"auto", "float64", "float32"}, default="auto"
        Precision of the kernel operator; ``"auto"`` is float64 up to 20,000 samples and
        float32 beyond.
    approximation : {"exact", "nystrom"}, default="exact"
        ``"nystrom"``: the affinity is the Nyström approximation ``K ≈ F Fᵀ`` from
        ``n_landmarks`` landmarks (memory O(N m), never N²). The eigenvectors of K, D⁻¹K and
        D^-½KD^-½ then come from an m × m eigenproblem (exact for that approximate K, no
        ARPACK), so a million points take seconds; ``matrix="laplacian"`` still uses ARPACK,
        on O(N m) products. Not available with ``kernel="precomputed"``.
    n_components : int, default=None
        Number of eigenvectors used, as in scikit-learn's ``SpectralClustering`` (default:
        ``n_clusters``). Only ``assign="recluster"`` (k-means on their rows) takes another
        number than ``n_clusters``.
    n_landmarks : int, default=None
        Number of Nyström landmarks m (default ``min(300, n_samples)``), the name of every
        estimator of the library; ignored when ``approximation="exact"``. More landmarks than
        samples is reduced to n_samples with a warning.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    random_state : int, RandomState instance or None, default=None
        Seeds the landmarks, ARPACK's start vector, k-means and, with
        ``eigen_solver="amg"``, LOBPCG's start and pyamg's set-up (which draws from NumPy's
        global generator: it is seeded from here for that step and then restored).
    feature_transform : {"auto", "yeo-johnson"} or None, default="auto"
        Gaussianise the features before the affinity (each standardised, then Yeo-Johnson
        transformed, as :class:`KernelKMeans`). ``"auto"``: under a width chosen from the
        data (the k-NN graph, ``RBF(gamma="scale")``) when the median feature's excess
        kurtosis is above 1: standardised breast cancer 0.72 → 0.79 ARI, diabetes 0.47 →
        0.55, glass fragments 0.18 → 0.23; light-tailed data and kernels with a width you
        give are left as they are. ``"yeo-johnson"``: always (dense features); None: never.
        :meth:`predict` sends new points through the same fitted transform.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    kernel_ : Kernel or str
        The kernel used, its width resolved from the data (``"rbf"``), or the name of the
        k-NN affinity.
    feature_transform_ : sklearn Pipeline or None
        The fitted feature transform (``feature_transform``), or None.
    n_neighbors_ : int or None
        Neighbours per point of the k-NN affinity actually used (None for other kernels).
    affinity_matrix_ : scipy.sparse array of shape (n_samples, n_samples) or None
        The k-NN affinity (None for kernel matrices, which are never stored N × N).
    eigenvalues_ : ndarray of shape (n_clusters,)
        Eigenvalues of the chosen matrix (decreasing; increasing for "laplacian").
    embedding_ : ndarray of shape (n_samples, n_clusters)
        The eigenvectors used (D^-½ v for "random_walk"), with deterministic signs.
    n_features_in_ : int

    Notes
    -----
    Deliberate differences from scikit-learn's ``SpectralClustering`` (its test file runs
    on this class in ``tests/peers/``): the affinity is ``kernel=`` (``affinity=`` there),
    the assignment ``assign=`` ("recluster" / "qr" for "kmeans" / "cluster_qr"); callable
    kernels take the matrices X and Y, not pairs of rows; a disconnected graph warns only
    when it has more components than ``n_clusters``; there is no ``verbose``.

    Examples
    --------
    >>> from kernel_patterns import SpectralClustering
    >>> from kernel_patterns.datasets import make_rings
    >>> from sklearn.metrics import adjusted_rand_score
    >>> X, y = make_rings(random_state=0)
    >>> adjusted_rand_score(y, SpectralClustering(2, random_state=0).fit_predict(X))
    1.0

    The book's kernel matrix with a hand-set RBF width:

    >>> sc = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
    ...                         random_state=0).fit(X)
    >>> adjusted_rand_score(y, sc.labels_)
    1.0
    >>> sc.eigenvalues_.round(4)  # 1 is the trivial eigenvalue of D^-½KD^-½
    array([1.    , 0.9995])

    The Nyström approximation with 100 landmarks gives the same clusters:

    >>> ny = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
    ...                         approximation="nystrom", n_landmarks=100,
    ...                         random_state=0).fit(X)
    >>> adjusted_rand_score(y, ny.labels_)
    1.0
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "kernel": [Kernel, str, callable],
        "kernel_params": [dict, None],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "matrix": [StrOptions(set(MATRICES))],
        "assign": [StrOptions(set(ASSIGNMENTS))],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "eigen_tol": [Interval(Real, 0, None, closed="left"), StrOptions({"auto"})],
        "eigen_solver": [StrOptions({*EIGEN_SOLVERS, "amg"})],
        **OPERATOR_PARAMETER_CONSTRAINTS,
        **APPROXIMATION_PARAMETER_CONSTRAINTS,
        "random_state": ["random_state"],
        "feature_transform": [StrOptions({"auto", "yeo-johnson"}), None],
    }

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        kernel: Kernel | str | Any = "nearest_neighbors",
        kernel_params: dict[str, Any] | None = None,
        n_neighbors: int = 10,
        matrix: str = "normalized",
        assign: str = "recluster",
        n_init: int = 10,
        eigen_tol: float | str = "auto",
        eigen_solver: str = "auto",
        operator: str = "auto",
        dtype: str = "auto",
        approximation: str = "exact",
        n_components: int | None = None,
        n_landmarks: int | None = None,
        landmarks: str = "uniform",
        random_state: Any = None,
        feature_transform: str | None = "auto",
    ) -> None:
        self.n_clusters = n_clusters
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.n_neighbors = n_neighbors
        self.matrix = matrix
        self.assign = assign
        self.n_init = n_init
        self.eigen_tol = eigen_tol
        self.eigen_solver = eigen_solver
        self.operator = operator
        self.dtype = dtype
        self.approximation = approximation
        self.n_components = n_components
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks
        self.random_state = random_state
        self.feature_transform = feature_transform

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        # X is a kernel or distance matrix: cross-validation splits both axes
        knn_matrix = self.kernel == KNN_KERNELS[1]
        tags.input_tags.pairwise = is_precomputed(self.kernel) or knn_matrix
        tags.input_tags.sparse = (sparse_input_tag(self.kernel, self.kernel_params)
                                  or is_knn_kernel(self.kernel))
        return tags

    def fit(self, X: ArrayLike, y: Any = None) -> SpectralClustering:
        """Cluster ``X`` (or the precomputed affinity ``X``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples,
            n_samples) with ``kernel="precomputed"``
            Sparse features work with the k-NN affinity (the default) and with the kernels
            that take sparse rows (cosine, RBF, ...); a precomputed affinity may be sparse.
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        self._neighbors = None
        n_neighbors: int | None = None
        affinity = None
        if is_knn_kernel(self.kernel):
            op, self._neighbors, n_neighbors, transform = knn_operator(
                self, X, self.kernel, self.n_neighbors, kernel_params=self.kernel_params,
                approximation=self.approximation, dtype=self.dtype,
                feature_transform=self.feature_transform,
            )
            affinity = getattr(op, "A", None)  # the sparse operator's matrix
            kernel: Kernel | str = self.kernel
        else:
            setup = prepare_operator(
                self, X, resolve_kernel(self.kernel, self.kernel_params, default=RBF()),
                random_state=self.random_state, feature_transform=self.feature_transform,
            )
            op, kernel, transform = setup.operator, setup.kernel, setup.feature_transform
        self.feature_transform_ = transform
        n = op.n_samples
        k = self.n_clusters
        check_n_clusters(k, n)
        if self.assign == "threshold" and k != 2:
            raise ValueError(
                f"assign='threshold' splits the data in two; it needs n_clusters=2, got {k}."
            )
        nc = k if self.n_components is None else int(self.n_components)
        if nc != k and self.assign != "recluster":
            raise ValueError(
                f"n_components={nc} eigenvectors for n_clusters={k} needs assign='recluster' "
                f"(k-means on the rows); assign={self.assign!r} takes n_clusters of them."
            )
        if nc > n:
            raise ValueError(f"n_components={nc} is more than the {n} samples.")
        # one more: tells whether the graph has > k components
        n_vectors = min(max(k, nc) + 1, n)
        lam, V, solved, n_trivial, scale = _spectral_eigen(
            op, n_vectors, self.matrix, random_state=self.random_state,
            tol=0.0 if self.eigen_tol == "auto" else float(self.eigen_tol),
            eigen_solver=self.eigen_solver,
        )
        if self.matrix != "K":
            n_comp = sparse_components(op)
            at_least = n_comp is None and n_trivial == n_vectors
            if n_comp is None and n_trivial > k:
                n_comp = n_trivial
            if n_comp is not None and n_comp > k:
                warnings.warn(
                    f"the affinity graph has {'at least ' if at_least else ''}"
                    f"{n_comp} connected components, more than n_clusters={k}: the leading "
                    "eigenspace is degenerate and the clusters are not determined by it. "
                    + ("Raise n_neighbors or ask for more clusters."
                       if n_neighbors is not None
                       else "Widen the kernel or ask for more clusters."),
                    UserWarning,
                    stacklevel=user_stacklevel(),
                )
        labels, state = _assign_labels_and_state(
            V, solved, k, self.matrix, self.assign, n_init=self.n_init,
            random_state=self.random_state, n_columns=nc,
        )
        labels = _compact(labels, state, k, self.assign)
        if not (sparse.issparse(X) or isinstance(kernel, Precomputed)
                or kernel == KNN_KERNELS[1]):
            _warn_split_copies(np.asarray(X, dtype=np.float64), labels, n_neighbors)
        n_ext = n_vectors if self.assign == "threshold" else nc
        self._extension = KernelRowProducts(
            op, extension_basis(V[:, :n_ext], lam[:n_ext], self.matrix, scale)
        )
        self._extension_eigenvalues = lam[:n_ext]
        self._assign_state = state
        self._precomputed = isinstance(kernel, Precomputed) or kernel == KNN_KERNELS[1]
        self.kernel_ = op.kernel if op.kernel is not None and n_neighbors is None else kernel
        self.n_neighbors_ = n_neighbors
        self.affinity_matrix_ = affinity
        self.labels_ = labels
        self.eigenvalues_ = lam[:nc]
        self.embedding_ = V[:, :nc]
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Labels of new points by the out-of-sample extension of the eigenvectors.

        Each eigenvector is extended to a new point y by its own eigen-equation with k(y, ·)
        in place of a kernel row (``v(y) = d_y^-½ k(y, X) D^-½ v / λ`` for the normalised
        matrix; see :mod:`kernel_patterns.cluster._spectral_extension`), and the new row is
        labelled by the fitted rule: the fitted k-means, the eigenvector approach's argmax,
        the QR approach's map or the threshold. With a kernel, on the training points this
        gives back ``labels_`` (up to rounding at ties). With the k-NN graph (the default
        ``kernel``) a new point's row holds its own nearest training points only, where a
        training point's row in the symmetrised graph also holds the points it is a
        neighbour of: training points between two clusters can be given the other one.
        With ``approximation="nystrom"`` a new point costs m kernel evaluations (its
        features), not N.

        Parameters
        ----------
        X : array-like of shape (n_new, n_features), or (n_new, n_samples_train) kernel
            values between new and training points with ``kernel="precomputed"``

        Returns
        -------
        labels : ndarray of shape (n_new,)
        """
        check_is_fitted(self, "labels_")
        Y = validate_data(
            self, X, reset=False, accept_sparse=("csr", "csc"),
            dtype=[np.float64, np.float32], ensure_all_finite=False,
        )
        check_new_points(Y)
        Y = apply_to(self.feature_transform_, Y)
        if self._neighbors is not None:
            Y = knn_rows(self._neighbors, Y)
        KB, self_affinity = self._extension(Y)
        rows = new_rows(KB, self._extension_eigenvalues, self.matrix, self_affinity)
        return predict_labels(rows, self._assign_state)

    @classmethod
    def _sk_check_instances(cls) -> list[SpectralClustering]:
        qr = cls(matrix="laplacian", assign="qr", random_state=0)
        # read by tests/test_estimator_checks.py from this instance only
        qr._sk_expected_failed_checks = {
            "check_methods_sample_order_invariance": (
                "the check sets n_components=1 eigenvector with n_clusters=2; only "
                "assign='recluster' clusters rows of fewer eigenvectors than clusters (an "
                "error naming assign by design)"
            ),
        }
        return [
            cls(random_state=0),
            cls(kernel="rbf", random_state=0),
            qr,
            cls(kernel="rbf", approximation="nystrom", n_landmarks=20, random_state=0),
        ]


def _warn_split_copies(X: np.ndarray, labels: np.ndarray, n_neighbors: int | None) -> None:
    """Warn when identical rows of ``X`` got different labels (a k-NN graph links only
    ``n_neighbors`` of a row's copies, so copies beyond that are not each other's neighbours
    and the embedding can pull them apart: 30 copies of one row came out in 3 clusters)."""
    n_split, largest = split_identical_rows(X, labels)
    if n_split == 0:
        return
    fix = (f"raise n_neighbors (now {n_neighbors}) above the largest number of copies of a "
           f"row ({largest}), drop the duplicate rows or lower n_clusters"
           if n_neighbors is not None else
           # copies have equal kernel rows: only a degenerate eigenspace splits them
           "drop the duplicate rows or lower n_clusters")
    warnings.warn(
        f"SpectralClustering split {n_split} group(s) of identical rows across clusters: "
        f"{fix}.",
        UserWarning,
        stacklevel=user_stacklevel(),
    )


def _compact(labels: np.ndarray, state: dict[str, Any], k: int, assign: str) -> np.ndarray:
    """Labels 0 … used − 1 with no gaps: an assignment rule that leaves clusters without a
    point (the eigenvector argmax on 2 blobs asked for 6 clusters held 5, labels 0, 1, 2, 4,
    5) gets its clusters renumbered, the held ones first in their order, in ``state`` too
    (``predict`` numbers new points the same way), and a warning naming the parameters."""
    relabel = held_first(labels, k)
    if relabel is None:
        return labels
    state["relabel"] = relabel
    warnings.warn(
        f"SpectralClustering: only {np.unique(labels).size} of the n_clusters={k} clusters hold a "
        f"point after assign={assign!r}: lower n_clusters"
        + ("" if assign == "recluster" else " or use assign='recluster' (k-means on the rows)")
        + ".",
        ConvergenceWarning,
        stacklevel=user_stacklevel(),
    )
    return relabel[labels]
