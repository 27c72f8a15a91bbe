"""Every clustering estimator on data that cannot fill its clusters: labels 0 … used − 1 with
no gaps, identical rows never split, and a warning that names the parameter to change."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import GPClustering, KernelKMeans, SoftKernelKMeans, SpectralClustering

ESTIMATORS = {
    "kernel k-means": lambda: KernelKMeans(5, random_state=0),
    "soft kernel k-means": lambda: SoftKernelKMeans(5, random_state=0),
    "spectral, eigenvector rule": lambda: SpectralClustering(5, kernel="rbf",
                                                            assign="eigenvector",
                                                            random_state=0),
    "GP, given the count": lambda: GPClustering(n_clusters=5),
}


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_three_distinct_rows_for_five_clusters(name) -> None:
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(size=(3, 2)) * 5, 10, axis=0)  # 3 points, 10 copies each
    with pytest.warns(UserWarning, match="n_clusters|min_cluster_size"):
        labels = ESTIMATORS[name]().fit_predict(X)
    used = np.unique(labels[labels >= 0])
    np.testing.assert_array_equal(used, np.arange(used.size))
    assert used.size <= 3
    for g in range(3):  # every row with its copies
        assert np.unique(labels[10 * g : 10 * g + 10]).size == 1
