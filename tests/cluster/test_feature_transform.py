"""feature_transform of KernelKMeans, SoftKernelKMeans and SpectralClustering: heavy-tailed
features Gaussianised under a width chosen from the data."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.datasets import load_breast_cancer, make_blobs
from sklearn.metrics import adjusted_rand_score, pairwise_distances
from sklearn.preprocessing import PowerTransformer, StandardScaler

from kernel_patterns import KernelKMeans, SoftKernelKMeans, SpectralClustering

ESTIMATORS = [KernelKMeans, SoftKernelKMeans, SpectralClustering]


@pytest.fixture(scope="module")
def cancer() -> tuple[np.ndarray, np.ndarray]:
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_heavy_tails_are_gaussianised_and_help(Est, cancer) -> None:
    X, y = cancer
    auto = Est(2, random_state=0).fit(X)
    plain = Est(2, random_state=0, feature_transform=None).fit(X)
    assert auto.feature_transform_ is not None and plain.feature_transform_ is None
    expected = PowerTransformer().fit_transform(StandardScaler().fit_transform(X))
    np.testing.assert_allclose(auto.feature_transform_.transform(X), expected, atol=1e-10)
    # breast cancer: 0.65 / 0.65 / 0.72 without, 0.76 / 0.73 / 0.79 with
    assert adjusted_rand_score(y, auto.labels_) > adjusted_rand_score(y, plain.labels_) + 0.05
    # new points go through the same transform: the training points get their labels back
    assert adjusted_rand_score(auto.labels_, auto.predict(X)) > 0.9


def test_the_fit_equals_a_fit_on_the_transformed_features(cancer) -> None:
    X, _ = cancer
    auto = KernelKMeans(2, random_state=0).fit(X)
    T = auto.feature_transform_.transform(X)
    by_hand = KernelKMeans(2, random_state=0, feature_transform=None).fit(T)
    np.testing.assert_array_equal(auto.labels_, by_hand.labels_)
    np.testing.assert_allclose(auto.transform(X[:10]), by_hand.transform(T[:10]))
    assert auto.kernel_.gamma == pytest.approx(by_hand.kernel_.gamma)


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_light_tails_and_given_widths_are_left_alone(Est, cancer) -> None:
    X, _ = make_blobs(200, centers=3, random_state=0)
    assert Est(3, random_state=0).fit(X).feature_transform_ is None
    Xc, _ = cancer
    given = Est(2, kernel="rbf", kernel_params={"gamma": 0.05}, random_state=0).fit(Xc)
    assert given.feature_transform_ is None
    forced = Est(2, kernel="rbf", kernel_params={"gamma": 0.05}, random_state=0,
                 feature_transform="yeo-johnson").fit(Xc)
    assert forced.feature_transform_ is not None


def test_linear_kernel_k_means_is_untouched(cancer) -> None:
    X, _ = cancer
    assert KernelKMeans(2, kernel="linear", random_state=0).fit(X).feature_transform_ is None


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_yeo_johnson_needs_dense_features(Est, cancer) -> None:
    X, _ = cancer
    kernel = "precomputed_nearest_neighbors" if Est is SpectralClustering else "precomputed"
    D = pairwise_distances(X[:60]) if Est is SpectralClustering else X[:60] @ X[:60].T
    with pytest.raises(ValueError, match="feature_transform='yeo-johnson' needs dense"):
        Est(2, kernel=kernel, feature_transform="yeo-johnson").fit(D)
    assert Est(2, kernel=kernel).fit(D).feature_transform_ is None  # "auto": nothing to do
    if Est is not SpectralClustering:  # its k-NN default takes no sparse features
        with pytest.raises(ValueError, match="sparse X"):
            Est(2, feature_transform="yeo-johnson").fit(sparse.csr_array(np.abs(X[:60])))


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_feature_names_and_dtype_survive(Est, cancer) -> None:
    X, _ = cancer
    frame = pd.DataFrame(X[:200], columns=[f"f{j}" for j in range(X.shape[1])])
    est = Est(2, random_state=0).fit(frame)
    assert est.feature_transform_ is not None
    assert list(est.feature_names_in_) == list(frame.columns)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "X has feature names" warning
        est.predict(frame.iloc[:5])
    if Est is KernelKMeans:
        est32 = Est(2, random_state=0).fit(X[:200].astype(np.float32))
        assert est32.transform(X[:3].astype(np.float32)).shape == (3, 2)


@pytest.mark.parametrize("Est", ESTIMATORS)
def test_feature_transform_is_validated(Est) -> None:
    with pytest.raises(ValueError, match="feature_transform"):
        Est(2, feature_transform="log").fit(np.random.default_rng(0).normal(size=(20, 2)))


def test_the_input_is_not_modified(cancer) -> None:
    X, _ = cancer
    before = X.copy()
    for Est in ESTIMATORS:
        Est(2, random_state=0).fit(X).predict(X[:5])
    np.testing.assert_array_equal(X, before)


def test_log_normal_blobs_every_estimator() -> None:
    """Three 4-D blobs through exp (a dense core per feature, a long right tail; median excess
    kurtosis 30): KMeans 0.02, HDBSCAN 0.13 on the standardised features. Gaussianised,
    every estimator finds the blobs."""
    from kernel_patterns import GPClustering

    X, y = make_blobs(500, n_features=4, centers=3, cluster_std=1.5, random_state=0)
    Z = StandardScaler().fit_transform(np.exp(X / 1.5))
    for est in (GPClustering(random_state=0), KernelKMeans(3, random_state=0),
                SoftKernelKMeans(3, random_state=0), SpectralClustering(3, random_state=0)):
        found = est.fit(Z).labels_
        assert est.feature_transform_ is not None
        assert adjusted_rand_score(y, found) > 0.9, type(est).__name__
        without = est.set_params(feature_transform=None).fit(Z).labels_
        assert adjusted_rand_score(y, without) < 0.6, type(est).__name__
