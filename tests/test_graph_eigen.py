"""Sparse-graph Laplacian eigenpairs one component at a time: every solver path gives the same
eigenvalues (to 1e-8) and the same clusters, on graphs with several connected components and
on long thin shapes, where regular-mode Lanczos used to iterate for minutes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import linalg, sparse
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import kneighbors_graph

import kernel_patterns._graph_eigen as graph_eigen
from kernel_patterns import LaplacianEmbedding, SpectralClustering
from kernel_patterns._graph_eigen import laplacian_bottom_eigenpairs
from kernel_patterns.datasets import make_rings

SOLVERS = ["auto", "arpack", "lobpcg", "amg", "dense"]


def _knn(X: np.ndarray) -> sparse.csr_array:
    C = kneighbors_graph(X, 10, include_self=True)
    return sparse.csr_array(0.5 * (C + C.T))


def _stripes(n: int, n_stripes: int, gap: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Long thin parallel stripes, 12 long and 0.05 thick."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_stripes
    return np.c_[rng.uniform(0.0, 12.0, n), gap * y + rng.normal(0.0, 0.05, n)], y


@pytest.fixture(scope="module")
def graphs() -> dict[str, tuple[sparse.csr_array, np.ndarray]]:
    rings, y_rings = make_rings(n_samples=(650, 900), noise=0.05, random_state=0)
    # a long stripe and a few small far-away groups of 12 to 20 points: components of every size
    stripe, _ = _stripes(900, 1, 1.0)
    rng = np.random.default_rng(1)
    tiny = [rng.normal(50.0 * (i + 1), 0.01, (s, 2)) for i, s in enumerate((12, 15, 20))]
    mixed = np.vstack([stripe, *tiny])
    y_mixed = np.r_[np.zeros(900), np.repeat([1, 2, 3], (12, 15, 20))].astype(int)
    thin, y_thin = _stripes(1000, 2, 0.15)  # two stripes joined by a few edges: one component
    return {"rings": (_knn(rings), y_rings), "mixed": (_knn(mixed), y_mixed),
            "thin": (_knn(thin), y_thin)}


def laplacian(A: sparse.csr_array, normed: bool) -> sparse.csr_array:
    """D − A or I − D^-½ A D^-½ with the self-loops of A in D (scipy's ``laplacian`` drops
    the diagonal)."""
    d = np.asarray(A.sum(axis=1)).ravel()
    if normed:
        s = sparse.diags_array(1.0 / np.sqrt(d))
        return sparse.csr_array(sparse.identity(A.shape[0]) - s @ A @ s)
    return sparse.csr_array(sparse.diags_array(d) - A)


def _reference(A: sparse.csr_array, k: int, normed: bool) -> np.ndarray:
    return linalg.eigvalsh(laplacian(A, normed).toarray(), subset_by_index=[0, k - 1])


@pytest.mark.parametrize("normed", [True, False])
@pytest.mark.parametrize("name", ["rings", "mixed", "thin"])
def test_every_solver_gives_the_dense_eigenvalues(graphs, name, normed):
    A, _ = graphs[name]
    k = 6
    ref = _reference(A, k, normed)
    scale = 1.0 if normed else float(A.sum(axis=1).max())
    for solver in SOLVERS:
        with warnings.catch_warnings():
            # plain LOBPCG does not converge on clustered spectra: it says so and falls back
            warnings.simplefilter("ignore")
            lam, V, _ = laplacian_bottom_eigenpairs(A, k, normed=normed, solver=solver,
                                                    random_state=0)
        np.testing.assert_allclose(lam, ref, rtol=0, atol=1e-8 * scale, err_msg=solver)
        B = laplacian(A, normed)
        np.testing.assert_allclose(V.T @ V, np.eye(k), atol=1e-8)
        assert np.max(np.abs(B @ V - V * lam)) < 1e-6 * scale, solver


def test_components_are_set_not_searched(graphs, monkeypatch):
    A, y = graphs["mixed"]  # four components: with k ≤ 4 nothing is solved at all
    monkeypatch.setattr(graph_eigen, "_component_bottom", None)
    lam, V, c = laplacian_bottom_eigenpairs(A, 4, normed=True, random_state=0)
    assert c == 4
    np.testing.assert_array_equal(lam, np.zeros(4))
    support = (np.abs(V) > 0).astype(int)
    np.testing.assert_array_equal(support.sum(axis=1), np.ones(A.shape[0]))  # one each
    assert adjusted_rand_score(y, support.argmax(axis=1)) == 1.0
    d = np.asarray(A.sum(axis=1)).ravel()
    first = np.sqrt(d) * (y == 0)  # the largest component first, √degree on it
    np.testing.assert_allclose(V[:, 0], first / np.linalg.norm(first))


def test_failing_solvers_fall_back_in_turn(graphs, monkeypatch):
    A, _ = graphs["thin"]
    ref = _reference(A, 4, True)

    def fail(*args, **kwargs):
        raise graph_eigen._NoConvergence("planted")

    for name in ("_shift_invert", "_lanczos", "_lobpcg"):  # down to the dense eigh
        monkeypatch.setattr(graph_eigen, name, fail)
        lam, _, _ = laplacian_bottom_eigenpairs(A, 4, normed=True, random_state=0)
        np.testing.assert_allclose(lam, ref, atol=1e-8)
    with pytest.warns(Warning, match="eigen_solver='arpack' did not converge"):
        lam, _, _ = laplacian_bottom_eigenpairs(A, 4, normed=True, solver="arpack",
                                                random_state=0)
    np.testing.assert_allclose(lam, ref, atol=1e-8)
    monkeypatch.setattr(graph_eigen, "_dense", fail)
    with pytest.raises(RuntimeError, match="no eigensolver converged"):
        laplacian_bottom_eigenpairs(A, 4, normed=True, random_state=0)


def test_wide_graphs_try_lanczos_before_the_lu(monkeypatch):
    X = np.random.default_rng(0).normal(size=(1200, 20))  # 20-D: wide levels, costly LU
    A = _knn(X)
    assert graph_eigen._widest_level(laplacian(A, False)) > graph_eigen.LU_MAX_WIDTH // 10
    calls: list[str] = []
    lanczos, shift_invert = graph_eigen._lanczos, graph_eigen._shift_invert
    monkeypatch.setattr(graph_eigen, "LU_FIRST_WIDTH", 10)
    monkeypatch.setattr(graph_eigen, "_lanczos",
                        lambda *a, **k: calls.append("lanczos") or lanczos(*a, **k))
    monkeypatch.setattr(graph_eigen, "_shift_invert",
                        lambda *a, **k: calls.append("lu") or shift_invert(*a, **k))
    lam, _, _ = laplacian_bottom_eigenpairs(A, 5, normed=True, random_state=0)
    assert calls == ["lanczos"]
    np.testing.assert_allclose(lam, _reference(A, 5, True), atol=1e-8)


def test_pyamg_is_asked_for_only_when_lobpcg_runs(monkeypatch, graphs):
    asked: list[bool] = []
    has_pyamg = graph_eigen._has_pyamg
    monkeypatch.setattr(graph_eigen, "_has_pyamg", lambda: asked.append(True) or has_pyamg())
    A, _ = graphs["thin"]  # one component: solved by the LU, LOBPCG never reached
    laplacian_bottom_eigenpairs(A, 3, normed=True, random_state=0)
    assert asked == []

    def fail(*args, **kwargs):
        raise graph_eigen._NoConvergence("planted")

    for name in ("_shift_invert", "_lanczos"):  # the fallback: LOBPCG asks
        monkeypatch.setattr(graph_eigen, name, fail)
    lam, _, _ = laplacian_bottom_eigenpairs(A, 3, normed=True, random_state=0)
    assert asked == [True]
    np.testing.assert_allclose(lam, _reference(A, 3, True), atol=1e-8)


def test_a_denser_graph_of_the_same_shape_tries_the_lu_first(monkeypatch):
    # one thin stripe, one component: 10 and 60 neighbours per point of the same 2-D points
    X, _ = _stripes(1500, 1, 1.0)
    sparse10 = laplacian(_knn(X), False)
    C = kneighbors_graph(X, 60, include_self=True)
    dense60 = laplacian(sparse.csr_array(0.5 * (C + C.T)), False)
    w10, w60 = graph_eigen._widest_level(sparse10), graph_eigen._widest_level(dense60)
    assert w60 > 3 * w10  # more vertices on each level of the same geometry
    # a bound between the two widths: the plain width would send the 60-NN graph to
    # Lanczos first; counted in 10-neighbour vertices it goes to the LU, as the 10-NN one
    monkeypatch.setattr(graph_eigen, "LU_FIRST_WIDTH", (w10 + w60) // 2)
    assert graph_eigen._lu_first(sparse10, w10) and graph_eigen._lu_first(dense60, w60)
    monkeypatch.setattr(graph_eigen, "LU_MAX_WIDTH", w60 - 1)  # the fronts' bound still holds
    assert not graph_eigen._lu_first(dense60, w60)


def test_lu_first_on_a_denser_graph_gives_the_reference_eigenvalues(monkeypatch):
    X, _ = _stripes(1500, 1, 1.0)
    C = kneighbors_graph(X, 60, include_self=True)
    A = sparse.csr_array(0.5 * (C + C.T))
    # below the graph's width in vertices, above it in 10-neighbour vertices
    monkeypatch.setattr(graph_eigen, "LU_FIRST_WIDTH",
                        graph_eigen._widest_level(laplacian(A, False)) - 1)
    calls: list[str] = []
    shift_invert = graph_eigen._shift_invert
    monkeypatch.setattr(graph_eigen, "_shift_invert",
                        lambda *a, **k: calls.append("lu") or shift_invert(*a, **k))
    lam, _, _ = laplacian_bottom_eigenpairs(A, 4, normed=False, random_state=0)
    assert calls == ["lu"]
    np.testing.assert_allclose(lam, _reference(A, 4, False), atol=1e-8)


@pytest.mark.parametrize("solver", ["arpack", "lobpcg", "amg", "dense"])
def test_spectral_clustering_paths_agree_on_components_and_thin_shapes(solver):
    for X, y, k in [(*make_rings(n_samples=(500, 800), noise=0.05, random_state=0), 2),
                    (*_stripes(1500, 3, 1.0), 3)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a stripe may break in two at 10 neighbours
            auto = SpectralClustering(k, random_state=0).fit(X)
            other = SpectralClustering(k, eigen_solver=solver, random_state=0).fit(X)
        np.testing.assert_allclose(other.eigenvalues_, auto.eigenvalues_, rtol=0, atol=1e-8)
        np.testing.assert_array_equal(other.labels_, auto.labels_)
        assert adjusted_rand_score(y, auto.labels_) == 1.0


@pytest.mark.parametrize("solver", ["arpack", "lobpcg", "dense"])
def test_laplacian_embedding_paths_agree_on_a_long_thin_shape(solver):
    X, _ = _stripes(1500, 2, 0.15)
    kw = {"kernel": "nearest_neighbors", "n_neighbors": 10, "random_state": 0}
    auto = LaplacianEmbedding(3, **kw).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = LaplacianEmbedding(3, eigen_solver=solver, **kw).fit(X)
    scale = float(auto.affinity_matrix_.sum(axis=1).max())
    np.testing.assert_allclose(other.eigenvalues_, auto.eigenvalues_, rtol=0, atol=1e-8 * scale)
    # eigenvectors up to sign (deterministic per path) where eigenvalues are apart
    gaps = np.diff(auto.eigenvalues_) > 1e-6 * scale
    assert gaps.all()
    np.testing.assert_allclose(np.abs(other.embedding_.T @ auto.embedding_), np.eye(3),
                               atol=1e-6)


def test_reproducible_from_random_state(graphs):
    A, _ = graphs["thin"]
    a = laplacian_bottom_eigenpairs(A, 5, normed=True, random_state=3)
    b = laplacian_bottom_eigenpairs(A, 5, normed=True, random_state=3)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
