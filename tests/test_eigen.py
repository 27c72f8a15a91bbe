"""The partial eigensolvers: solvers agree, and a failing ARPACK falls back instead of failing."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse.linalg import ArpackNoConvergence

import kernel_patterns._eigen as eigen
from kernel_patterns import SpectralClustering
from kernel_patterns.datasets import make_rings


@pytest.fixture(scope="module")
def spd():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.normal(size=(700, 700)))
    w = np.r_[np.linspace(10.0, 5.0, 6), rng.uniform(0.0, 1.0, 694)]
    return (Q * w) @ Q.T, np.sort(w)[::-1][:6]


def _failing_eigsh(*args, **kwargs):
    raise ArpackNoConvergence("planted failure", np.zeros(0), np.zeros((0, 0)))


@pytest.mark.parametrize("solver", ["auto", "arpack", "lobpcg", "dense"])
def test_solvers_agree_with_eigh(spd, solver):
    M, top = spd
    w, V = eigen.top_eigenpairs(lambda V: M @ V, 700, 6, solver=solver, random_state=0)
    np.testing.assert_allclose(w, top, rtol=1e-6)
    np.testing.assert_allclose(M @ V, V * w, atol=1e-4)


def test_failed_arpack_falls_back_to_dense(spd, monkeypatch):
    M, top = spd
    monkeypatch.setattr(eigen, "eigsh", _failing_eigsh)
    w, _ = eigen.top_eigenpairs(lambda V: M @ V, 700, 6, random_state=0)
    np.testing.assert_allclose(w, top, rtol=1e-10)
    with pytest.raises(RuntimeError, match=r"ARPACK did not converge.*eigen_solver=.auto."):
        eigen.top_eigenpairs(lambda V: M @ V, 700, 6, solver="arpack", random_state=0)


def test_failed_arpack_falls_back_to_lobpcg_when_large(spd, monkeypatch):
    M, top = spd
    monkeypatch.setattr(eigen, "eigsh", _failing_eigsh)
    monkeypatch.setattr(eigen, "DENSE_FALLBACK_MAX", 100)
    w, _ = eigen.top_eigenpairs(lambda V: M @ V, 700, 6, random_state=0)
    np.testing.assert_allclose(w, top, rtol=1e-6)


def test_unknown_solver_is_named():
    with pytest.raises(ValueError, match="eigen_solver must be one of"):
        eigen.top_eigenpairs(lambda V: V, 3, 1, solver="amg")


def test_default_spectral_run_survives_a_failing_arpack(monkeypatch):
    X, _ = make_rings(n_samples=(350, 350), random_state=0)
    expected = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
                                  random_state=0).fit(X)
    monkeypatch.setattr(eigen, "eigsh", _failing_eigsh)
    sc = SpectralClustering(2, kernel="rbf", kernel_params={"gamma": 10.0},
                            random_state=0).fit(X)
    np.testing.assert_allclose(sc.eigenvalues_, expected.eigenvalues_, rtol=1e-8)
    np.testing.assert_array_equal(sc.labels_, expected.labels_)
