"""The exact GP variance (eq. 3.1) and its gradient (``cluster/gp/_variance.py``).

* ``GPVarianceModel.variance`` and ``value_and_gradient`` against the textbook formula with an
  explicit inverse, and the closed-form gradient against central finite differences;
* ``GPVarianceModel.at_training_points`` (weights ``I − ν C⁻¹``, no GEMM) against
  ``value_and_gradient(X)`` and against central finite differences;
* ``GPVarianceModel.variance`` (a triangular solve, ``_explained``) against
  ``value_and_gradient`` (C⁻¹);
* the variance read through the estimator (clipped at 0) and the jitter of
  ``fit_variance_model`` on duplicates without noise.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp._variance import fit_variance_model
from kernel_patterns.kernels import RBF, GPCovariance, Polynomial

from .gp_data import KERNEL, finite_difference_gradient, scaled


@pytest.mark.parametrize(
    "kernel",
    [GPCovariance(v0=1.0, v1=10.0, v2=0.5, l=[30.0, 10.0, 50.0]), RBF(gamma=2.0),
     Polynomial(degree=2, gamma=1.0, coef0=1.0)],
)
def test_variance_and_gradient_match_brute_force(kernel) -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(8, 3))
    Q = rng.uniform(size=(5, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the polynomial matrix may need jitter
        model = fit_variance_model(kernel, X)
    C = kernel(X) + model.jitter * np.eye(8)
    k = kernel(Q, X)
    kappa = np.array([kernel(q[None, :])[0, 0] for q in Q])
    brute = kappa - np.einsum("ij,ji->i", k, np.linalg.inv(C) @ k.T)
    assert np.allclose(model.variance(Q), np.maximum(brute, 0.0), rtol=1e-6, atol=1e-9)
    # closed-form gradient (errata 2) against central finite differences
    f, g = model.value_and_gradient(Q)
    fd = finite_difference_gradient(model.variance, Q)
    assert np.allclose(g, fd, rtol=1e-4, atol=1e-6)
    assert np.allclose(f, model.variance(Q))


@pytest.mark.parametrize(
    ("kernel", "atol"),
    [(KERNEL, 1e-12), (GPCovariance(v0=2, v1=0, v2=0.5, l=[300, 100]), 1e-12),
     # no noise: the block product itself (σ² = 0 at the points up to round-off)
     (RBF(gamma=50.0), 0.0)],
)
def test_values_at_the_training_points_match_the_block_product(kernel, atol) -> None:
    X = scaled(datasets.make_rings((60, 90), random_state=1)[0])
    model = fit_variance_model(kernel, X)
    v, g = model.at_training_points()
    v_ref, g_ref = model.value_and_gradient(X)
    np.testing.assert_allclose(v, v_ref, rtol=1e-8, atol=atol)
    scale = np.abs(g_ref).max()
    np.testing.assert_allclose(g, g_ref, rtol=0, atol=max(1e-8 * scale, atol))


@pytest.mark.parametrize("kernel", [KERNEL, GPCovariance(v0=2, v1=0, v2=0.5, l=[300, 100])])
def test_variance_by_triangular_solve_equals_the_product_with_the_inverse(kernel) -> None:
    """``variance`` (‖L⁻¹k‖², one solve) against ``value_and_gradient`` (kᵀC⁻¹k, one GEMM),
    on query points off the data, in blocks smaller than the query set."""
    X = scaled(datasets.make_rings((60, 90), random_state=1)[0])
    model = fit_variance_model(kernel, X)
    Q = np.random.RandomState(0).uniform(-0.2, 1.2, size=(300, 2))
    Q_before = Q.copy()
    ref = model.value_and_gradient(Q)[0]
    np.testing.assert_allclose(model.variance(Q), ref, rtol=1e-10, atol=1e-12)
    model._block_rows = 64  # type: ignore[misc]
    np.testing.assert_allclose(model.variance(Q), ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(Q, Q_before)
    assert model.L.flags.f_contiguous


def test_gradient_at_the_training_points_equals_finite_differences() -> None:
    X = scaled(datasets.make_rings((40, 60), random_state=2)[0])
    model = fit_variance_model(KERNEL, X)
    _, g = model.at_training_points()
    h = 1e-6
    for i in (0, 17, 55, 99):
        fd = np.empty(2)
        for k in range(2):
            e = np.zeros((1, 2))
            e[0, k] = h
            up = model.variance(X[i : i + 1] + e)[0]
            down = model.variance(X[i : i + 1] - e)[0]
            fd[k] = (up - down) / (2 * h)
        np.testing.assert_allclose(g[i], fd, rtol=1e-5, atol=1e-7 * np.abs(g).max())


def test_variance_is_small_on_dense_data_and_clipped(rings_fit) -> None:
    gp, X, *_ = rings_fit
    far = np.array([[5.0, 5.0]])
    assert gp.variance(far)[0] > gp.level_
    assert (gp.variance(X) >= 0).all()
    assert gp.variance(X).max() == pytest.approx(gp.max_variance_)
    assert gp.variance_gradient(X).shape == X.shape


def test_jitter_warning_on_duplicates_without_noise() -> None:
    X = np.repeat(np.random.default_rng(0).uniform(size=(10, 2)), 2, axis=0)
    with pytest.warns(UserWarning, match="jitter"):
        gp = GPClustering(GPCovariance(v0=1.0, v1=0.0, v2=0.0, l=50.0)).fit(X)
    assert gp.labels_.shape == (20,)
