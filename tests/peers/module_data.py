"""Data that several of scikit-learn's ported test modules build at import."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_blobs


def blobs_around(centers: np.ndarray, n_samples: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """The module data of scikit-learn's k-means and spectral-embedding tests: ``n_samples``
    points around ``centers`` (standard deviation 1, seed 42) and their labels."""
    X, labels = make_blobs(n_samples=n_samples, centers=centers, cluster_std=1.0,
                           random_state=42)
    return X, labels
