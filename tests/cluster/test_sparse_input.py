"""Sparse input to the clustering estimators and embeddings (issue 18, item 6): documents
clustered by a cosine kernel on TF-IDF, and every estimator whose kernel takes sparse rows
gives on CSR/CSC input what it gives on the same data dense."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import (
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    SoftKernelKMeans,
    SpectralClustering,
)


def _corpus(n_per_topic: int = 40, seed: int = 0) -> tuple[list[str], np.ndarray]:
    """Short documents from three topics' vocabularies, with shared filler words."""
    rng = np.random.default_rng(seed)
    topics = [
        ["goal", "match", "striker", "league", "keeper", "penalty", "referee", "season",
         "coach", "stadium"],
        ["protein", "enzyme", "cell", "membrane", "gene", "receptor", "molecule", "tissue",
         "assay", "mutation"],
        ["bond", "equity", "yield", "inflation", "market", "dividend", "credit", "rate",
         "portfolio", "futures"],
    ]
    filler = ["the", "a", "of", "and", "report", "new", "says", "today"]
    docs, labels = [], []
    for t, words in enumerate(topics):
        for _ in range(n_per_topic):
            w = list(rng.choice(words, size=8)) + list(rng.choice(filler, size=4))
            docs.append(" ".join(w))
            labels.append(t)
    return docs, np.array(labels)


def test_kernel_kmeans_cosine_on_tfidf():
    docs, y = _corpus()
    tfidf = TfidfVectorizer().fit_transform(docs)  # CSR
    assert sparse.issparse(tfidf)
    km = KernelKMeans(3, kernel="cosine", random_state=0).fit(tfidf)
    assert adjusted_rand_score(y, km.labels_) == 1.0
    dense = KernelKMeans(3, kernel="cosine", random_state=0).fit(tfidf.toarray())
    np.testing.assert_array_equal(km.labels_, dense.labels_)
    new, y_new = _corpus(5, seed=1)
    X_new = TfidfVectorizer(vocabulary=TfidfVectorizer().fit(docs).vocabulary_).fit_transform(new)
    assert adjusted_rand_score(y_new, km.predict(X_new)) == 1.0
    np.testing.assert_allclose(km.transform(X_new), dense.transform(X_new.toarray()), atol=1e-12)


def _kkm(kernel: str, approximation: str) -> KernelKMeans:
    return KernelKMeans(3, kernel=kernel, approximation=approximation, n_landmarks=60,
                        random_state=0)


def _soft(kernel: str, approximation: str) -> SoftKernelKMeans:
    return SoftKernelKMeans(3, kernel=kernel, approximation=approximation, n_landmarks=60,
                            random_state=0)


def _spectral(kernel: str, approximation: str) -> SpectralClustering:
    return SpectralClustering(3, kernel=kernel, approximation=approximation, n_landmarks=60,
                              random_state=0)


# SpectralClustering needs a non-negative affinity: no linear or polynomial kernel there
_CASES = [(m, k) for m in (_kkm, _soft) for k in ("linear", "cosine", "poly", "rbf")] + [
    (_kkm, "laplacian"), (_kkm, "sigmoid"), (_spectral, "cosine"), (_spectral, "rbf"),
    (_spectral, "laplacian")]


@pytest.mark.parametrize(("make", "kernel"), _CASES,
                         ids=[f"{m.__name__[1:]}-{k}" for m, k in _CASES])
@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_clustering_on_sparse_equals_dense(make, kernel, approximation, nonneg_points):
    X = nonneg_points()
    a = make(kernel, approximation).fit(X)
    b = make(kernel, approximation).fit(sparse.csr_matrix(X))
    np.testing.assert_array_equal(b.labels_, a.labels_)
    Xn = nonneg_points(20, seed=1)
    np.testing.assert_array_equal(b.predict(sparse.csc_array(Xn)), a.predict(Xn))


@pytest.mark.parametrize(
    "est",
    [KernelKMeans(2, kernel="geodesic"), SoftKernelKMeans(2, kernel="gp"),
     SpectralClustering(2, kernel="gp"), KernelMDS(kernel="geodesic"),
     LaplacianEmbedding(kernel="gp")],
    ids=lambda e: type(e).__name__,
)
def test_a_kernel_that_cannot_take_sparse_input_is_named(est, nonneg_points):
    S = sparse.csr_array(nonneg_points())
    with pytest.raises(TypeError, match=r"the kernel (GeodesicKernel|GPCovariance) cannot take "
                                        r"sparse input X"):
        est.fit(S)
    assert est.__sklearn_tags__().input_tags.sparse is False


def test_knn_affinity_on_sparse_features_equals_dense():
    # the default affinity of SpectralClustering (and a LaplacianEmbedding option) takes
    # sparse features, as scikit-learn's SpectralClustering(affinity="nearest_neighbors")
    docs, y = _corpus()
    tfidf = TfidfVectorizer().fit_transform(docs)
    sc = SpectralClustering(3, random_state=0)
    assert sc.__sklearn_tags__().input_tags.sparse is True
    sc.fit(tfidf)
    assert adjusted_rand_score(y, sc.labels_) == 1.0
    dense = SpectralClustering(3, random_state=0).fit(tfidf.toarray())
    np.testing.assert_array_equal(sc.labels_, dense.labels_)
    for fmt in ("csc", "coo"):
        np.testing.assert_array_equal(
            SpectralClustering(3, random_state=0).fit(tfidf.asformat(fmt)).labels_, sc.labels_)
    np.testing.assert_array_equal(sc.predict(tfidf[:30]), dense.predict(tfidf[:30].toarray()))
    # (50 neighbours: a connected graph across the three topics)
    emb = LaplacianEmbedding(2, kernel="nearest_neighbors", n_neighbors=50, random_state=0)
    assert emb.__sklearn_tags__().input_tags.sparse is True
    np.testing.assert_allclose(
        np.abs(emb.fit_transform(tfidf)),
        np.abs(LaplacianEmbedding(2, kernel="nearest_neighbors", n_neighbors=50,
                                  random_state=0).fit_transform(tfidf.toarray())),
        atol=1e-8)
    bad = tfidf.copy()
    bad.data[0] = np.nan
    with pytest.raises(ValueError, match=r"X contains NaN \(1 value\)"):
        SpectralClustering(3).fit(bad)
    with pytest.raises(ValueError, match="feature_transform='yeo-johnson' needs dense "
                                         "features; got sparse X"):
        SpectralClustering(3, feature_transform="yeo-johnson").fit(tfidf)
