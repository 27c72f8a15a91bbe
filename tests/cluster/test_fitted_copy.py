"""Issue 18, bug 1: estimators keep a copy of the training points, never the caller's array.

Editing ``X`` in place after ``fit`` must not change ``predict`` (scikit-learn's estimators
copy what they keep)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernel_patterns import KernelKMeans, SoftKernelKMeans, SpectralClustering
from kernel_patterns.kernels import GeodesicKernel

_ESTIMATORS = [
    KernelKMeans(3, kernel="rbf", random_state=0),
    KernelKMeans(3, kernel="rbf", approximation="nystrom", n_landmarks=40, random_state=0),
    KernelKMeans(3, kernel=GeodesicKernel(n_neighbors=8), random_state=0),
    SoftKernelKMeans(3, kernel="rbf", random_state=0),
    SpectralClustering(3, kernel="rbf", random_state=0),
    SpectralClustering(3, kernel="rbf", approximation="nystrom", n_landmarks=40,
                       random_state=0),
]


@pytest.mark.parametrize("est", _ESTIMATORS, ids=lambda e: repr(e)[:60])
def test_editing_x_after_fit_does_not_change_predict(est):
    X, _ = make_blobs(n_samples=120, centers=3, random_state=0)
    X_new = X[::7].copy() + 0.1
    est.fit(X)
    before = est.predict(X_new)
    scores_before = est.predict_proba(X_new) if hasattr(est, "predict_proba") else None
    X[:] = np.random.default_rng(1).normal(size=X.shape) * 50.0  # the caller reuses X
    np.testing.assert_array_equal(est.predict(X_new), before)
    if scores_before is not None:
        np.testing.assert_allclose(est.predict_proba(X_new), scores_before)


def test_geodesic_kernel_fit_keeps_its_own_copy():
    X, _ = make_blobs(n_samples=60, centers=2, random_state=0)
    k = GeodesicKernel(n_neighbors=6).fit(X)
    assert not np.shares_memory(k.X_fit_, X)
