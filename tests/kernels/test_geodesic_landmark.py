"""GeodesicKernel(approximation="landmark"): landmark shortest paths + landmark MDS features,
checked against the exact geodesic kernel and an independent brute-force Nyström."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import KernelKMeans, SoftKernelKMeans
from kernel_patterns.datasets import make_three_moons, make_two_moons
from kernel_patterns.kernels import (
    GeodesicKernel,
    LandmarkGeodesicOperator,
    LowRankKernelOperator,
    cailliez_constant,
    make_operator,
)

from .geodesic_reference import naive_geodesic


def _landmark(m: int | None, **kw: object) -> GeodesicKernel:
    return GeodesicKernel(approximation="landmark", n_landmarks=m, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def moons() -> np.ndarray:
    # connected 10-NN graph on 400 points
    X, _ = make_two_moons(n_samples=(200, 200), noise=0.12, random_state=3)
    return X


@pytest.fixture(scope="module")
def exact(moons: np.ndarray) -> GeodesicKernel:
    return GeodesicKernel(n_neighbors=10).fit(moons)


def _rel_err(k: GeodesicKernel, K: np.ndarray) -> float:
    F = k.features_
    return float(np.linalg.norm(F @ F.T - K) / np.linalg.norm(K))


@pytest.mark.parametrize("landmarks", ["maxmin", "uniform"])
def test_every_point_a_landmark_is_the_exact_kernel(
    moons: np.ndarray, exact: GeodesicKernel, landmarks: str
) -> None:
    n = moons.shape[0]
    lk = _landmark(n, n_neighbors=10, landmarks=landmarks, random_state=0).fit(moons)
    np.testing.assert_array_equal(lk.landmark_indices_, np.arange(n))
    assert lk.shift_ == pytest.approx(exact.shift_, rel=1e-7)
    K = exact.kernel_matrix_
    np.testing.assert_allclose(lk(moons), K, atol=1e-8 * np.abs(K).max())
    np.testing.assert_allclose(lk.diag(moons), np.diag(K), atol=1e-8 * np.abs(K).max())


def test_equals_brute_force_nystrom_of_landmark_centred_kernel(moons: np.ndarray) -> None:
    # Independent computation (Platt 2005): Floyd–Warshall distances, Cailliez constant of the
    # landmark block by the dense 2m × 2m eigenproblem, Nyström C W⁺ Cᵀ of the kernel centred
    # on the landmarks, then centred on the data.
    lk = _landmark(40, n_neighbors=10, random_state=1).fit(moons)
    L = lk.landmark_indices_
    D = naive_geodesic(moons, 10)
    c = max(cailliez_constant(D[np.ix_(L, L)], "dense"), 0.0)
    assert lk.shift_ == pytest.approx(c, rel=1e-7)
    n, m = moons.shape[0], L.size
    A = (D[:, L] + c) ** 2
    A[L, np.arange(m)] = 0.0
    AL = A[L]
    # k_L(x, l) = −½ (Δ²(x,l) − mean_l' Δ²(x,l') − mean_x' Δ²(x',l) + mean Δ²_LL), x' ∈ L
    C = -0.5 * (A - A.mean(1, keepdims=True) - AL.mean(0)[None, :] + AL.mean())
    W = C[L]
    H = np.eye(n) - 1.0 / n
    expect = H @ C @ np.linalg.pinv(W, rcond=1e-10, hermitian=True) @ C.T @ H
    F = lk.features_
    np.testing.assert_allclose(F @ F.T, expect, atol=1e-7 * np.abs(expect).max())


def test_error_falls_as_landmarks_grow(moons: np.ndarray, exact: GeodesicKernel) -> None:
    K = exact.kernel_matrix_
    sizes = (20, 60, 200, 300, 400)
    errs = [_rel_err(_landmark(m, n_neighbors=10, random_state=0).fit(moons), K) for m in sizes]
    assert all(a > b for a, b in itertools.pairwise(errs))
    assert errs[-1] < 1e-9
    shifts = [_landmark(m, n_neighbors=10, random_state=0).fit(moons).shift_ for m in (20, 200)]
    # a sub-matrix of a Euclidean distance matrix is Euclidean: c(landmarks) ≤ c*
    assert shifts[0] <= shifts[1] <= exact.shift_ * (1 + 1e-9)
    # with the exact kernel's c, within a factor 2 of the best rank-r approximation
    # (the top eigenpairs of K): the Cailliez part ½c²H of K is full-rank
    ev = np.sort(np.linalg.eigvalsh(K))[::-1]
    for m in sizes[:-1]:
        lk = _landmark(m, n_neighbors=10, random_state=0, shift=exact.shift_).fit(moons)
        r = lk.features_.shape[1]
        best = np.sqrt(np.sum(ev[r:] ** 2)) / np.linalg.norm(K)
        assert best <= _rel_err(lk, K) < 2 * best


def test_features_and_out_of_sample_rows(moons: np.ndarray, exact: GeodesicKernel) -> None:
    lk = _landmark(60, n_neighbors=10, random_state=0).fit(moons)
    F = lk.features_
    assert F.shape[0] == moons.shape[0] and F.shape[1] <= 59
    np.testing.assert_allclose(F.mean(0), 0.0, atol=1e-9 * np.abs(F).max())
    op = make_operator(lk, moons)
    assert isinstance(op, LandmarkGeodesicOperator)
    # training points through the out-of-sample path get their own features back
    np.testing.assert_allclose(op.transform(moons[:9]), F[:9], atol=1e-9)
    np.testing.assert_allclose(lk(moons[:9], moons), F[:9] @ F.T, atol=1e-9)
    # brute force for new points: geodesic distances through their 10 nearest training points
    # (Floyd–Warshall), then the Nyström rows of the landmark-centred kernel, data-centred
    Y = np.array([[0.3, 0.9], [1.5, -0.2], [-0.8, 0.1]])
    L, n, c = lk.landmark_indices_, moons.shape[0], lk.shift_
    D = naive_geodesic(moons, 10)
    e = np.sqrt(((Y[:, None, :] - moons[None]) ** 2).sum(-1))
    nb = np.argsort(e, axis=1)[:, :10]
    dY = np.stack([np.min(e[i, nb[i]][:, None] + D[nb[i]], axis=0) for i in range(3)])
    A = (D[:, L] + c) ** 2
    A[L, np.arange(L.size)] = 0.0
    AY = (dY[:, L] + c) ** 2
    AL = A[L]

    def centred(B: np.ndarray) -> np.ndarray:
        return -0.5 * (B - B.mean(1, keepdims=True) - AL.mean(0)[None, :] + AL.mean())

    Wp = np.linalg.pinv(centred(AL), rcond=1e-10, hermitian=True)
    P, pY = centred(A) @ Wp @ centred(A).T, centred(AY) @ Wp @ centred(A).T
    H = np.eye(n) - 1.0 / n
    expect = (pY - P.mean(0)) @ H
    np.testing.assert_allclose(lk(Y, moons), expect, atol=1e-7 * np.abs(expect).max())
    np.testing.assert_allclose(op.cross(Y), expect, atol=1e-7 * np.abs(expect).max())
    np.testing.assert_allclose(op.cross_diag(Y), lk.diag(Y), rtol=1e-10)
    FY = op.transform(Y)
    np.testing.assert_allclose(lk.diag(Y), np.einsum("ij,ij->i", FY, FY), rtol=1e-10)
    # every point a landmark: new points' rows are the exact kernel's (up to the direction of
    # the zero eigenvalue that c* creates, which the features drop)
    full = make_operator(_landmark(n, n_neighbors=10, random_state=0).fit(moons), moons)
    Yn = moons[:30] + np.random.default_rng(0).normal(scale=0.02, size=(30, 2))
    Ke = exact(Yn, moons)
    assert np.linalg.norm(full.cross(Yn) - Ke) / np.linalg.norm(Ke) < 0.02


def test_operator_is_low_rank_and_consistent(moons: np.ndarray) -> None:
    lk = _landmark(50, n_neighbors=10, random_state=0).fit(moons)
    op = make_operator(lk, moons, operator="dense", dtype=np.float32)
    assert isinstance(op, LowRankKernelOperator) and op.dtype == np.float32
    F = lk.features_
    assert op.low_rank_factor() is op.features and op.features.shape == F.shape
    V = np.random.default_rng(0).normal(size=(moons.shape[0], 3))
    np.testing.assert_allclose(op.matmat(V), F @ (F.T @ V), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(op.take_rows([3, 7]), (F[[3, 7]] @ F.T), rtol=1e-4, atol=1e-4)
    # the fitted state is reused, not rebuilt: same landmarks, same features
    op64 = make_operator(lk, moons)
    assert op64.features is lk.features_
    # an unfitted landmark kernel fits itself on the data it is given
    un = make_operator(_landmark(50, n_neighbors=10, random_state=0), moons)
    np.testing.assert_allclose(un.features, F)
    # the exact geodesic kernel still gets an N × N operator
    exact_op = make_operator(GeodesicKernel(n_neighbors=10), moons)
    assert not isinstance(exact_op, LowRankKernelOperator)


@pytest.mark.parametrize("estimator", [KernelKMeans, SoftKernelKMeans])
def test_kernel_kmeans_labels_agree_with_exact(estimator: type) -> None:
    X, y = make_three_moons(n_samples=(150, 150, 150), noise=0.08, random_state=0)
    kw = {"beta": 0.03} if estimator is SoftKernelKMeans else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # components joined
        a = estimator(3, kernel=GeodesicKernel(n_neighbors=8), random_state=0, **kw).fit(X)
        b = estimator(
            3, kernel=_landmark(100, n_neighbors=8, random_state=0), random_state=0, **kw
        ).fit(X)
        assert adjusted_rand_score(a.labels_, b.labels_) >= 0.99
        truth_a, truth_b = adjusted_rand_score(y, a.labels_), adjusted_rand_score(y, b.labels_)
        assert truth_b >= truth_a - 0.01
        np.testing.assert_array_equal(b.predict(X[::7]), b.labels_[::7])


def test_disconnected_graph_handled_as_exact() -> None:
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(40, 2)) * 0.2, rng.normal(size=(30, 2)) * 0.2 + 10.0])
    with pytest.warns(UserWarning, match="2 connected components"):
        ex = GeodesicKernel(n_neighbors=4).fit(X)
    with pytest.warns(UserWarning, match="2 connected components"):
        full = _landmark(70, n_neighbors=4, random_state=0).fit(X)
    assert full.n_connected_components_ == 2
    K = ex.kernel_matrix_
    np.testing.assert_allclose(full(X), K, atol=1e-8 * np.abs(K).max())
    # maxmin gives every component a landmark before any gets a second one
    with pytest.warns(UserWarning):
        two = _landmark(2, n_neighbors=4, random_state=0).fit(X)
    assert sorted(int(i >= 40) for i in two.landmark_indices_) == [0, 1]
    # uniform landmarks may miss a component: distances still pass the bridge as in the exact
    # kernel (with join_penalty=0 the bridge length does not depend on the landmarks)
    from kernel_patterns.kernels import geodesic_distances

    with pytest.warns(UserWarning):
        D, _ = geodesic_distances(X, 4, 0.0)
    with pytest.warns(UserWarning):
        u = _landmark(5, n_neighbors=4, landmarks="uniform", join_penalty=0.0,
                      random_state=2).fit(X)
    np.testing.assert_allclose(u._state.D, D[u.landmark_indices_], rtol=1e-12)
    assert np.isfinite(u.features_).all()


def test_reproducible_and_landmark_choice(moons: np.ndarray) -> None:
    a = _landmark(30, n_neighbors=10, random_state=5).fit(moons)
    b = _landmark(30, n_neighbors=10, random_state=5).fit(moons)
    np.testing.assert_array_equal(a.landmark_indices_, b.landmark_indices_)
    np.testing.assert_array_equal(a.features_, b.features_)
    u1 = _landmark(30, n_neighbors=10, landmarks="uniform", random_state=1).fit(moons)
    u2 = _landmark(30, n_neighbors=10, landmarks="uniform", random_state=2).fit(moons)
    assert not np.array_equal(u1.landmark_indices_, u2.landmark_indices_)
    # default: min(300, n) landmarks
    small = _landmark(None, n_neighbors=5, random_state=0).fit(moons[:120])
    assert small.landmark_indices_.size == 120


def test_bad_parameters_and_input_not_modified(moons: np.ndarray) -> None:
    X = moons.astype(np.float32)
    X0 = X.copy()
    lk = _landmark(20, n_neighbors=6, random_state=0).fit(X)
    KernelKMeans(2, kernel=lk, random_state=0, n_init=1).fit(X)
    lk(X[:3], X)
    np.testing.assert_array_equal(X, X0)
    n = moons.shape[0]
    with pytest.raises(ValueError, match="approximation must be 'exact' or 'landmark'"):
        GeodesicKernel(approximation="nystrom").fit(moons)
    with pytest.raises(ValueError, match=r"n_landmarks .* positive integer"):
        _landmark(0).fit(moons)
    with pytest.raises(ValueError, match=r"n_landmarks .* positive integer"):
        _landmark(True).fit(moons)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"between 2 and n_samples={n} .*; got {n + 1}"):
        _landmark(n + 1).fit(moons)
    with pytest.raises(ValueError, match="one landmark has no geometry"):
        _landmark(1).fit(moons)
    with pytest.raises(ValueError, match="landmarks must be 'maxmin' or 'uniform'"):
        _landmark(10, landmarks="kmeans++").fit(moons)
    with pytest.raises(ValueError, match="n_neighbors=400 must be smaller"):
        _landmark(10, n_neighbors=400).fit(moons)
    with pytest.raises(ValueError, match="NaN"):
        _landmark(2).fit(np.array([[0.0, np.nan], [1.0, 1.0], [2.0, 2.0]]))
    with pytest.raises(ValueError, match="features"):
        lk(np.ones((2, 3)), X)


def test_nystrom_of_a_data_dependent_kernel_is_refused(moons: np.ndarray) -> None:
    # Nyström columns K(X, L) of a geodesic kernel would refit it on the landmarks alone
    g = GeodesicKernel(n_neighbors=10).fit(moons)
    with pytest.raises(ValueError, match=r"GeodesicKernel\(approximation='landmark'\)"):
        make_operator(g, moons, approximation="nystrom", n_components=50)
