"""The kernel chosen from the data and the length scale of a kernel (``cluster/gp/_kernel.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kernel_patterns.cluster.gp import auto_length_scale, default_kernel
from kernel_patterns.cluster.gp._kernel import kernel_length_scale
from kernel_patterns.kernels import RBF, GPCovariance, Polynomial


def _brute_length_scale(X: np.ndarray) -> float:
    """The 90th percentile of the distance to the 5th nearest neighbour, from all pairwise
    distances (numpy only)."""
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    fifth = np.sort(D, axis=1)[:, 5]  # column 0 is the point itself
    return float(np.percentile(fifth, 90))


@pytest.mark.parametrize(("n", "d", "seed"), [(50, 2, 0), (120, 3, 1), (200, 7, 2)])
def test_auto_length_scale_is_the_90th_percentile_of_5th_neighbour_distances(n, d, seed) -> None:
    X = np.random.default_rng(seed).normal(size=(n, d)) * np.arange(1, d + 1)
    X0 = X.copy()
    assert auto_length_scale(X) == pytest.approx(_brute_length_scale(X), rel=1e-12)
    assert np.array_equal(X, X0)
    # in the units of X: a scaled X, a scaled length scale
    assert auto_length_scale(1e3 * X) == pytest.approx(1e3 * auto_length_scale(X), rel=1e-12)


def test_auto_length_scale_of_few_or_duplicated_points() -> None:
    X = np.random.default_rng(0).uniform(size=(4, 2))  # 3 neighbours only: the 3rd
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    assert auto_length_scale(X) == pytest.approx(np.percentile(np.sort(D, 1)[:, 3], 90))
    assert auto_length_scale(np.ones((10, 3))) == 1.0  # every point the same
    # most points with five copies: the distinct points' resolution, in the units of X
    atoms = np.random.default_rng(1).normal(size=(50, 2))
    copies = np.repeat(atoms, 10, axis=0)
    D = np.sqrt(((atoms[:, None, :] - atoms[None, :, :]) ** 2).sum(axis=2))
    nearest = np.sort(D, axis=1)[:, 1]
    assert auto_length_scale(copies) == pytest.approx(np.quantile(nearest, 0.9), rel=1e-12)
    assert auto_length_scale(1e3 * copies) == pytest.approx(1e3 * auto_length_scale(copies))
    # integer codes: the step between values
    assert auto_length_scale(np.repeat(np.arange(5.0), 20)[:, None]) == 1.0
    assert auto_length_scale(7 * np.repeat(np.eye(3), 30, axis=0)) == pytest.approx(7 * 2**0.5)


@pytest.mark.parametrize("factor", [1.0, 0.5, 2.0 ** -0.75, 3.0])
def test_default_kernel_has_l_one_over_the_squared_scaled_length(factor) -> None:
    X = np.random.default_rng(3).uniform(size=(80, 2))
    ell = _brute_length_scale(X)
    k = default_kernel(X, factor)
    assert isinstance(k, GPCovariance)
    assert (k.v0, k.v1, k.v2) == (1.0, 10.0, 1.0)
    assert float(k.l) == pytest.approx(1.0 / (factor * ell) ** 2, rel=1e-12)
    assert kernel_length_scale(k, X) == pytest.approx(factor * ell, rel=1e-12)


def test_kernel_length_scale_of_gp_covariance_rbf_and_others() -> None:
    X = np.random.default_rng(4).normal(size=(30, 2)) * [1.0, 3.0]
    # GPCovariance: the smallest 1/√l
    assert kernel_length_scale(GPCovariance(l=400.0), X) == pytest.approx(0.05)
    assert kernel_length_scale(GPCovariance(l=[4.0, 100.0, 25.0]), X) == pytest.approx(0.1)
    # RBF exp(−γ‖x − y‖²) = exp(−‖x − y‖² / (2ℓ²)): ℓ = 1/√(2γ)
    assert kernel_length_scale(RBF(gamma=2.0), X) == pytest.approx(0.5)
    assert kernel_length_scale(RBF(gamma=0.125), X) == pytest.approx(2.0)
    # RBF(gamma="scale"): γ = 1 / (n_features · X.var()) from the data
    gamma = 1.0 / (X.shape[1] * X.var())
    assert kernel_length_scale(RBF(), X) == pytest.approx(1.0 / np.sqrt(2.0 * gamma))
    # any other kernel: 5 % of the largest feature range (1 when X is one point)
    poly = Polynomial(degree=2, gamma=1.0, coef0=1.0)
    assert kernel_length_scale(poly, X) == pytest.approx(0.05 * np.ptp(X, axis=0).max())
    assert kernel_length_scale(poly, np.ones((5, 2))) == 1.0


def test_data_beyond_float64_are_a_clear_error() -> None:
    from kernel_patterns import GPClustering

    X = np.random.default_rng(0).normal(size=(40, 3))
    with pytest.raises(ValueError, match=r"X holds values up to .* Rescale X"):
        GPClustering(random_state=0).fit(X * 1e200)
    for tiny in (1e-160, 1e-300):
        with pytest.raises(ValueError, match=r"length scale of X is .* too close together"):
            GPClustering(random_state=0).fit(X * tiny)
    # the error comes first: no reading of the data along a line (their squared distances
    # underflow to 0) with its warnings before it
    for tiny in (1e-200, 1e-310):
        for n_clusters in (None, 3):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with pytest.raises(ValueError, match=r"length scale of X is 0: .* too close"):
                    GPClustering(n_clusters=n_clusters, random_state=0).fit(X * tiny)
