"""Regression tests for :func:`kernel_patterns.utils.knn_affinity` (found by the property
tests, ``tests/properties/test_spectral.py``)."""

import numpy as np

from kernel_patterns import SpectralClustering
from kernel_patterns.utils import knn_affinity


def test_neighbour_search_keeps_a_copy_of_x() -> None:
    """The fitted neighbour search does not share memory with the caller's X."""
    X = np.array([[0.0], [1.0], [5.0], [6.0]])
    _, nn, _ = knn_affinity(X, 2, precomputed=False)
    X[:] = 100.0
    np.testing.assert_array_equal(nn.kneighbors(np.array([[5.5]]), 1)[1], [[2]])


def test_spectral_predict_unchanged_after_caller_edits_x() -> None:
    """SpectralClustering (k-NN graph) predicts the same after the caller edits X in place
    (it used to read the edited array through the neighbour search)."""
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(20, 2)), rng.normal(size=(20, 2)) + 8.0]
    keep = X.copy()
    model = SpectralClustering(2, random_state=0).fit(X)
    before = model.predict(keep)
    X[...] = X[::-1] * -2.0
    np.testing.assert_array_equal(model.predict(keep), before)
