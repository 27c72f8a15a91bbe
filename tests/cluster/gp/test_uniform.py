"""Hopkins' test of data uniform on their box, which gates the floor rule."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from scipy.stats import mannwhitneyu
from sklearn.preprocessing import StandardScaler

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp._uniform import hopkins_test


def test_hopkins_test_equals_a_brute_force_computation() -> None:
    X = np.random.RandomState(0).normal(size=(300, 4))
    got = hopkins_test(X, random_state=1)
    # the same draws, in the same order, and every distance by brute force
    rng = np.random.RandomState(1)
    m = 30  # a tenth of the points
    probes = rng.uniform(X.min(axis=0), X.max(axis=0), size=(m, 4))
    rows = rng.choice(300, m, replace=False)
    u = cdist(probes, X).min(axis=1)
    d = cdist(X[rows], X)
    d[np.arange(m), rows] = np.inf  # a row's nearest *other* point
    w = d.min(axis=1)
    assert got.n_probes == m
    assert got.statistic == pytest.approx(u.sum() / (u.sum() + w.sum()), rel=1e-12)
    assert got.pvalue == pytest.approx(mannwhitneyu(u, w, alternative="greater").pvalue)


@pytest.mark.parametrize("n_features", [2, 10, 64])
def test_uniform_data_are_not_rejected_and_clusters_are(n_features: int) -> None:
    rng = np.random.RandomState(100)  # not a seed of the test's own draws below
    # most points of a 10-D or 64-D box lie near its faces: the test holds there too
    rejected = [hopkins_test(rng.uniform(size=(2000, n_features)), random_state=s).pvalue
                < 0.05 for s in range(10)]
    assert sum(rejected) <= 2
    blobs = np.r_[rng.normal(0, 1, (1000, n_features)), rng.normal(4, 1, (1000, n_features))]
    assert hopkins_test(blobs, random_state=0).pvalue < 1e-6


def test_hopkins_test_is_reproducible_and_checks_its_input() -> None:
    X = np.random.RandomState(0).uniform(size=(500, 3))
    assert hopkins_test(X, random_state=3) == hopkins_test(X, random_state=3)
    with pytest.raises(ValueError, match="at least 2 rows; got 1"):
        hopkins_test(X[:1])


@pytest.mark.parametrize(("n_features", "seed"), [(8, 1), (10, 1)])
def test_uniform_noise_in_many_dimensions_is_one_cluster(n_features: int, seed: int) -> None:
    # 600 points uniform on a box: the floor rule read 3 and 2 clusters in the landscape's
    # flat bottom before it was gated by Hopkins' test
    X = StandardScaler().fit_transform(np.random.RandomState(seed).rand(600, n_features))
    with warnings.catch_warnings():  # one mode at a length scale read: no doubt, no warning
        warnings.simplefilter("error")
        gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 1
