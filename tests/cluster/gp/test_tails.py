"""feature_transform: heavy-tailed features Gaussianised before the data-driven landscape."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import PowerTransformer, StandardScaler

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp import TAIL_KURTOSIS, median_excess_kurtosis
from kernel_patterns.kernels import GPCovariance


@pytest.fixture(scope="module")
def cancer() -> tuple[np.ndarray, np.ndarray]:
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_median_excess_kurtosis() -> None:
    rng = np.random.default_rng(0)
    assert median_excess_kurtosis(rng.laplace(size=(20000, 3))) == pytest.approx(3, abs=0.3)
    assert median_excess_kurtosis(rng.uniform(size=(20000, 3))) == pytest.approx(-1.2, abs=0.1)
    # a constant feature counts as 0, not nan
    X = np.c_[np.ones(50), np.ones(50), rng.laplace(size=50)]
    assert median_excess_kurtosis(X) == 0.0


def test_heavy_tailed_features_are_gaussianised(cancer) -> None:
    X, y = cancer
    assert median_excess_kurtosis(X) > TAIL_KURTOSIS
    gp = GPClustering().fit(X)
    assert gp.feature_transform_ is not None
    assert gp.n_clusters_ == 2
    assert adjusted_rand_score(y, gp.labels_) > 0.7
    # without it the landscape is one basin with outliers around it
    # ... and the warning says how heavy the tails are and what to change
    with pytest.warns(UserWarning, match=r"one cluster.*excess kurtosis is 2\.99.*"
                                         r"feature_transform='yeo-johnson'"):
        plain = GPClustering(feature_transform=None).fit(X)
    assert plain.feature_transform_ is None
    assert adjusted_rand_score(y, plain.labels_) < 0.1


def test_the_transform_is_the_standardised_yeo_johnson(cancer) -> None:
    X, _ = cancer
    gp = GPClustering().fit(X)
    expected = PowerTransformer().fit_transform(StandardScaler().fit_transform(X))
    np.testing.assert_allclose(gp.feature_transform_.transform(X), expected, atol=1e-10)
    # the landscape lives in that space: the variance of the input is the model's there
    np.testing.assert_allclose(gp.variance(X[:20]),
                               gp.landscape_.model.variance(expected[:20]), atol=1e-12)


def test_units_do_not_change_the_labels(cancer) -> None:
    X, _ = cancer
    scaled = X * np.linspace(1, 1000, X.shape[1])  # each feature in other units
    a = GPClustering().fit(X).labels_
    b = GPClustering().fit(scaled).labels_
    assert adjusted_rand_score(a, b) == 1.0


def test_equilibria_and_predictions_are_in_the_input_units(cancer) -> None:
    X, _ = cancer
    gp = GPClustering().fit(X)
    land = gp.landscape_
    np.testing.assert_allclose(gp.feature_transform_.transform(gp.equilibria_),
                               land.equilibria, atol=1e-6)
    np.testing.assert_allclose(land.to_pandas()[["x0", "x1"]].to_numpy(),
                               gp.equilibria_[:, :2])
    # the training points predicted again land in their own clusters
    assert adjusted_rand_score(gp.labels_, gp.predict(X)) > 0.95
    assert X.flags.writeable and np.isfinite(gp.equilibria_).all()


def test_light_tails_and_given_kernels_are_left_alone(cancer) -> None:
    X, _ = make_blobs(300, centers=3, random_state=0)
    assert median_excess_kurtosis(X) < TAIL_KURTOSIS
    assert GPClustering().fit(X).feature_transform_ is None
    # a given kernel's length scale is in the input's units: "auto" leaves it alone ...
    Xc, _ = cancer
    kernel = GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=0.5)
    assert GPClustering(kernel, n_clusters=2).fit(Xc).feature_transform_ is None
    # ... and "yeo-johnson" asks for it
    forced = GPClustering(kernel, n_clusters=2, feature_transform="yeo-johnson").fit(Xc)
    assert forced.feature_transform_ is not None


def test_feature_transform_is_validated() -> None:
    with pytest.raises(ValueError, match="feature_transform"):
        GPClustering(feature_transform="log").fit(np.random.default_rng(0).normal(size=(20, 2)))


def test_the_input_is_not_modified(cancer) -> None:
    X, _ = cancer
    before = X.copy()
    GPClustering().fit(X)
    np.testing.assert_array_equal(X, before)


def test_a_far_outlier_keeps_the_equilibria_in_the_input_units() -> None:
    # λ ≈ -40: the inverse Yeo-Johnson gives NaN or a tenth of the value near the bound
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(299, 2)), [[1e4, 1e4]]]
    gp = GPClustering(random_state=0).fit(X)
    assert gp.feature_transform_ is not None
    S = gp.equilibria_
    assert np.isfinite(S).all()
    assert np.all((X.min(axis=0) <= S) & (X.max(axis=0) >= S))
    # every equilibrium is the input-units point whose image the landscape holds
    Xt = gp.feature_transform_.transform(X)
    for j in range(2):
        order = np.argsort(Xt[:, j])
        np.testing.assert_allclose(np.interp(gp.landscape_.equilibria[:, j], Xt[order, j],
                                             X[order, j]), S[:, j], rtol=0.05, atol=0.05)
