"""GeodesicKernel: Cailliez constant, PSD, brute-force geodesic distances, out-of-sample rows."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

from kernel_patterns.datasets import make_two_moons
from kernel_patterns.kernels import (
    GeodesicKernel,
    cailliez_constant,
    make_kernel,
    make_operator,
)

from .geodesic_reference import naive_geodesic


def _r_cmdscale_additive_constant(d: np.ndarray) -> float:
    """R's stats::cmdscale(add = TRUE), line by line (x = DoubleCentre(d^2))."""
    n = d.shape[0]
    H = np.eye(n) - 1.0 / n
    x = H @ (d**2) @ H
    Z = np.zeros((2 * n, 2 * n))
    Z[np.arange(n, 2 * n), np.arange(n)] = -1.0
    Z[:n, n:] = -x
    Z[n:, n:] = H @ (2 * d) @ H
    return float(np.max(scipy.linalg.eigvals(Z).real))


def _naive_kernel(D: np.ndarray, c: float) -> np.ndarray:
    n = D.shape[0]
    H = np.eye(n) - 1.0 / n
    Delta = D + c * (1 - np.eye(n))
    return -0.5 * H @ (Delta**2) @ H


@pytest.fixture(scope="module")
def moons() -> np.ndarray:
    # noisy enough that the neighbourhood graphs used here are connected
    X, _ = make_two_moons(n_samples=(60, 60), noise=0.15, random_state=1)
    return X


def test_cailliez_matches_r_cmdscale_and_arpack() -> None:
    rng = np.random.default_rng(0)
    P = rng.normal(size=(40, 3))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1)) ** 1.5  # not Euclidean
    c_dense = cailliez_constant(D, "dense")
    assert c_dense == pytest.approx(_r_cmdscale_additive_constant(D), rel=1e-10)
    assert cailliez_constant(D, "arpack") == pytest.approx(c_dense, rel=1e-7)
    K = _naive_kernel(D, c_dense)
    ev = np.linalg.eigvalsh(K)
    assert ev.min() > -1e-8 * ev.max()
    # a smaller constant leaves K indefinite: c* is the threshold
    assert np.linalg.eigvalsh(_naive_kernel(D, 0.9 * c_dense)).min() < -1e-6


def test_kernel_matrix_equals_brute_force(moons: np.ndarray) -> None:
    for k in (8, 12):
        g = GeodesicKernel(n_neighbors=k).fit(moons)
        D = naive_geodesic(moons, k)
        assert np.isfinite(D).all()
        c = max(cailliez_constant(D, "dense"), 0.0)
        assert g.shift_ == pytest.approx(c, rel=1e-8)
        np.testing.assert_allclose(g.kernel_matrix_, _naive_kernel(D, c), atol=1e-9)
        ev = np.linalg.eigvalsh(g.kernel_matrix_)
        assert ev.min() > -1e-8 * ev.max()


def test_arpack_path_on_larger_data() -> None:
    X, _ = make_two_moons(n_samples=(130, 130), noise=0.15, random_state=0)
    a = GeodesicKernel(n_neighbors=15, eigen_solver="dense").fit(X)
    b = GeodesicKernel(n_neighbors=15, eigen_solver="arpack").fit(X)
    assert b.shift_ == pytest.approx(a.shift_, rel=1e-7)
    ev = np.linalg.eigvalsh(b.kernel_matrix_)
    assert ev.min() > -1e-8 * ev.max()


def test_out_of_sample_rows(moons: np.ndarray) -> None:
    g = GeodesicKernel(n_neighbors=10).fit(moons)
    K = g.kernel_matrix_
    np.testing.assert_allclose(g(moons[:7], moons), K[:7], atol=1e-8)
    np.testing.assert_allclose(g.diag(moons), np.diag(K), atol=1e-12)
    # brute force for a new point: add it to the graph with edges to its k nearest training
    # points, Floyd–Warshall, then the training double centring / shift (Gower's formula)
    y = np.array([[0.3, 0.9]])
    n = moons.shape[0]
    e = np.sqrt(((moons - y) ** 2).sum(1))
    nb = np.argsort(e)[:10]
    D = naive_geodesic(moons, 10)
    dy = np.min(e[nb][:, None] + D[nb], axis=0)
    c = g.shift_
    a = (dy + c) ** 2
    Delta2 = (D + c * (1 - np.eye(n))) ** 2
    r, gm = Delta2.mean(1), Delta2.mean()
    expect = -0.5 * (a - a.mean() - r + gm)
    np.testing.assert_allclose(g(y, moons)[0], expect, atol=1e-8)
    assert g.diag(y)[0] == pytest.approx(a.mean() - gm / 2, rel=1e-10)


def test_operator_seam_and_registry(moons: np.ndarray) -> None:
    g = GeodesicKernel(n_neighbors=9).fit(moons)
    dense = make_operator(g, moons, operator="dense").to_dense()
    np.testing.assert_allclose(dense, g.kernel_matrix_, atol=1e-12)
    chunked = make_operator(g, moons, operator="chunked", block_memory=20_000)
    V = np.random.default_rng(0).normal(size=(moons.shape[0], 3))
    np.testing.assert_allclose(chunked.matmat(V), g.kernel_matrix_ @ V, atol=1e-9)
    np.testing.assert_allclose(chunked.cross(moons[:4]), g.kernel_matrix_[:4], atol=1e-8)
    # an unfitted kernel computes its state from the data it is called on
    np.testing.assert_allclose(GeodesicKernel(n_neighbors=9)(moons), g.kernel_matrix_)
    k = make_kernel("geodesic", {"n_neighbors": 5})
    assert isinstance(k, GeodesicKernel) and k.n_neighbors == 5


def test_disconnected_graph_is_joined_with_warning() -> None:
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(30, 2)) * 0.2, rng.normal(size=(30, 2)) * 0.2 + 10.0])
    with pytest.warns(UserWarning, match="2 connected components"):
        g = GeodesicKernel(n_neighbors=4).fit(X)
    assert g.n_connected_components_ == 2
    assert np.isfinite(g.kernel_matrix_).all()
    ev = np.linalg.eigvalsh(g.kernel_matrix_)
    assert ev.min() > -1e-8 * ev.max()
    with pytest.warns(UserWarning, match="connected components"):
        g0 = GeodesicKernel(n_neighbors=4, join_penalty=0.0).fit(X)
    # the penalty pushes the components apart
    K, K0 = g.kernel_matrix_, g0.kernel_matrix_
    assert K[0, 0] + K[-1, -1] - 2 * K[0, -1] > K0[0, 0] + K0[-1, -1] - 2 * K0[0, -1]


@pytest.mark.parametrize("n_neighbors", [3, 4])
def test_joined_distances_equal_all_pairs_shortest_paths(n_neighbors: int) -> None:
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components, shortest_path
    from sklearn.neighbors import kneighbors_graph

    from kernel_patterns.datasets import make_three_moons
    from kernel_patterns.kernels import geodesic_distances
    from kernel_patterns.utils import join_components

    X, _ = make_three_moons(random_state=0)
    with pytest.warns(UserWarning, match="connected components"):
        D, n_comp = geodesic_distances(X, n_neighbors, 0.5)
    assert n_comp >= 3
    G = sp.csr_array(kneighbors_graph(X, n_neighbors, mode="distance"))
    G = G.maximum(G.T).tocsr()
    _, comp = connected_components(G, directed=False)
    Dfin = shortest_path(G, directed=False)
    with pytest.warns(UserWarning):
        G2, _ = join_components(X, G, comp, n_comp, 0.5 * np.max(Dfin[np.isfinite(Dfin)]))
    np.testing.assert_allclose(D, shortest_path(G2, directed=False), rtol=1e-12)


def test_input_not_modified_and_bad_input(moons: np.ndarray) -> None:
    X0 = moons.copy()
    GeodesicKernel(n_neighbors=5).fit(moons)
    np.testing.assert_array_equal(moons, X0)
    with pytest.raises(ValueError, match="n_neighbors=120 must be smaller than n_samples=120"):
        GeodesicKernel(n_neighbors=120).fit(moons)
    with pytest.raises(ValueError, match="n_neighbors must be a positive integer"):
        GeodesicKernel(n_neighbors=0).fit(moons)
    with pytest.raises(ValueError, match="shift"):
        GeodesicKernel(shift="big").fit(moons)
    with pytest.raises(ValueError, match="join_penalty"):
        GeodesicKernel(join_penalty=-1.0).fit(moons)
    with pytest.raises(ValueError, match="NaN"):
        GeodesicKernel().fit(np.array([[0.0, np.nan], [1.0, 1.0], [2.0, 2.0]]))
    g = GeodesicKernel(n_neighbors=5).fit(moons)
    with pytest.raises(ValueError, match="features"):
        g(np.ones((2, 3)), moons)


def test_geodesic_kernel_is_bitwise_reproducible() -> None:
    # ARPACK draws restart vectors from its own rng: unseeded, c* changed in the 12th digit
    # from run to run and flipped degenerate soft k-means results.
    import warnings

    from kernel_patterns.datasets import make_icassp_logo

    X, _ = make_icassp_logo(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        a = GeodesicKernel(n_neighbors=5, eigen_solver="arpack").fit(X)
        b = GeodesicKernel(n_neighbors=5, eigen_solver="arpack").fit(X)
    assert a.shift_ == b.shift_
    np.testing.assert_array_equal(a.kernel_matrix_, b.kernel_matrix_)


def test_identical_points_give_a_zero_kernel_and_one_cluster() -> None:
    """Every distance 0: c* is 0, not the eigensolvers' round-off (which made K about
    1e-30 of noise, and KernelKMeans split the copies without a word)."""
    from kernel_patterns import KernelKMeans

    X = np.ones((20, 2))
    assert cailliez_constant(np.zeros((20, 20))) == 0.0
    assert cailliez_constant(np.zeros((80, 80)), method="arpack") == 0.0
    assert not GeodesicKernel().fit(X).kernel_matrix_.any()
    with pytest.warns(UserWarning, match="only 1 of the n_clusters=2 clusters hold a point"):
        km = KernelKMeans(2, kernel="geodesic", random_state=0).fit(X)
    assert (km.labels_ == 0).all()
