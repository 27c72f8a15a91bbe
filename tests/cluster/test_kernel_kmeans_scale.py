"""Kernel k-means at scale: Nyström fits, the memory guard, dtype="auto", and the solver's
low-rank and chunked paths against the dense one (small data; big N lives in benchmarks)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.utils._param_validation import InvalidParameterError

import kernel_patterns.kernels._operator as operator_module
from kernel_patterns import KernelKMeans, SoftKernelKMeans
from kernel_patterns.cluster._kernel_kmeans_solver import _hard_distances, _lloyd_kernel_kmeans_runs
from kernel_patterns.datasets import make_two_moons
from kernel_patterns.kernels import (
    RBF,
    LowRankKernelOperator,
    MemoryBudgetError,
    Precomputed,
    make_operator,
)

GAMMA = 0.1


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    X, y = make_blobs(n_samples=300, centers=5, cluster_std=1.0, random_state=3)
    return X, y


def _exact_objective(X: np.ndarray, labels: np.ndarray, k: int) -> float:
    """Eq. 8.12 with the exact kernel, for any labels."""
    op = make_operator(RBF(GAMMA), X)
    dist, _, _ = _hard_distances(op, labels, np.ones(len(X)), op.diag(), k)
    return float(dist[np.arange(len(X)), labels].sum())


# ----------------------------------------------------------------------- Nyström fits
def test_nystrom_at_full_rank_equals_exact(blobs) -> None:
    X, _ = blobs
    # from the same initial labels: the same labels; from k-means++ (seeds drawn from kernel
    # rows that differ in the last bits): the same partition
    init = np.random.default_rng(0).integers(0, 5, len(X))
    exact = KernelKMeans(5, kernel=RBF(GAMMA), init=init).fit(X)
    full = KernelKMeans(5, kernel=RBF(GAMMA), init=init, approximation="nystrom",
                        n_landmarks=len(X)).fit(X)
    np.testing.assert_array_equal(full.labels_, exact.labels_)
    assert full.inertia_ == pytest.approx(exact.inertia_, rel=1e-8)
    pp = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0).fit(X)
    pp_full = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0, approximation="nystrom",
                           n_landmarks=len(X)).fit(X)
    assert adjusted_rand_score(pp.labels_, pp_full.labels_) == 1.0
    assert pp_full.inertia_ == pytest.approx(pp.inertia_, rel=1e-8)
    Xn = X[:40] + 0.3
    np.testing.assert_array_equal(full.predict(Xn), exact.predict(Xn))
    np.testing.assert_allclose(full._centroid_scores(Xn), exact._centroid_scores(Xn),
                               atol=1e-8)


def test_soft_nystrom_at_full_rank_equals_exact() -> None:
    X, _ = make_two_moons(random_state=0)
    kw = {"kernel": RBF(5.0), "beta": 20.0, "n_init": 3, "random_state": 0}
    exact = SoftKernelKMeans(2, **kw).fit(X)
    full = SoftKernelKMeans(2, approximation="nystrom", n_landmarks=len(X), **kw).fit(X)
    np.testing.assert_allclose(full.responsibilities_, exact.responsibilities_, atol=1e-8)
    assert full.objective_ == pytest.approx(exact.objective_, rel=1e-8)
    np.testing.assert_allclose(full.predict_proba(X[:30] + 0.05),
                               exact.predict_proba(X[:30] + 0.05), atol=1e-8)


def test_nystrom_objective_and_agreement_improve_with_landmarks(blobs) -> None:
    X, _ = blobs
    exact = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0).fit(X)
    objective, agreement = [], []
    for m in (2, 8, 64):
        fits = [KernelKMeans(5, kernel=RBF(GAMMA), random_state=s, approximation="nystrom",
                             n_landmarks=m).fit(X) for s in range(3)]
        objective.append(np.mean([_exact_objective(X, f.labels_, 5) for f in fits]))
        agreement.append(np.mean([adjusted_rand_score(exact.labels_, f.labels_) for f in fits]))
    assert objective[0] > objective[1] > objective[2]
    assert objective[2] == pytest.approx(exact.inertia_, rel=1e-9)
    assert agreement[0] < agreement[1] < agreement[2] == 1.0


def test_nystrom_fit_keeps_no_per_sample_state(blobs) -> None:
    X, _ = blobs
    n = len(X)
    for est in (KernelKMeans(5, kernel=RBF(GAMMA), random_state=0, approximation="nystrom",
                             n_landmarks=20),
                SoftKernelKMeans(5, kernel=RBF(GAMMA), beta=50.0, random_state=0,
                                 approximation="nystrom", n_landmarks=20)):
        est.fit(X)
        per_sample = {
            name for name, v in vars(est).items()
            if isinstance(v, np.ndarray) and v.ndim and v.shape[0] == n
        }
        assert per_sample <= {"labels_", "responsibilities_"}
        landmarks, feature_map, centroids = est._nystrom
        assert landmarks.shape == (20, 2) and centroids.shape == (feature_map.shape[1], 5)
        # training points go to the centroid they converged to
        assert adjusted_rand_score(est.labels_, est.predict(X)) == 1.0


@pytest.mark.parametrize("landmarks", ["uniform", "kmeans++", "leverage"])
def test_nystrom_landmark_rules_and_reproducibility(blobs, landmarks: str) -> None:
    X, y = blobs
    kw = {"kernel": RBF(GAMMA), "approximation": "nystrom", "n_landmarks": 40,
          "landmarks": landmarks, "random_state": 1}
    a = KernelKMeans(5, **kw).fit(X)
    b = KernelKMeans(5, **kw).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert adjusted_rand_score(y, a.labels_) > 0.95


def test_nystrom_does_not_modify_input(blobs) -> None:
    X, _ = blobs
    X = X.copy()
    before = X.copy()
    km = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0, approximation="nystrom",
                      n_landmarks=30).fit(X)
    km.predict(X)
    np.testing.assert_array_equal(X, before)


# ------------------------------------------------------------------------ parameters
def test_more_landmarks_than_samples_warns_and_uses_all(blobs) -> None:
    X, _ = blobs
    for cls in (KernelKMeans, SoftKernelKMeans):
        with pytest.warns(UserWarning, match="n_landmarks=500 landmarks is more than"):
            est = cls(3, approximation="nystrom", n_landmarks=500, random_state=0).fit(X)
        assert est.labels_.shape == (X.shape[0],)


def test_n_landmarks_is_ignored_by_the_exact_method(blobs) -> None:
    X, _ = blobs
    a = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0).fit(X)
    b = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0, n_landmarks=7).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)


def test_nystrom_with_precomputed_kernel_is_rejected(blobs) -> None:
    X, _ = blobs
    K = RBF(GAMMA)(X)
    with pytest.raises(ValueError, match="cannot be used with kernel='precomputed'"):
        KernelKMeans(3, kernel="precomputed", approximation="nystrom").fit(K)


@pytest.mark.parametrize(
    "params",
    [
        {"approximation": "svd"},
        {"approximation": "nystrom", "n_landmarks": 0},
        {"approximation": "nystrom", "landmarks": "random"},
        {"memory_budget": -1},
        {"dtype": "float16"},
        {"operator": "sparse"},
    ],
)
def test_invalid_parameters(blobs, params: dict) -> None:
    X, _ = blobs
    for cls in (KernelKMeans, SoftKernelKMeans):
        with pytest.raises(InvalidParameterError):
            cls(3, **params).fit(X)


# ---------------------------------------------------------------------- memory guard
def test_memory_budget_fails_before_allocating(blobs, monkeypatch) -> None:
    X, _ = blobs

    def no_build(*args, **kwargs):  # the kernel matrix must not even be started
        raise AssertionError("the dense kernel matrix was built")

    monkeypatch.setattr(operator_module, "_fill_dense", no_build)
    for cls in (KernelKMeans, SoftKernelKMeans):
        with pytest.raises(MemoryBudgetError, match="approximation='nystrom'"):
            cls(3, kernel=RBF(GAMMA), memory_budget=10_000).fit(X)


def test_default_budget_auto_is_dense_or_raise(blobs, monkeypatch) -> None:
    X, _ = blobs
    monkeypatch.setattr(operator_module, "default_memory_budget", lambda: 10_000)
    with pytest.raises(MemoryBudgetError, match="approximation='nystrom'"):
        KernelKMeans(3, kernel=RBF(GAMMA)).fit(X)
    # the approximation and the explicit chunked operator still run under that budget
    ny = KernelKMeans(5, kernel=RBF(GAMMA), approximation="nystrom", n_landmarks=50,
                      random_state=0).fit(X)
    chunked = KernelKMeans(5, kernel=RBF(GAMMA), operator="chunked", random_state=0).fit(X)
    monkeypatch.undo()
    dense = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0).fit(X)
    np.testing.assert_array_equal(chunked.labels_, dense.labels_)
    assert adjusted_rand_score(dense.labels_, ny.labels_) == 1.0


def test_generous_memory_budget_allows_exact(blobs) -> None:
    X, _ = blobs
    km = KernelKMeans(5, kernel=RBF(GAMMA), memory_budget=8 * len(X) ** 2, random_state=0)
    assert km.fit(X).labels_.shape == (len(X),)


def test_dtype_auto_switches_to_float32_above_the_threshold(blobs, monkeypatch) -> None:
    X, _ = blobs
    assert KernelKMeans(5, kernel=RBF(GAMMA)).fit(X)._op_dtype == np.float64
    monkeypatch.setattr(operator_module, "AUTO_FLOAT32_ABOVE", 100)
    km = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0).fit(X)
    assert km._op_dtype == np.float32
    ref = KernelKMeans(5, kernel=RBF(GAMMA), random_state=0, dtype="float64").fit(X)
    assert adjusted_rand_score(ref.labels_, km.labels_) == 1.0


# ------------------------------------------------------------------------ solver paths
def test_low_rank_solver_path_equals_dense_on_the_same_matrix() -> None:
    # the centroid-sums shortcut for K = F Fᵀ against the dense operator of the same K
    rng = np.random.default_rng(0)
    F = rng.normal(size=(400, 6))
    init = rng.integers(0, 4, size=(3, 400))
    w = rng.uniform(0.5, 2.0, 400)
    low = _lloyd_kernel_kmeans_runs(LowRankKernelOperator(F), init, 4, w)
    dense = _lloyd_kernel_kmeans_runs(make_operator(Precomputed(), F @ F.T), init, 4, w)
    np.testing.assert_array_equal(low[0], dense[0])
    np.testing.assert_allclose(low[1], dense[1], rtol=1e-9)
    np.testing.assert_array_equal(low[2], dense[2])


def test_chunked_solver_path_in_small_row_blocks_equals_dense(blobs) -> None:
    X, _ = blobs
    init = np.random.default_rng(1).integers(0, 5, size=(2, len(X)))
    chunked = make_operator(RBF(GAMMA), X, operator="chunked", block_memory=20_000)
    assert chunked._default_block_rows() < 20  # several blocks of moved rows per pass
    a = _lloyd_kernel_kmeans_runs(chunked, init, 5)
    b = _lloyd_kernel_kmeans_runs(make_operator(RBF(GAMMA), X, operator="dense"), init, 5)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_allclose(a[1], b[1], rtol=1e-9)


def test_two_cluster_pass_equals_eq_6_3_brute_force() -> None:
    from kernel_patterns.cluster._kernel_kmeans_solver import _reassign_two

    rng = np.random.default_rng(0)
    n = 500
    kzt = rng.normal(size=(2, n))
    labels = rng.integers(0, 2, n).astype(np.intp)
    w = rng.uniform(0.5, 2.0, n)
    d = rng.uniform(1.0, 2.0, n)
    new, inertia = _reassign_two(kzt, labels, w, float(w @ d))
    s = np.array([w[labels == c].sum() for c in (0, 1)])
    zkz = np.array([(w * kzt[c])[labels == c].sum() for c in (0, 1)])
    dist = d[:, None] - 2.0 / s * kzt.T + zkz / s**2
    own = dist[np.arange(n), labels]
    other = dist[np.arange(n), 1 - labels]
    np.testing.assert_array_equal(new, np.where(other < own, 1 - labels, labels))
    assert inertia == pytest.approx(float(np.sum(w * own)), rel=1e-12)
    # exact ties (two identical clusters): nobody moves
    half = np.r_[np.zeros(n // 2, dtype=np.intp), np.ones(n - n // 2, dtype=np.intp)]
    tied = _reassign_two(np.full((2, n), 0.5), half, np.ones(n), float(d.sum()))
    assert tied is not None
    np.testing.assert_array_equal(tied[0], half)
