"""Soft kernel k-means (Kim, Shim & Choi, "Soft geodesic kernel k-means", file ``004``).

Soft k-means (MacKay) in feature space. With responsibilities R (n × K), weights w and
W = diag(w) R, γ_j = Σ_t W_tj, the squared distance of φ(x_t) to the soft centroid μ_j is
eq. 4,

    ‖φ(x_t) − μ_j‖² = K_tt − 2/γ_j (K W)_tj + 1/γ_j² w_jᵀ K w_j,

and the responsibilities are the softmax of −β times those distances (eq. 7), computed with a
log-sum-exp so that a large stiffness β (1e6 and beyond) neither overflows nor underflows to
0/0. Hard labels are argmax_j R_tj (eq. 8–9). The iteration is a descent on the free energy
eq. 3, J = Σ_t Σ_j w_t R_tj ‖φ(x_t) − μ_j‖² − (1/β) Σ_t Σ_j w_t R_tj log(1/R_tj).

The paper's outline updates "clusters" S_j by eq. 8–9 between responsibility updates but
computes the distances with R (eq. 4); we follow eq. 4 (soft centroids throughout) and
report the hard labels of eq. 8 at the end. With ``kernel=GeodesicKernel(n_neighbors=...)`` it
is the paper's soft geodesic kernel k-means.
"""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import xlogy
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._progress import start_progress
from .._warnings import user_stacklevel
from ..kernels import KernelOperator
from ..utils import store_init_params
from ._degenerate import held_first
from ._kernel_kmeans_solver import IntArray, _kernel_times
from ._kmeans_base import _best_run, _KernelKMeansBase
from ._soft_beta import _auto_beta, _critical_beta

FloatArray = NDArray[np.floating[Any]]

#: two clusters whose responsibilities differ by at most this at every point coincide (one
#: centroid counted twice; which of them a point's label names is rounding noise): measured,
#: 1e-12 to 5e-8 between coincident clusters, at least 0.75 between the closest two of the
#: 23 standardised real sets with the default beta
COINCIDE_TOL = 1e-4


def _soft_distances(
    op: KernelOperator, R: FloatArray, weights: FloatArray, diag: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Eq. 4 for every point and cluster. Returns ``(dist, coef, within)`` with
    ``coef = W / γ`` (the centroids' expansion coefficients) and ``within = ‖μ_j‖²``."""
    W = R * weights[:, None]
    gamma = W.sum(axis=0)
    coef = W / np.where(gamma > 0, gamma, 1.0)[None, :]
    KC = _kernel_times(op, coef.astype(op.dtype, copy=False)).astype(np.float64, copy=False)
    within = np.einsum("ij,ij->j", coef, KC)
    dist = diag[:, None] - 2.0 * KC + within[None, :]
    return np.maximum(dist, 0.0), coef, within


#: a restart that cannot end more than this (relative) below the free energy of a finished
#: one is abandoned (the same fixed point: free energies of one partition reached by
#: different runs differ by ~1e-13 relative at tol=1e-6)
PRUNE_RTOL = 1e-9
#: factor on the extrapolated decrease left to a restart before it is abandoned
PRUNE_SAFETY = 10.0


def _n_distinct_columns(R: FloatArray, tol: float) -> int:
    """Columns of ``R`` up to coincidence (``max |R_a − R_b| ≤ tol``), each column grouped
    with the first one it matches."""
    first: list[int] = []
    for a in range(R.shape[1]):
        if not any(np.max(np.abs(R[:, a] - R[:, b])) <= tol for b in first):
            first.append(a)
    return len(first)


def _responsibilities(dist: FloatArray, beta: float) -> FloatArray:
    """Eq. 7 as a softmax: R_tj = exp(−β d_tj − max_i(−β d_ti)), normalised. The row's
    largest logit taken out first (exp of 0 for it) and the row divided by its sum, the rows
    sum to 1 to rounding even where the logits are huge (β d of 1e10: a log-sum-exp
    subtracted from them left an error of 1e-6 in every sum)."""
    logits = -beta * dist
    R = np.exp(logits - logits.max(axis=1, keepdims=True))
    R /= R.sum(axis=1, keepdims=True)
    return R


def _reseed_vanished(R: FloatArray, dist: FloatArray | None, weights: FloatArray) -> FloatArray:
    """Policy for a cluster whose total responsibility vanished (γ_j ≈ 0): give it, fully, the
    point with the largest expected distance to its centroids (the point worst explained)."""
    gamma = (R * weights[:, None]).sum(axis=0)
    dead = np.flatnonzero(gamma <= 1e-12 * weights.sum())
    if dead.size == 0:
        return R
    R = R.copy()
    score = weights * ((R * dist).sum(axis=1) if dist is not None else 1.0)
    score[weights <= 0] = -np.inf
    for j in dead:
        i = int(np.argmax(score))
        R[i] = 0.0
        R[i, j] = 1.0
        score[i] = -np.inf
    return R


def _free_energy(
    R: FloatArray, dist: FloatArray, weights: FloatArray, beta: float
) -> tuple[float, float]:
    """Expected energy and the free energy J of eq. 3 (weighted)."""
    energy = float(np.sum(weights[:, None] * R * dist))
    return energy, energy + float(np.sum(weights[:, None] * xlogy(R, R))) / beta


def _soft_kernel_kmeans_runs(
    op: KernelOperator,
    R0: FloatArray,
    beta: float,
    sample_weight: FloatArray | None = None,
    max_iter: int = 300,
    tol: float = 1e-6,
    diag: FloatArray | None = None,
    prune: bool = True,
) -> tuple[FloatArray, FloatArray, FloatArray, NDArray[np.intp]]:
    """Several runs (restarts, ``R0`` of shape (r, n, K)) in lock step: each iteration is one
    product of K with the centroid coefficients of every active run (one pass over K).

    The iteration ``R ← F(R)`` (centroids from R, eq. 4, then eq. 7) is accelerated by
    SQUAREM (Varadhan & Roland, Scand. J. Statist. 2008): from R₀, R₁ = F(R₀) and
    R₂ = F(R₁), the step ``R₀ − 2αr + α²v`` (r = R₁ − R₀, v = R₂ − 2R₁ + R₀,
    α = −‖r‖/‖v‖ ≤ −1), projected onto the rows' simplex, then one more F; kept when its
    free energy is no higher than after R₂'s own step, else the plain F(R₂). It reaches the
    same fixed point (the test checks the objective and labels against the plain
    iteration): near it the plain iteration converges linearly and slowly (32 leaf species:
    300 iterations without meeting ``tol``). ``max_iter`` counts products with K.

    Every pass reads all of K however few runs are still active, so a run still iterating
    long after the others have stopped costs as much as all of them (two noisy rings at
    5,000 points: 96 passes, 70 of them for the last one to three of 10 runs, most of them
    creeping to the fixed point another run had already reached). Once a run has finished,
    a run that cannot end more than ``PRUNE_RTOL`` (relative) below the finished one's free
    energy is abandoned (``prune``). The free energy does not rise along the iteration and,
    converging linearly at a rate ρ, decreases by less each cycle: what a run can still lose
    is bounded by its last cycle's decrease times the cycles left in ``max_iter``, and
    estimated by ``PRUNE_SAFETY`` times the geometric tail drop·ρ/(1 − ρ), ρ from its last
    two cycles. A run whose free energy minus that is at or above the finished one's level
    would end at the same fixed point or a worse one, and would not be kept; so would a run
    already within ``PRUNE_RTOL`` of it and decreasing by less than that per cycle. Only runs
    after the finished one are abandoned: of runs ending at one fixed point the first is
    kept, so the labels (their numbering included) are those without abandoning.
    """
    R = np.array(R0, dtype=np.float64, copy=True)
    r, n, k = R.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    d = np.asarray(op.diag() if diag is None else diag, dtype=np.float64)
    for j in range(r):
        R[j] = _reseed_vanished(R[j], None, w)
    active = np.ones(r, dtype=bool)
    n_iter = np.zeros(r, dtype=np.intp)
    J_run = np.full(r, np.inf)  # the free energy of each run's current state
    best_done = np.inf  # the lowest free energy of a finished run
    best_run = r  # and that run
    drop_prev = np.full(r, np.inf)  # each run's decrease of free energy over its last cycle

    def distances(states: FloatArray) -> FloatArray:
        W = states * w[None, :, None]  # (m, n, k)
        gamma = W.sum(axis=1)
        coef = W / np.where(gamma > 0, gamma, 1.0)[:, None, :]
        flat = np.ascontiguousarray(coef.transpose(1, 0, 2).reshape(n, -1))
        KC = _kernel_times(op, flat.astype(op.dtype, copy=False)).astype(np.float64, copy=False)
        KC = KC.reshape(n, states.shape[0], k).transpose(1, 0, 2)
        within = np.einsum("mij,mij->mj", coef, KC)
        return np.maximum(d[None, :, None] - 2.0 * KC + within[:, None, :], 0.0)

    def step(states: FloatArray, energy: bool = False) -> tuple[FloatArray, FloatArray]:
        """F for every state (one product with K) and, if asked, the free energy after it."""
        dist = distances(states)
        out = np.empty_like(states)
        J = np.full(states.shape[0], np.nan)
        for t in range(states.shape[0]):
            out[t] = _reseed_vanished(_responsibilities(dist[t], beta), dist[t], w)
            if energy:
                J[t] = _free_energy(out[t], dist[t], w, beta)[1]
        return out, J

    def settle(
        runs: NDArray[np.intp], old: FloatArray, new: FloatArray, it: int, J_new: FloatArray
    ) -> NDArray[np.bool_]:
        """Store ``new = F(old)`` and its free energy; the runs whose step moved no
        responsibility by more than tol (the fixed-point residual) stop. Returns which did."""
        nonlocal best_done, best_run
        change = np.abs(new - old).max(axis=(1, 2))
        R[runs] = new
        J_run[runs] = J_new
        n_iter[runs] = it
        done = change <= tol
        active[runs[done]] = False
        for J_t, t in zip(J_new[done], runs[done], strict=True):
            # as _best_run: the first of the runs within round-off of the lowest
            if J_t < best_done - 1e-12 * abs(best_done):
                best_done, best_run = float(J_t), int(t)
            elif J_t <= best_done + 1e-12 * abs(best_done):
                best_done, best_run = min(best_done, float(J_t)), min(best_run, int(t))
        return done

    bar = start_progress(max_iter, "soft kernel k-means")
    it = shown = 0
    while it < max_iter and active.any():
        bar.update(it - shown)
        shown = it
        runs = np.flatnonzero(active)
        X0 = R[runs]
        J0 = J_run[runs]
        X1, J1 = step(X0, energy=True)
        it += 1
        keep = ~settle(runs, X0, X1, it, J1)
        if it >= max_iter or not keep.any():
            continue
        runs, X0, X1, J0 = runs[keep], X0[keep], X1[keep], J0[keep]
        X2, J2 = step(X1, energy=True)
        it += 1
        keep = ~settle(runs, X1, X2, it, J2)
        if it + 1 >= max_iter or not keep.any():
            continue
        runs, X0, X1, X2, J2, J0 = (runs[keep], X0[keep], X1[keep], X2[keep], J2[keep],
                                    J0[keep])
        rr, vv = X1 - X0, X2 - 2.0 * X1 + X0
        nr = np.sqrt(np.einsum("mij,mij->m", rr, rr))
        nv = np.sqrt(np.einsum("mij,mij->m", vv, vv))
        alpha = np.minimum(-nr / np.where(nv > 0, nv, 1.0), -1.0)[:, None, None]
        Xp = np.maximum(X0 - 2.0 * alpha * rr + alpha**2 * vv, 0.0)
        rows = Xp.sum(axis=2, keepdims=True)
        Xp = np.where(rows > 0, Xp / np.where(rows > 0, rows, 1.0), X2)
        X3, J3 = step(Xp, energy=True)
        it += 1
        better = J2 + 1e-12 * np.abs(J2) >= J3
        # kept where the free energy did not rise (else R stays F(R₁)); X3 is not compared
        # with X2, which is no step of F: the next pass's first step tests the residual
        R[runs[better]] = X3[better]
        J_run[runs] = np.where(better, J3, J2)
        n_iter[runs] = it
        drop = np.maximum(J0 - J_run[runs], 0.0)  # J0 = inf on a run's first cycle
        if prune and np.isfinite(best_done):
            # what the run can still lose: at most its last cycle's decrease times the
            # cycles (of three products) left, and, converging linearly at the rate ρ of its
            # last two cycles, drop·ρ/(1 − ρ), both times a safety factor
            prev = drop_prev[runs]
            rate = np.ones_like(drop)  # no rate yet: 1 (inf on a run's first cycles)
            known = np.isfinite(drop) & np.isfinite(prev) & (prev > 0) & (drop < prev)
            rate[known] = drop[known] / prev[known]
            left = drop * (max_iter - it) / 3.0  # it < max_iter here
            tail = np.full_like(drop, np.inf)
            tail[known] = PRUNE_SAFETY * drop[known] * rate[known] / (1.0 - rate[known])
            left = np.minimum(left, tail)
            level = PRUNE_RTOL * abs(best_done)
            hopeless = J_run[runs] - left >= best_done - level
            # at the finished run's level and creeping: the same fixed point
            hopeless |= (np.abs(J_run[runs] - best_done) <= level) & (drop <= level)
            # an earlier run ending at the same level would be kept (_best_run takes the
            # first): only later ones are abandoned, so the kept run is the one without this
            active[runs[hopeless & (runs > best_run)]] = False
        drop_prev[runs] = drop
    bar.update(it - shown)
    bar.close()
    dist = distances(R)
    energy = np.empty(r)
    J = np.empty(r)
    for j in range(r):
        energy[j], J[j] = _free_energy(R[j], dist[j], w, beta)
    return R, energy, J, n_iter


class SoftKernelKMeans(_KernelKMeansBase):
    """Soft kernel k-means, and with a geodesic kernel soft geodesic kernel k-means (file 004).

    Parameters
    ----------
    n_clusters : int, default=8
        As scikit-learn's ``KMeans`` and every estimator here that needs a count;
        :class:`~kernel_patterns.GPClustering` finds its own.
    kernel : str, Kernel or callable, default="rbf"
        As in :class:`KernelKMeans`; ``GeodesicKernel(n_neighbors=...)`` (or ``"geodesic"``
        with ``kernel_params``) gives the paper's method.
        The default, ``RBF(gamma="scale")``, takes its width from the data: ``X * c + b``
        (c > 0, b the same on every column) gives the same result; different shifts per
        column may not (:class:`~kernel_patterns.kernels.RBF`).
    kernel_params : dict, default=None
    beta : float or "auto", default="auto"
        Stiffness β > 0 of eq. 7 (β → ∞ is hard kernel k-means). Responsibilities are
        ``exp(−β d)`` of feature-space squared distances d, whose size depends on the kernel
        and the units of the data, so a number is only meaningful for one kernel scale.
        ``"auto"``: ``β = 10 / s`` with s the mean squared feature-space distance of the
        training points to their mean (the one-cluster inertia per point, ``mean k(x, x) −
        mean K``): the paper's β = 10 in units of the data's own spread, the same clusters
        whatever the kernel's scale (the user guide, Soft geodesic kernel k-means, says how
        it was chosen). The value used is ``beta_``.
    init : {"k-means++", "random", "kmeans", "n-k+1"}, callable or array
        Initial hard assignments, turned into 0/1 responsibilities (see :class:`KernelKMeans`:
        an array holds labels, shape (n_samples,), or centres, shape (n_clusters,
        n_features)).
    n_init : int or "auto", default="auto"
        Restarts; the run of lowest free energy (eq. 3) is kept (``"auto"``: 10, or 1 when
        ``init`` is an array).
    max_iter : int, default=300
        Largest number of iterations, each one product of the kernel matrix with the
        centroids' coefficients. The fixed point of eq. 4 and 7 is reached by SQUAREM steps
        (three products each).
    tol : float, default=1e-6
        Stop when no responsibility changes by more than ``tol`` in an iteration.
    random_state, operator, dtype, approximation, n_landmarks, landmarks, memory_budget, \
feature_transform
        As in :class:`KernelKMeans` (``feature_transform="auto"`` Gaussianises heavy-tailed
        features under the default RBF width: diabetes 0.40 → 0.53 ARI):
        ``operator="auto"`` is dense or a
        :class:`~kernel_patterns.kernels.MemoryBudgetError` naming
        ``approximation="nystrom"``; ``dtype="auto"`` is float64 up to 20,000 samples and
        float32 beyond; ``approximation="nystrom"`` with ``n_landmarks`` landmarks clusters
        with ``K ≈ F Fᵀ`` (same solver; the exact method at ``n_landmarks = n_samples``);
        ``approximation="auto"`` (the default) is exact up to 10,000 samples and Nyström
        beyond.

    Attributes
    ----------
    responsibilities_ : ndarray of shape (n_samples, n_clusters)
        R of eq. 7; rows sum to 1.
    labels_ : ndarray of shape (n_samples,)
        argmax_j R_tj (eq. 8).
    inertia_ : float
        Expected feature-space energy Σ_t Σ_j w_t R_tj ‖φ(x_t) − μ_j‖².
    objective_ : float
        The free energy J of eq. 3.
    n_iter_ : int
        Iterations run (products with the kernel matrix) by the run kept.
    approximation_ : {"exact", "nystrom"}
        The kernel the fit used (``approximation="auto"`` resolved).
    kernel_ : Kernel
    feature_transform_ : sklearn Pipeline or None
        The fitted feature transform (``feature_transform``), or None.
    n_features_in_ : int

    Notes
    -----
    A cluster whose total responsibility vanishes is re-seeded with the point of largest
    expected distance to its centroids.

    Examples
    --------
    >>> from kernel_patterns import SoftKernelKMeans
    >>> from kernel_patterns.kernels import GeodesicKernel
    >>> from kernel_patterns.datasets import make_two_moons
    >>> from kernel_patterns.metrics import clustering_accuracy
    >>> X, y = make_two_moons(random_state=0)
    >>> skm = SoftKernelKMeans(2, kernel=GeodesicKernel(n_neighbors=6), beta=0.6,
    ...                        random_state=0).fit(X)
    >>> clustering_accuracy(y, skm.labels_)
    1.0
    >>> skm.predict_proba(X[:2]).sum(axis=1)
    array([1., 1.])
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **_KernelKMeansBase._parameter_constraints,
        "beta": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
    }

    _sk_expected_failed_checks: ClassVar[dict[str, str]] = {
        **_KernelKMeansBase._sk_expected_failed_checks,
        **dict.fromkeys(
            ("check_estimator_sparse_array", "check_estimator_sparse_matrix"),
            "sparse input works (tests/cluster/test_sparse_input.py), but the check then "
            "reads classifier tags to size predict_proba, which a clusterer has none of",
        ),
    }

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        kernel: Any = "rbf",
        kernel_params: dict[str, Any] | None = None,
        beta: float | str = "auto",
        init: Any = "k-means++",
        n_init: int | str = "auto",
        max_iter: int = 300,
        tol: float = 1e-6,
        random_state: Any = None,
        operator: str = "auto",
        dtype: str = "auto",
        approximation: Literal["auto", "exact", "nystrom"] = "auto",
        n_landmarks: int | None = None,
        landmarks: Literal["uniform", "kmeans++", "leverage"] = "uniform",
        memory_budget: float | None = None,
        feature_transform: Literal["auto", "yeo-johnson"] | None = "auto",
    ) -> None:
        store_init_params(self, locals())

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self, X: ArrayLike, y: Any = None, sample_weight: ArrayLike | None = None
    ) -> SoftKernelKMeans:
        """Fit responsibilities to ``X`` (or the precomputed kernel matrix ``X``)."""
        Xv, kernel, op, w, w_scale, diag, init = self._start_runs(X, sample_weight)
        beta = _auto_beta(op, w, diag) if self.beta == "auto" else float(self.beta)
        R0 = np.zeros((init.shape[0], op.n_samples, self.n_clusters))
        for j, lab0 in enumerate(init):
            R0[j, np.arange(op.n_samples), lab0] = 1.0
        Rs, energies, Js, n_iters = _soft_kernel_kmeans_runs(
            op, R0, beta, w, self.max_iter, self.tol, diag
        )
        b = _best_run(Js)
        R, energy, J, n_iter = Rs[b], float(energies[b]), float(Js[b]), int(n_iters[b])
        _, coef, within = _soft_distances(op, R, w, diag)
        labels = np.argmax(R, axis=1).astype(np.intp)
        rank = held_first(labels, self.n_clusters)
        if rank is not None:
            # clusters no point has as its largest (absorbed: their centroids coincide with
            # others') come last, so that labels_ are 0 … used − 1 with no gaps and still the
            # argmax of responsibilities_ (the held ones keep their order, so the first
            # largest stays the first)
            order = np.argsort(rank)
            R, coef, within = R[:, order], coef[:, order], within[order]
            labels = rank[labels]
        self._store_centroids(kernel, Xv, op, coef, within)
        self.beta_ = beta
        self.responsibilities_ = R
        self.labels_ = labels
        self.inertia_ = energy * w_scale  # in the units of the given weights
        self.objective_ = J * w_scale
        self.n_iter_ = n_iter
        # clusters that coincide (absorbed ones included) are named once, by the warning on
        # coincident clusters; the base check then looks at the iterations only
        coincide = self._warn_coincident(R, beta, op, w, diag)
        self._warn_degenerate(
            labels, n_iter < self.max_iter,
            None if coincide else f"the others are absorbed by their neighbours at "
            f"beta={beta:g}: raise beta (harder assignments) or lower n_clusters",
        )
        return self

    def _warn_coincident(
        self, R: FloatArray, beta: float, op: KernelOperator, w: FloatArray, diag: FloatArray
    ) -> bool:
        """Name clusters that coincide (equal responsibilities to within ``COINCIDE_TOL``:
        one centroid counted twice or more, a point's label among them rounding noise); all
        of them coincide when β is below its critical value (uniform responsibilities, the
        only fixed point). True when it warned."""
        k = self.n_clusters
        distinct = _n_distinct_columns(R, COINCIDE_TOL)
        if distinct == k:
            return False
        if distinct == 1 and k > 1:
            bc = _critical_beta(op, w)
            auto = ("" if self.beta == "auto"
                    else f"; beta='auto' gives {_auto_beta(op, w, diag):.3g}")
            why = (f"beta={beta:g} is too small for this kernel's scale; raise beta above "
                   f"{bc:.3g}, the value below which the uniform assignment is the only fixed "
                   f"point{auto}" if bc != np.inf else
                   "no beta separates the points: their covariance in feature space has no "
                   "positive eigenvalue (identical points, or a constant kernel); lower "
                   "n_clusters or use a kernel that tells them apart")
            what = (f"only 1 of the n_clusters={k} clusters is distinct: the responsibilities "
                    f"are uniform (every point 1/{k} in each cluster), so the labels are "
                    f"arbitrary: {why}")
        else:
            what = (f"only {distinct} of the n_clusters={k} clusters are distinct; the others "
                    "coincide with them (equal responsibilities, so a label among them is "
                    f"arbitrary) at beta={beta:g}: raise beta (harder assignments) or lower "
                    "n_clusters")
        warnings.warn(f"SoftKernelKMeans: {what}.", ConvergenceWarning,
                      stacklevel=user_stacklevel())
        return True

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Responsibilities of eq. 7 for new points (the k(x, x) term cancels in the softmax).

        With ``kernel="precomputed"``, ``X`` is the (n_new, n_train) kernel block.
        """
        check_is_fitted(self, "beta_")
        return _responsibilities(self._centroid_scores(X), float(self.beta_))

    def predict(self, X: ArrayLike) -> IntArray:
        """Hard labels of new points, argmax of :meth:`predict_proba` (eq. 8)."""
        return np.argmax(self.predict_proba(X), axis=1).astype(np.intp)
