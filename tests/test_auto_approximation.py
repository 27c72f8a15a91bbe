"""``approximation="auto"``, the default of KernelKMeans, SoftKernelKMeans and KernelMDS:
exact up to ``AUTO_EXACT_MAX_SAMPLES`` samples, Nyström beyond (``_fit.resolve_approximation``).

The switch size is lowered with ``monkeypatch`` so that both sides run on small sets."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import KernelKMeans, KernelMDS, SoftKernelKMeans, _fit
from kernel_patterns._fit import AUTO_EXACT_MAX_SAMPLES, resolve_approximation
from kernel_patterns.kernels import RBF, GeodesicKernel, MemoryBudgetError, Precomputed

ESTIMATORS: list[Any] = [
    lambda **kw: KernelKMeans(3, random_state=0, **kw),
    lambda **kw: SoftKernelKMeans(3, random_state=0, **kw),
    lambda **kw: KernelMDS(random_state=0, **kw),
]
IDS = ["KernelKMeans", "SoftKernelKMeans", "KernelMDS"]


def _blobs(n: int) -> tuple[np.ndarray, np.ndarray]:
    X, y = make_blobs(n, centers=[[0, 0], [4, 0], [2, 3.5]], cluster_std=1.0, random_state=0)
    return X, y


def _output(est: Any, X: np.ndarray) -> np.ndarray:
    return est.fit_transform(X) if isinstance(est, KernelMDS) else est.fit_predict(X)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.ndim == 1:
        return bool(np.array_equal(a, b))
    return bool(np.allclose(np.abs(a), np.abs(b), rtol=1e-10, atol=1e-12))


def test_the_rule() -> None:
    n = AUTO_EXACT_MAX_SAMPLES
    assert resolve_approximation("auto", RBF(), n) == "exact"
    assert resolve_approximation("auto", RBF(), n + 1) == "nystrom"
    # what Nyström cannot evaluate, and an explicit operator, stay exact
    assert resolve_approximation("auto", Precomputed(), 10 * n) == "exact"
    assert resolve_approximation("auto", GeodesicKernel(), 10 * n) == "exact"
    assert resolve_approximation("auto", RBF(), 10 * n, operator="chunked") == "exact"
    assert resolve_approximation("auto", RBF(), 10 * n, operator="dense") == "exact"
    # the other values are what they say
    for value in ("exact", "nystrom"):
        assert resolve_approximation(value, RBF(), 10) == value
        assert resolve_approximation(value, RBF(), 10 * n) == value


@pytest.mark.parametrize("make", ESTIMATORS, ids=IDS)
def test_auto_is_exact_up_to_the_switch(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fit, "AUTO_EXACT_MAX_SAMPLES", 200)
    X, _ = _blobs(200)
    auto = make()
    assert auto.get_params()["approximation"] == "auto"
    out = _output(auto, X)
    assert auto.approximation_ == "exact"
    assert _same(out, _output(make(approximation="exact"), X))


@pytest.mark.parametrize("make", ESTIMATORS, ids=IDS)
def test_auto_is_nystrom_above_the_switch(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fit, "AUTO_EXACT_MAX_SAMPLES", 200)
    X, _ = _blobs(201)
    auto = make()
    out = _output(auto, X)
    assert auto.approximation_ == "nystrom"
    nystrom = make(approximation="nystrom")
    assert _same(out, _output(nystrom, X))
    assert nystrom.approximation_ == "nystrom"
    # new points go through the Nyström features, as with approximation="nystrom"
    if isinstance(auto, KernelMDS):
        assert np.allclose(np.abs(auto.transform(X[:5])), np.abs(nystrom.transform(X[:5])))
    else:
        assert np.array_equal(auto.predict(X[:5]), nystrom.predict(X[:5]))
    # an explicit exact kernel is still exact
    exact = make(approximation="exact")
    _output(exact, X)
    assert exact.approximation_ == "exact"


def test_auto_keeps_dense_or_raise_below_the_switch() -> None:
    X, _ = _blobs(300)
    with pytest.raises(MemoryBudgetError, match="nystrom"):
        KernelKMeans(3, memory_budget=1000).fit(X)


def test_precomputed_is_exact_under_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fit, "AUTO_EXACT_MAX_SAMPLES", 50)
    X, _ = _blobs(120)
    K = RBF(gamma=0.5).pairwise(X, X)
    km = KernelKMeans(3, kernel="precomputed", random_state=0).fit(K)
    assert km.approximation_ == "exact"


@pytest.mark.parametrize("make", ESTIMATORS, ids=IDS)
def test_nystrom_agrees_with_exact_on_a_moderate_set(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What auto switches to gives the clusters (or the picture) of the exact kernel: three
    touching blobs of 1,500 points, 300 landmarks."""
    monkeypatch.setattr(_fit, "AUTO_EXACT_MAX_SAMPLES", 1000)
    X, y = _blobs(1500)
    auto, exact = make(), make(approximation="exact")
    a, b = _output(auto, X), _output(exact, X)
    assert auto.approximation_ == "nystrom"
    if a.ndim == 1:
        assert adjusted_rand_score(a, b) > 0.98
        assert adjusted_rand_score(y, a) >= adjusted_rand_score(y, b) - 0.01
    else:  # the same two axes up to sign, each within 1 % of the exact one's norm
        for j in range(a.shape[1]):
            s = np.sign(a[:, j] @ b[:, j])
            assert np.linalg.norm(s * a[:, j] - b[:, j]) < 0.01 * np.linalg.norm(b[:, j])
