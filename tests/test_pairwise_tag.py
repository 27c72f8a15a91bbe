"""Issue 18, bug 2: with ``kernel="precomputed"`` every estimator carries scikit-learn's
``pairwise`` tag, so cross-validation splits the kernel matrix on both axes (train × train
for fit, test × train for predict/transform)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import adjusted_rand_score, make_scorer
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.metaestimators import _safe_split

from kernel_patterns import (
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    SoftKernelKMeans,
    SpectralClustering,
)
from kernel_patterns.kernels import Precomputed

_CLASSES = [KernelMDS, LaplacianEmbedding, SpectralClustering, KernelKMeans, SoftKernelKMeans]


@pytest.mark.parametrize("cls", _CLASSES)
@pytest.mark.parametrize("kernel", ["precomputed", "PRECOMPUTED", Precomputed()],
                         ids=["str", "upper", "object"])
def test_pairwise_tag_set_for_precomputed(cls, kernel):
    assert cls(kernel=kernel).__sklearn_tags__().input_tags.pairwise is True
    assert cls(kernel="rbf").__sklearn_tags__().input_tags.pairwise is False


@pytest.mark.parametrize("cls", _CLASSES)
def test_cross_validation_splits_both_axes(cls):
    K = np.ones((10, 10))
    Ktr, _ = _safe_split(cls(kernel="precomputed"), K, None, np.arange(6))
    Kte, _ = _safe_split(cls(kernel="precomputed"), K, None, np.arange(6, 10), np.arange(6))
    assert Ktr.shape == (6, 6)
    assert Kte.shape == (4, 6)


def _blobs() -> tuple[np.ndarray, np.ndarray]:
    return make_blobs(n_samples=200, centers=3, cluster_std=1.0, random_state=0)


def test_cross_val_score_kernel_mds_pipeline_on_precomputed_kernel():
    # the reproduction: failed with "must be a square kernel matrix; got (133, 200)"
    X, y = _blobs()
    K = X @ X.T
    pre = cross_val_score(make_pipeline(KernelMDS(kernel="precomputed"),
                                        LogisticRegression()), K, y)
    lin = cross_val_score(make_pipeline(KernelMDS(kernel="linear"), LogisticRegression()), X, y)
    assert pre.shape == (5,)
    np.testing.assert_allclose(pre, lin)  # the same kernel, as a matrix or as a function
    assert pre.mean() > 0.8


def test_cross_val_score_spectral_clustering_on_precomputed_affinity():
    X, y = _blobs()
    sq = np.sum(X**2, axis=1)
    A = np.exp(-0.5 * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0.0))
    ari = make_scorer(adjusted_rand_score)
    scores = cross_val_score(SpectralClustering(3, kernel="precomputed", random_state=0),
                             A, y, scoring=ari)
    assert scores.shape == (5,)
    assert scores.min() > 0.5
