"""Kernel multidimensional scaling: Algorithm 8.29 of Shawe-Taylor & Cristianini (chapter 8).

MDS in a kernel-defined feature space is kernel PCA: centre K, take its top eigenvectors
v_j with eigenvalues λ_j, set α^j = v_j / √λ_j and map a point x to
``(Σ_i α^j_i κ̃(x_i, x))_j`` — on the training points that is ``v_j √λ_j``.

The centring ``K̃ = K − (1/N) j jᵀK − (1/N) K j jᵀ + (1/N²)(jᵀKj) j jᵀ`` (the algorithm's second
line) is applied through products only: ``K̃ V = H K H V`` with H = I − j jᵀ/N costs one
``K @ V`` and two column-mean subtractions, no N × N copy.

With a low-rank operator ``K = F Fᵀ`` (Nyström), ``K̃ = (H F)(H F)ᵀ``: the top eigenpairs are
those of the r × r matrix ``(H F)ᵀ(H F) = W Λ Wᵀ`` (thin SVD of the centred features), the
embedding is ``(F − F̄) W`` and a new point with features φ lands at ``(φ − F̄) W``
(Algorithm 8.29's projection with the centred approximate kernel): O(N r²), no ARPACK, and no
n_new × N kernel block for new points.
"""

from __future__ import annotations

import copy
import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._eigen import ritz_extremes, top_eigenpairs
from .._fit import AUTO_APPROXIMATION_CONSTRAINTS
from .._lowrank import factor_mean, low_rank_top_eigenpairs
from .._validation import FloatArray, check_matrix, check_same_features
from .._warnings import user_stacklevel
from ..kernels import (
    RBF,
    Cosine,
    GPCovariance,
    Kernel,
    KernelOperator,
    Linear,
    LowRankKernelOperator,
    Polynomial,
    Precomputed,
    check_kernel_input,
    make_kernel,
)
from ..utils import store_init_params
from ._base import EMBEDDING_PARAMETER_CONSTRAINTS, _EmbeddingBase
from ._kernel_mds_extras import (
    EIGEN_SOLVERS,
    check_inverse_kernel,
    fit_preimage_map,
    zero_eigenvalues,
)

#: negative eigenvalues of the centred kernel smaller than this share of the largest are noise.
_NEG_RTOL = 1e-5


def _known_psd(kernel: Kernel) -> bool:
    """Kernels that are positive semi-definite by construction (no spectrum check needed)."""
    if isinstance(kernel, (RBF, GPCovariance, Linear, Cosine)):
        return True
    if isinstance(kernel, Polynomial):
        return float(kernel.coef0) >= 0 and float(kernel.degree) == int(kernel.degree)
    return False


def _centred_matmat(op: KernelOperator) -> Any:
    """``V -> H K H V`` with H = I − j jᵀ/N (the centring of Algorithm 8.29, line 2)."""

    product = op.matmat

    def matmat(V: FloatArray) -> FloatArray:
        V = np.asarray(V).reshape(op.n_samples, -1)
        KV = product(V - V.mean(axis=0))
        return KV - KV.mean(axis=0)

    return matmat


def _low_rank_kernel_mds(
    F: FloatArray, n_components: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Kernel MDS of ``K = F Fᵀ`` from the r × r problem of the centred features.

    Returns
    -------
    eigenvalues : ndarray (n_components,), decreasing, ≥ 0 (0 beyond the rank of H F)
    vectors : ndarray (n_samples, n_components), unit eigenvectors of K̃ (0 for a 0 eigenvalue)
    components : ndarray (r, n_components)
        ``W`` with embedding ``(F − F̄) W``.
    mean : ndarray (r,)
        The feature mean ``F̄``.
    """
    mean = factor_mean(F)
    found = low_rank_top_eigenpairs(F, n_components, mean=mean, pad=True)
    assert found is not None  # pad=True always answers
    w, V, W = found
    return w, V, W, mean


def _kernel_mds(
    op: KernelOperator,
    n_components: int,
    *,
    check_psd: bool,
    random_state: Any = None,
    tol: float = 0.0,
    solver: str = "auto",
) -> tuple[FloatArray, FloatArray, float, float]:
    """Top eigenpairs of the centred kernel (ARPACK on products, or ``solver``).

    Returns
    -------
    eigenvalues : ndarray (n_components,), decreasing (may hold values ≤ 0)
    vectors : ndarray (n_samples, n_components), deterministic signs
    trace : float
        ``tr K̃ = tr K − jᵀKj / N``.
    lambda_min : float
        Smallest eigenvalue of K̃ (0.0 when the kernel is PSD by construction).
    """
    n = op.n_samples
    mm = _centred_matmat(op)
    w, V = top_eigenpairs(mm, n, n_components, dtype=op.dtype, random_state=random_state,
                          tol=tol, solver=solver)
    r = np.asarray(op.row_sums(), dtype=np.float64)
    trace = float(np.sum(op.diag(), dtype=np.float64) - r.sum() / n)
    lam_min = 0.0
    if check_psd:
        lam_min, _ = ritz_extremes(mm, n, random_state=random_state)
    return w, V, trace, lam_min


class KernelMDS(ClassNamePrefixFeaturesOutMixin, TransformerMixin, _EmbeddingBase):
    """Multidimensional scaling in a kernel-defined feature space (Algorithm 8.29).

    The first ``n_components`` kernel-PCA projections of the data: centre the kernel matrix,
    take its top eigenvectors, ``α^j = v_j / √λ_j``, and project with the centred kernel.

    Parameters
    ----------
    n_components : int or None, default=2
        Dimension of the picture (2 or 3 for display); must be smaller than n_samples.
        None: every axis of positive eigenvalue (as ``KernelPCA``; dense eigensolver).
    kernel : Kernel, str or callable, default="rbf"
        ``"precomputed"``: ``X`` is the N × N kernel matrix, and ``transform`` takes the
        n_new × N block of kernel values between new and training points.
        The default, ``RBF(gamma="scale")``, takes its width from the data: ``X * c + b``
        (c > 0, b the same on every column) gives the same result; different shifts per
        column may not (:class:`~kernel_patterns.kernels.RBF`).
    kernel_params : dict, default=None
    eigen_tol : float, default=0.0
        ARPACK's relative accuracy (0: machine precision).
    operator : {"auto", "dense", "chunked"}, default="auto"
        Kernel operator of the exact method.
    dtype : {"auto", "float64", "float32"}, default="auto"
        ``"auto"``: float64 up to 20,000 samples, float32 beyond.
    approximation : {"auto", "exact", "nystrom"}, default="auto"
        ``"nystrom"``: kernel PCA of the Nyström approximation ``K ≈ F Fᵀ`` from
        ``n_landmarks`` landmarks: an m × m eigenproblem of the centred features
        (exact for that K, no ARPACK, memory O(N m)), and ``transform`` costs O(m) kernel
        evaluations per new point instead of N. Not available with ``kernel="precomputed"``.
        ``"auto"``: exact up to 10,000 samples, Nyström beyond (a kernel function and
        ``operator="auto"`` only; a precomputed or data-dependent kernel and an explicit
        ``operator`` stay exact). The choice made is ``approximation_``.
    n_landmarks : int, default=None
        Number of Nyström landmarks m (default ``min(300, n_samples)``); ignored when the
        kernel is exact. The same name in every estimator of the library, so that
        ``n_components`` keeps scikit-learn's meaning (here, as in ``KernelPCA`` and
        ``MDS``, the dimension of the embedding). More landmarks than samples is reduced to
        n_samples with a warning.
    landmarks : {"uniform", "kmeans++", "leverage"}, default="uniform"
        How the Nyström landmarks are chosen.
    random_state : int, RandomState instance or None, default=None
        Seeds the landmarks and ARPACK's start vector.
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        As ``KernelPCA``'s: ``"auto"`` is dense ``eigh`` up to 600 points and ARPACK beyond
        (falling back to a dense or LOBPCG solve when ARPACK does not converge); ``"arpack"``
        is ARPACK only (an error when it does not converge); ``"randomized"`` is randomized
        subspace iteration (Halko et al.) on products of the centred kernel. The Nyström
        approximation solves its own m × m problem instead.
    remove_zero_eig : bool, default=False
        Drop the axes whose eigenvalue is 0 (up to round-off) instead of keeping them as
        zero columns with a warning; so the output may have fewer than ``n_components``
        columns. Always on with ``n_components=None``.
    fit_inverse_transform : bool, default=False
        Learn the pre-image map for :meth:`inverse_transform` (which exists only then) by
        kernel ridge regression from the embedding back to the training points, with the
        same kernel applied to the embedding coordinates (as ``KernelPCA``). Needs a kernel
        function (not ``"precomputed"`` or the geodesic kernel).
    alpha : float, default=1.0
        Ridge of that regression.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        ``v_j √λ_j``: the projections of the training points. float32 when ``X`` is float32
        (and so is ``transform``'s output), else float64, as ``KernelPCA``.
    eigenvalues_ : ndarray of shape (n_components,)
        Top eigenvalues of the centred kernel, decreasing, negative ones clipped to 0.
    alphas_ : ndarray of shape (n_samples, n_components)
        The dual coefficients α^j = v_j / √λ_j (0 for a clipped component).
    explained_variance_ratio_ : ndarray of shape (n_components,)
        ``λ_j / tr K̃``: the share of the feature-space variance each axis shows.
    approximation_ : {"exact", "nystrom"}
        The kernel the fit used (``approximation="auto"`` resolved).
    dual_coef_ : ndarray of shape (n_samples, n_features)
        The pre-image map (``fit_inverse_transform=True`` only).
    X_transformed_fit_ : ndarray of shape (n_samples, n_components)
        The embedding the pre-image map was learnt on (``fit_inverse_transform=True``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when ``X`` has string column names (a DataFrame).

    Notes
    -----
    This is scikit-learn's ``KernelPCA``, whose own test suite passes
    (``tests/peers/test_sklearn_kernel_pca.py``) but for these deliberate differences:
    ``n_components`` must be below n_samples; a precomputed kernel must be symmetric; a
    kernel that is not PSD warns (naming its smallest eigenvalue) instead of raising;
    ``inverse_transform`` exists only with ``fit_inverse_transform=True``; RBF's default
    width is ``gamma="scale"``, not 1 / n_features.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns import KernelMDS
    >>> X = np.random.default_rng(0).normal(size=(50, 4))
    >>> mds = KernelMDS(n_components=2, kernel="linear")
    >>> Z = mds.fit_transform(X)
    >>> Z.shape
    (50, 2)
    >>> bool(np.allclose(mds.transform(X), Z))
    True

    With as many Nyström landmarks as points the approximation is exact:

    >>> ny = KernelMDS(n_components=2, kernel="linear", approximation="nystrom",
    ...                n_landmarks=50, random_state=0)
    >>> bool(np.allclose(np.abs(ny.fit_transform(X)), np.abs(Z)))
    True

    Pre-images of embedded points, as ``KernelPCA(fit_inverse_transform=True)``:

    >>> inv = KernelMDS(n_components=3, kernel="rbf", fit_inverse_transform=True).fit(X)
    >>> inv.inverse_transform(inv.transform(X[:5])).shape
    (5, 4)
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **EMBEDDING_PARAMETER_CONSTRAINTS,
        **AUTO_APPROXIMATION_CONSTRAINTS,
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "remove_zero_eig": ["boolean"],
        "fit_inverse_transform": ["boolean"],
        "alpha": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_components: int | None = 2,
        *,
        kernel: Kernel | str | Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        eigen_tol: float = 0.0,
        operator: str = "auto",
        dtype: str = "auto",
        approximation: str = "auto",
        n_landmarks: int | None = None,
        landmarks: str = "uniform",
        random_state: Any = None,
        eigen_solver: str = "auto",
        remove_zero_eig: bool = False,
        fit_inverse_transform: bool = False,
        alpha: float = 1.0,
    ) -> None:
        store_init_params(self, locals())

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]  # as KernelPCA
        return tags

    def fit(self, X: ArrayLike, y: Any = None) -> KernelMDS:
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples,
            n_samples) with ``kernel="precomputed"``. scipy.sparse CSR/CSC features work with
            the linear, polynomial, cosine, RBF, Laplacian and sigmoid kernels; other kernels
            raise ``TypeError``.
        y : ignored

        Returns
        -------
        self
        """
        if self.fit_inverse_transform:  # before any work on X
            check_inverse_kernel(make_kernel(self.kernel, self.kernel_params, default=RBF()))
        setup = self._fit_operator(X)
        kernel, op = setup.kernel, setup.operator
        self.approximation_ = setup.approximation
        n, k = op.n_samples, self.n_components
        F = op.low_rank_factor()
        every_axis = k is None
        if k is None:
            k = n - 1 if F is None else min(F.shape[1], n - 1)
        components = feature_mean = None
        if F is not None:  # K = F Fᵀ is PSD by construction
            w, V, components, feature_mean = _low_rank_kernel_mds(F, k)
            # tr K̃ = Σ ‖F_i − F̄‖² = Σ ‖F_i‖² − N ‖F̄‖² (no N × r temporary)
            trace = float(np.einsum("ij,ij->", F, F, dtype=np.float64)
                          - n * feature_mean @ feature_mean)
            lam_min = 0.0
        else:
            w, V, trace, lam_min = _kernel_mds(
                op, k, check_psd=not _known_psd(kernel), random_state=self.random_state,
                tol=self.eigen_tol, solver="dense" if every_axis else self.eigen_solver,
            )
        top = max(float(w[0]), 0.0)
        if lam_min < 0 and -lam_min > _NEG_RTOL * max(top, np.finfo(np.float64).tiny):
            warnings.warn(
                f"the centred kernel is not positive semi-definite: smallest eigenvalue "
                f"{lam_min:.3g} (largest {top:.3g}); it is not an inner product of a feature "
                "space, so the picture ignores its negative part.",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        if self.remove_zero_eig or every_axis:  # as KernelPCA: drop the axes of λ = 0
            keep = ~zero_eigenvalues(w, op.dtype)
            if not keep.any():  # KernelPCA returns no column then, and so do we
                warnings.warn(
                    "the centred kernel has no positive eigenvalue (all points are the same "
                    "point in feature space): the embedding has no axis.",
                    UserWarning,
                    stacklevel=user_stacklevel(),
                )
            w, V = w[keep], V[:, keep]
            if components is not None:
                components = components[:, keep]
            k = int(keep.sum())
        zero = zero_eigenvalues(w, op.dtype)  # ≤ 0 up to round-off
        n_neg = int(np.sum(zero))
        if n_neg:
            warnings.warn(
                f"{n_neg} of the {k} requested eigenvalues of the centred kernel are not "
                "positive; those axes are set to 0. Ask for fewer components.",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        lam = np.where(zero, 0.0, w)
        root = np.sqrt(lam)
        inv = np.divide(1.0, root, out=np.zeros_like(root), where=root > 0)
        self._low_rank = components is not None
        self._feature_map: LowRankKernelOperator | None = None
        if components is not None:
            assert feature_mean is not None and F is not None
            # New points: features φ(Y) from the operator's own map, then (φ − F̄) W. A copy
            # without the N × r features keeps only what transform needs (X, landmarks, map).
            if isinstance(op, LowRankKernelOperator):
                self._feature_map = copy.copy(op)
                self._feature_map.features = F[:0]
            self._components = components
            self._feature_mean = feature_mean
        else:
            r = np.asarray(op.row_sums(), dtype=np.float64)
            self._col_means = r / n
            self._total_mean = float(r.sum() / n**2)
        self._kernel = op.kernel if op.kernel is not None else kernel
        self.kernel_ = self._kernel
        self._X_fit = None if isinstance(kernel, Precomputed) else op.X
        self.eigenvalues_ = lam
        self.alphas_ = V * inv
        self.embedding_ = (V * root).astype(self._out_dtype, copy=False)  # (F − F̄) W if low rank
        self.explained_variance_ratio_ = lam / trace if trace > 0 else np.zeros_like(lam)
        if self.fit_inverse_transform:
            assert op.X is not None  # check_inverse_kernel ruled out a precomputed kernel
            self.dual_coef_ = fit_preimage_map(self._kernel, self.embedding_, op.X,
                                               float(self.alpha))
            self.X_transformed_fit_ = self.embedding_
        return self

    @available_if(lambda self: bool(self.fit_inverse_transform))
    def inverse_transform(self, X: ArrayLike) -> FloatArray:
        """Pre-images in input space of points of the embedding (module
        :mod:`~._kernel_mds_extras`): ``k(X, X_transformed_fit_) dual_coef_``.

        Parameters
        ----------
        X : array-like of shape (n_new, n_components)

        Returns
        -------
        ndarray of shape (n_new, ``n_features_in_``)
        """
        check_is_fitted(self, "dual_coef_")
        Z = check_matrix(X, "X")
        E = self.X_transformed_fit_
        if Z.shape[1] != E.shape[1]:
            raise ValueError(
                f"X must have {E.shape[1]} columns (the embedding's dimension); got "
                f"{Z.shape[1]}."
            )
        K = self._kernel.pairwise(Z.astype(np.float64), E)
        return np.asarray(K @ self.dual_coef_)

    @property
    def _n_features_out(self) -> int:
        """Number of output columns (``get_feature_names_out``), set by fit."""
        return int(self.embedding_.shape[1])

    def fit_transform(self, X: ArrayLike, y: Any = None, **params: Any) -> FloatArray:
        """Fit and return ``embedding_``."""
        return self.fit(X).embedding_

    def transform(self, X: ArrayLike) -> FloatArray:
        """Project new points (Algorithm 8.29, last line, with the centred kernel).

        The book writes ``Σ_i α^j_i κ(x_i, x)`` with the raw kernel; the α^j are eigenvectors
        of the *centred* matrix, so κ(·, x) is centred with the training means first (as
        kernel PCA does). Then ``transform(X_train)`` equals ``embedding_`` (except for a kernel
        with diagonal-only noise, e.g. ``GPCovariance(v2 > 0)``, whose K(X, X) and cross kernel
        differ on the diagonal), on every component whose eigenvalue is above the rounding
        of K's entries (about 10 n ε times the largest): such a component (a kernel nearly
        constant on X, e.g. the data-driven RBF width on a column far larger than the rest)
        is rounding noise in both.

        Parameters
        ----------
        X : array-like of shape (n_new, n_features), or (n_new, n_samples_train) of kernel
            values with ``kernel="precomputed"``

        Returns
        -------
        ndarray of shape (n_new, n_components)
        """
        check_is_fitted(self, "alphas_")
        if self._low_rank:
            Xa = validate_data(self, X, reset=False, dtype=[np.float64, np.float32],
                               ensure_all_finite=False, accept_sparse=("csr", "csc"))
            if self._feature_map is None:
                raise ValueError("this low-rank kernel has no features for new points.")
            phi = self._feature_map.transform(Xa)
            Z = np.asarray((phi - self._feature_mean) @ self._components)
            return Z.astype(self._out_dtype, copy=False)
        Kn = self._cross(X)
        Kc = Kn - Kn.mean(axis=1, keepdims=True) - self._col_means + self._total_mean
        return np.asarray(Kc @ self.alphas_).astype(self._out_dtype, copy=False)

    def _cross(self, X: ArrayLike) -> FloatArray:
        n_train = self.alphas_.shape[0]
        Xa = validate_data(self, X, reset=False, dtype=[np.float64, np.float32],
                           ensure_all_finite=False,
                           accept_sparse=False if self._X_fit is None else ("csr", "csc"))
        Y = check_matrix(Xa, "X") if self._X_fit is None else check_kernel_input(
            self._kernel, Xa, "X")
        if self._X_fit is None:  # Y is K(new, train); its width was checked above
            return np.asarray(Y, dtype=np.float64)
        Xf = self._X_fit
        check_same_features(Xf, Y, "the training data", "X")
        out = np.empty((Y.shape[0], n_train), dtype=np.float64)
        step = max(1, (64 * 1024**2) // (8 * max(1, n_train)))
        for a in range(0, Y.shape[0], step):
            out[a : a + step] = self._kernel.pairwise(Y[a : a + step].astype(Xf.dtype), Xf)
        return out

    @classmethod
    def _sk_check_instances(cls) -> list[KernelMDS]:
        return [cls(), cls(approximation="nystrom", n_landmarks=20, random_state=0)]
