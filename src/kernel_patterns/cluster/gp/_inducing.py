"""An inducing-point GP variance (DTC or FITC) with a closed-form gradient, for N ≫ 10⁴:
``σ²(x) = κ(x) − a(x)ᵀ W a(x)`` with ``a(x) = L_u⁻¹ k_u(x)``, O(m²) per query point after an
O(N m²) fit, never an N × N matrix; exact when ``U = X``. The derivation (Quiñonero-Candela
& Rasmussen, JMLR 2005), why ``K_uu`` is noise-free and why the subset-of-regressors form is
not offered: the user guide, "The inducing-point variance".
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import LinAlgError, cholesky, eigh, solve_triangular
from scipy.linalg.blas import dsyrk

from ..._parallel import check_cancelled
from ..._validation import FloatArray
from ..._warnings import user_stacklevel
from ...kernels import Kernel
from ._variance import BlockedVariance, blas_threads

InducingForm = Literal["dtc", "fitc"]
Landmarks = Literal["kmeans", "kmeans++", "uniform"]

#: relative jitter tried, in order, when K_uu does not factorise (near-duplicate inducing
#: points). Relative to the mean of its diagonal.
_JITTERS = (1e-10, 1e-8, 1e-6, 1e-4)
#: smallest noise (relative to the prior variance) used when the kernel has none (v2 = 0): the
#: DTC/FITC forms divide by the noise.
_NOISE_FLOOR = 1e-6
#: query points per block (bounds the ``block × m`` kernel blocks held at once).
_BLOCK = 4096
#: eigen-directions of W with weight p/(1+p) at most this are dropped from G.
_RANK_TOL = 1e-12
#: k-means iterations when ``landmarks="kmeans"`` (the centres only need to cover the data).
_KMEANS_ITER = 30
#: ``landmarks="kmeans"`` runs on at most this many points per centre (a uniform sample).
_KMEANS_SAMPLE = 50


@dataclass
class InducingVarianceModel(BlockedVariance):
    """A fitted inducing-point variance function (DTC or FITC; see the module docstring).

    Plain arrays and a kernel object: picklable, so it can be broadcast to workers. Same
    methods as :class:`~._variance.GPVarianceModel` (``variance``, ``value_and_gradient``,
    ``gradient``), so :func:`~._flow.flow_to_equilibria` and the segment checks take either.

    Attributes
    ----------
    kernel : Kernel
    U : ndarray of shape (m, n_features)
        Inducing points.
    G : ndarray of shape (m, r)
        Factor with ``G Gᵀ = K_uu⁻¹ − Σ = L_u⁻ᵀ W L_u⁻¹`` (``L_u`` the Cholesky factor of
        ``K_uu + jitter·I``, noise-free ``K_uu``).
    noise : float
        The noise variance used in Λ (the kernel's v2, or a floor when it has none).
    jitter : float
        Absolute jitter added to the diagonal of K_uu.
    form : {"dtc", "fitc"}

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._inducing import (
    ...     choose_inducing_points, fit_inducing_model)
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> U = choose_inducing_points(X, 3, "kmeans", np.random.RandomState(0))
    >>> model = fit_inducing_model(GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0), X, U)
    >>> model.form, model.U.shape, model.variance(X).shape
    ('fitc', (3, 2), (6,))
    """

    kernel: Kernel
    U: FloatArray
    G: FloatArray
    noise: float
    jitter: float
    form: str

    _block_rows: ClassVar[int] = _BLOCK

    def _half(self, Q: FloatArray) -> FloatArray:
        """``c = k_u(Q) G``, shape (n, r): σ² = κ − ‖c‖²."""
        Kq = np.asarray(self.kernel.pairwise(Q, self.U, same=False), dtype=np.float64)
        with blas_threads(Q.shape[0], self.U.shape[0]):
            return Kq @ self.G

    def _explained(self, Qb: FloatArray) -> FloatArray:
        # σ²(q) = κ(q) − ‖Gᵀ k_u(q)‖²
        c = self._half(Qb)
        return np.einsum("ij,ij->i", c, c)

    def _block_value_and_gradient(self, Qb: FloatArray) -> tuple[FloatArray, FloatArray]:
        Kq = np.asarray(self.kernel.pairwise(Qb, self.U, same=False), dtype=np.float64)
        with blas_threads(Qb.shape[0], self.U.shape[0]):
            c = Kq @ self.G
            beta = c @ self.G.T  # (n, m): β(q)ᵀ = (K_uu⁻¹ − Σ) k_u(q)
        # the kernel's gradient contraction reusing the block Kq (stationary kernels need no
        # second evaluation): Σ_j β_j ∇k(q, u_j)
        g = self.kernel.pairwise_gradient_from_gram(Qb, self.U, Kq, beta)
        return np.einsum("ij,ij->i", c, c), g


def choose_inducing_points(
    X: FloatArray, n_landmarks: int, landmarks: Landmarks, rng: np.random.RandomState
) -> FloatArray:
    """``n_landmarks`` inducing points for ``X``.

    ``"kmeans"``: the centres of a k-means run (k-means++ start, ``_KMEANS_ITER`` Lloyd
    iterations, one init, on a uniform sample of at most ``_KMEANS_SAMPLE · m`` points; they
    cover the data evenly, which is what the variance needs);
    ``"kmeans++"``: data points by k-means++ D² sampling; ``"uniform"``: data points drawn
    uniformly without replacement. ``n_landmarks ≥ n_samples`` gives all of ``X`` (the
    exact model, whatever ``landmarks``). Every random choice comes from ``rng``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training points.
    n_landmarks : int
        Number of inducing points ``m``.
    landmarks : {"kmeans", "kmeans++", "uniform"}
        How they are chosen (above).
    rng : numpy.random.RandomState
        Source of every random choice.

    Returns
    -------
    ndarray of shape (min(m, n_samples), n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._inducing import choose_inducing_points
    >>> X = np.random.RandomState(0).normal(size=(50, 2))
    >>> choose_inducing_points(X, 5, "kmeans", np.random.RandomState(0)).shape
    (5, 2)
    >>> bool(np.array_equal(choose_inducing_points(X, 80, "uniform", np.random.RandomState(0)), X))
    True
    """
    n = X.shape[0]
    m = min(int(n_landmarks), n)
    if m >= n:
        return X.copy()
    if landmarks == "uniform":
        return X[np.sort(rng.choice(n, m, replace=False))].copy()
    from sklearn.cluster import KMeans, kmeans_plusplus

    seed = int(rng.randint(np.iinfo(np.int32).max))
    if landmarks == "kmeans++":
        _, idx = kmeans_plusplus(X, m, random_state=seed)
        return X[np.sort(idx)].copy()
    if landmarks == "kmeans":
        with warnings.catch_warnings():
            # fewer distinct points than m: duplicate centres are removed below
            warnings.simplefilter("ignore", category=UserWarning)
            cap = _KMEANS_SAMPLE * m
            Xk = X if n <= cap else X[rng.choice(n, cap, replace=False)]
            km = KMeans(m, n_init=1, max_iter=_KMEANS_ITER, random_state=seed).fit(Xk)
        return np.unique(km.cluster_centers_, axis=0)
    raise ValueError(f"landmarks must be 'kmeans', 'kmeans++' or 'uniform'; got {landmarks!r}.")


def auto_n_landmarks(X: FloatArray, length_scale: float, low: int = 300,
                     high: int = 1000) -> int:
    """The number of inducing points that resolves a landscape at ``length_scale``.

    The points of a greedy farthest-point cover of ``X`` at radius ``length_scale / 2``
    (every row within half a length scale of one of them), clipped to ``[low, high]``: the
    inducing points must be closer together than the features the variance shows, or the
    FITC variance blurs them. When the cover needs more than two thirds of the rows, the
    rows are isolated at that length scale (as in many dimensions): no count short of all of
    them resolves more, and ``low`` is returned. The cover is deterministic (it starts at
    the first row). Measured cases: ``benchmarks/results/gp_design_notes.md``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The points that shape the landscape (the subsample).
    length_scale : float
        The kernel's length scale (> 0).
    low, high : int, default=300, 1000
        Bounds of the count (``high`` caps the O(N m²) fit and the O(m²) queries).

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._inducing import auto_n_landmarks
    >>> X = np.linspace(0, 100, 1001).reshape(-1, 1)
    >>> auto_n_landmarks(X, 10.0, low=1)  # a cover within 5 of every row of [0, 100]
    17
    >>> auto_n_landmarks(X, 0.01, low=10)  # every row apart: the low count
    10
    """
    isolated = (2 * X.shape[0]) // 3
    far = np.linalg.norm(X - X[0], axis=1)
    m = 1
    while m <= isolated and far.max() > 0.5 * length_scale:
        j = int(np.argmax(far))
        np.minimum(far, np.linalg.norm(X - X[j], axis=1), out=far)
        m += 1
    if m > isolated:
        return int(low)
    return int(min(max(m, low), high))


@dataclass
class InducingBasis:
    """What a fit needs before it reads the data: ``U``, ``L_u`` and the noise.

    Attributes
    ----------
    kernel : Kernel
    U : ndarray of shape (m, n_features)
    L : ndarray of shape (m, m)
        Lower Cholesky factor of ``K_uu + jitter·I`` (noise-free K_uu).
    noise : float
        The noise of Λ (the kernel's v2, or the floor when it has none).
    jitter : float
    form : {"dtc", "fitc"}
    """

    kernel: Kernel
    U: FloatArray
    L: FloatArray
    noise: float
    jitter: float
    form: str


def farthest_first(U: FloatArray, m: int) -> NDArray[np.intp]:
    """Indices of ``m`` rows of ``U`` in greedy farthest-point order from its first row: a
    cover of ``U`` by ``m`` of its own rows (deterministic).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._inducing import farthest_first
    >>> farthest_first(np.array([[0.0], [1.0], [10.0], [5.0]]), 3)
    array([0, 2, 3])
    """
    far = np.linalg.norm(U - U[0], axis=1)
    out = [0]
    for _ in range(1, min(m, len(U))):
        j = int(np.argmax(far))
        out.append(j)
        np.minimum(far, np.linalg.norm(U - U[j], axis=1), out=far)
    return np.asarray(out, dtype=np.intp)


def fit_inducing_model(
    kernel: Kernel,
    X: FloatArray,
    U: FloatArray,
    form: InducingForm = "fitc",
    block: int = _BLOCK,
    weight: float = 1.0,
) -> InducingVarianceModel:
    """Fit the DTC or FITC variance of ``X`` with inducing points ``U`` in O(N m²).

    ``X`` is read in blocks of ``block`` rows (memory O(block · m + m²)). ``K_uu`` gets the
    smallest jitter of ``_JITTERS`` (relative to its mean diagonal) that lets it factorise;
    a kernel without noise (``v2 = 0``, or an RBF) gets a noise floor of
    ``_NOISE_FLOOR`` × its prior variance, with a warning.

    The same fit, split for a distributed driver (the data never in one place)::

        basis = inducing_basis(kernel, U, form)             # driver, O(m³)
        P = sum(inducing_statistics(basis, X_part) ...)     # per partition, O(n m²)
        model = finish_inducing_model(basis, P)             # driver, O(m³)

    Parameters
    ----------
    kernel : Kernel
        The covariance (differentiable).
    X : ndarray of shape (n_samples, n_features)
        Training points.
    U : ndarray of shape (m, n_features)
        Inducing points (:func:`choose_inducing_points`).
    form : {"fitc", "dtc"}, default="fitc"
        FITC (exact diagonal) or DTC (see the module docstring).
    block : int, default=4096
        Rows of ``X`` read at once.
    weight : float, default=1.0
        What every row of ``X`` counts (its statistics are scaled by it): ``s / n`` gives the
        variance of ``s`` of the ``n`` points in expectation, with the noise of all of them.

    Returns
    -------
    InducingVarianceModel

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._inducing import fit_inducing_model
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 3.1], [3.1, 2.8]])
    >>> kernel = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=1.0)
    >>> fitc = fit_inducing_model(kernel, X, X[[0, 3]])
    >>> dtc = fit_inducing_model(kernel, X, X[[0, 3]], form="dtc")
    >>> fitc.form, dtc.form, fitc.variance(X).shape
    ('fitc', 'dtc', (6,))
    """
    if not weight > 0:
        raise ValueError(f"weight must be > 0; got {weight!r}.")
    basis = inducing_basis(kernel, U, form)
    P = np.zeros((U.shape[0], U.shape[0]))
    for s in range(0, X.shape[0], block):
        check_cancelled()  # a ladder's rung not needed any more stops here too
        P += inducing_statistics(basis, X[s : s + block])
    return finish_inducing_model(basis, weight * P)


def inducing_basis(kernel: Kernel, U: FloatArray, form: InducingForm = "fitc") -> InducingBasis:
    """Factorise the noise-free ``K_uu`` (with jitter escalation) and fix the noise."""
    if form not in ("dtc", "fitc"):
        raise ValueError(f"form must be 'dtc' or 'fitc'; got {form!r}.")
    m = U.shape[0]
    noise = float(kernel.diagonal_noise())
    # K_uu without the noise (the inducing values are latent f, not noisy y: see module doc)
    Kuu = np.asarray(kernel.pairwise(U, U, same=True), dtype=np.float64)
    if noise:
        Kuu[np.diag_indices(m)] -= noise
    Kuu = 0.5 * (Kuu + Kuu.T)
    prior = float(np.mean(kernel.pairwise_diag(U))) - noise  # mean noise-free prior variance
    if not np.isfinite(prior) or prior <= 0:
        raise ValueError(
            "the GP covariance of the inducing points is not positive definite (its diagonal "
            "is not positive); check the kernel parameters."
        )
    L, jitter = _cholesky_jitter(Kuu, prior)
    floor = _NOISE_FLOOR * prior
    if noise < floor:
        warnings.warn(
            f"the kernel has no noise (v2={noise:g}); the inducing-point variance uses a noise "
            f"of {floor:.3g} (give the kernel some noise v2 > 0).",
            UserWarning,
            stacklevel=user_stacklevel(),
        )
        noise = floor
    return InducingBasis(kernel=kernel, U=np.ascontiguousarray(U, dtype=np.float64), L=L,
                         noise=noise, jitter=jitter, form=form)


def inducing_statistics(basis: InducingBasis, Xb: FloatArray) -> FloatArray:
    """``A_b A_bᵀ`` (m × m) for one block of training points: ``Σ_i a_i a_iᵀ / Λ_i``.

    Pure (block in, m × m out, symmetric); the sum over all blocks is the ``P`` of
    :func:`finish_inducing_model`. One symmetric rank-k update (BLAS ``syrk``) of
    ``B = a Λ^{-½}``: half the multiply-adds of the product ``(a / Λ) aᵀ`` it replaces, equal
    to it to round-off (1.6e-16 relative on 10,000 × 805 statistics; labels of all 91
    ``bench_auto`` sets unchanged: ``benchmarks/results/gp_speed.md``).
    """
    kernel = basis.kernel
    Kub = np.asarray(kernel.pairwise(Xb, basis.U, same=False), dtype=np.float64).T
    a = solve_triangular(basis.L, Kub, lower=True, check_finite=False)
    if basis.form == "fitc":
        # Λ_i = k(x_i, x_i) − Q_ii + v2 (noise-free prior variance minus its projection)
        lam = np.asarray(kernel.pairwise_diag(Xb), dtype=np.float64) - np.einsum("ij,ij->j", a, a)
        lam = np.maximum(lam - float(kernel.diagonal_noise()), 0.0) + basis.noise
    else:
        lam = np.full(Xb.shape[0], basis.noise)
    B = np.asfortranarray(a / np.sqrt(lam))
    P = np.triu(dsyrk(1.0, B))  # the upper triangle of B Bᵀ
    P += np.triu(P, 1).T
    return P


def finish_inducing_model(basis: InducingBasis, P: FloatArray) -> InducingVarianceModel:
    """The model from the summed statistics ``P = A Aᵀ`` (the factor G of the module doc)."""
    # W = I − (I + P)⁻¹ = V diag(p / (1 + p)) Vᵀ with P = A Aᵀ = V diag(p) Vᵀ
    p, V = eigh(0.5 * (P + P.T), check_finite=False)
    w = np.maximum(p, 0.0) / (1.0 + np.maximum(p, 0.0))
    keep = w > _RANK_TOL
    H = V[:, keep] * np.sqrt(w[keep])
    G = solve_triangular(basis.L, H, lower=True, trans="T", check_finite=False)
    return InducingVarianceModel(
        kernel=basis.kernel, U=basis.U, G=np.ascontiguousarray(G), noise=basis.noise,
        jitter=basis.jitter, form=basis.form,
    )


def _cholesky_jitter(K: FloatArray, scale: float) -> tuple[FloatArray, float]:
    """Cholesky factor of ``K + jitter·I`` with the smallest jitter of ``_JITTERS`` that works."""
    n = K.shape[0]
    last: Any = None
    for rel in _JITTERS:
        jitter = rel * scale
        try:
            L = cholesky(K + jitter * np.eye(n), lower=True, check_finite=False)
        except LinAlgError as exc:
            last = exc
            continue
        if np.all(np.isfinite(L)):
            return L, jitter
    raise ValueError(
        "the kernel matrix of the inducing points is not positive definite, even with a "
        f"jitter of {_JITTERS[-1]:g} × its mean diagonal; use a positive-definite kernel."
    ) from last
