"""RBF(gamma="scale"): the width from the training data, recorded in every estimator's kernel_."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from kernel_patterns import (
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    NuRanking,
    OnlineRanking,
    SoftKernelKMeans,
    SpectralClustering,
)
from kernel_patterns.kernels import RBF, make_kernel, make_operator


@pytest.fixture(scope="module")
def wine() -> tuple[np.ndarray, np.ndarray]:
    X, y = load_wine(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_scale_rule_is_sklearns_svc_rule(wine) -> None:
    X, _ = wine
    k = RBF().with_data_scale(X)
    assert k.gamma == pytest.approx(1.0 / (X.shape[1] * X.var()))
    assert make_kernel("rbf").needs_data_scale() and not k.needs_data_scale()
    assert RBF(2.0).with_data_scale(X).gamma == 2.0  # a number is kept
    assert RBF().with_data_scale(np.ones((5, 2))).gamma == 1.0  # constant data
    np.testing.assert_allclose(RBF()(X), RBF(k.gamma)(X))  # same points: resolved from X
    with pytest.raises(ValueError, match="takes its width from the training data"):
        RBF()(X[:3], X[:5])
    with pytest.raises(ValueError, match="gamma must be a number > 0 or 'scale'"):
        RBF("median")(X)


@pytest.mark.parametrize("scale", [1e-160, 1e-300])
def test_a_width_the_data_cannot_give_is_an_error_naming_the_scale(wine, scale) -> None:
    # the variance under- or overflows float64 (1e-160: gamma = inf; 1e-300: a variance of
    # 0 for data that are not constant, which read as constant gave gamma = 1, one cluster)
    X = wine[0][:20] * scale
    with pytest.raises(ValueError, match=r"RBF\(gamma='scale'\).*not a finite positive "
                       r"float64 for X of this scale.*rescale X"):
        RBF().with_data_scale(X)
    with pytest.raises(ValueError, match="for X of this scale"):
        KernelKMeans(2, random_state=0).fit(X)
    assert RBF().with_data_scale(np.full((4, 2), scale)).gamma == 1.0  # constant data


def test_make_operator_resolves_the_width(wine) -> None:
    X, _ = wine
    op = make_operator(RBF(), X)
    assert op.kernel.gamma == pytest.approx(1.0 / (X.shape[1] * X.var()))


@pytest.mark.parametrize("est", [
    KernelKMeans(3, random_state=0), SoftKernelKMeans(3, random_state=0),
    SpectralClustering(3, kernel="rbf", random_state=0),
], ids=lambda e: type(e).__name__)
def test_default_clustering_is_scale_invariant_and_records_the_width(est, wine) -> None:
    X, _ = wine
    a = est.fit(X).labels_.copy()
    gamma = est.kernel_.gamma
    b = est.fit(1000.0 * X).labels_
    np.testing.assert_array_equal(a, b)
    assert est.kernel_.gamma == pytest.approx(gamma * 1e-6)


def test_default_spectral_knn_affinity_is_scale_invariant(wine) -> None:
    X, _ = wine
    a = SpectralClustering(3, random_state=0).fit(X)
    b = SpectralClustering(3, random_state=0).fit(1000.0 * X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.kernel_ == "nearest_neighbors" and a.n_neighbors_ == 10


@pytest.mark.parametrize("cls", [KernelMDS, LaplacianEmbedding], ids=lambda c: c.__name__)
def test_default_embeddings_are_scale_invariant(cls, wine) -> None:
    X, _ = wine
    a = cls(2, random_state=0).fit(X)
    b = cls(2, random_state=0).fit(1000.0 * X)
    np.testing.assert_allclose(np.abs(a.embedding_), np.abs(b.embedding_), atol=1e-6)
    if cls is LaplacianEmbedding:  # the k-NN graph: no width at all, the same graph
        assert a.kernel_ == b.kernel_ == "nearest_neighbors"
        np.testing.assert_array_equal(a.affinity_matrix_.toarray(), b.affinity_matrix_.toarray())
    else:
        assert b.kernel_.gamma == pytest.approx(a.kernel_.gamma * 1e-6)


def test_laplacian_rbf_width_follows_the_scale(wine) -> None:
    X, _ = wine
    a = LaplacianEmbedding(2, kernel="rbf", random_state=0).fit(X)
    b = LaplacianEmbedding(2, kernel="rbf", random_state=0).fit(1000.0 * X)
    np.testing.assert_allclose(np.abs(a.embedding_), np.abs(b.embedding_), atol=1e-6)
    assert b.kernel_.gamma == pytest.approx(a.kernel_.gamma * 1e-6)


def test_kernel_mds_new_points_use_the_fitted_width(wine) -> None:
    X, _ = wine
    mds = KernelMDS(2, random_state=0).fit(X)
    np.testing.assert_allclose(mds.transform(X), mds.embedding_, atol=1e-8)


@pytest.mark.parametrize("cls", [NuRanking, OnlineRanking], ids=lambda c: c.__name__)
def test_rankers_resolve_the_width(cls, wine) -> None:
    X, y = wine
    r = cls().fit(X, y)
    scale = 1.0 / (X.shape[1] * X.var())
    if cls is NuRanking:  # nu="auto" picks a multiple of the data-driven width (issue 17)
        from kernel_patterns.rank._nu_ranking_select import WIDTH_FACTORS

        assert any(r.kernel_.gamma == pytest.approx(f * scale) for f in WIDTH_FACTORS)
    else:  # the perceptron uses a fixed multiple of it (issue 17)
        from kernel_patterns.rank._online import WIDTH_FACTOR

        assert r.kernel_.gamma == pytest.approx(WIDTH_FACTOR * scale)
    assert r.predict(X[:5]).shape == (5,)
