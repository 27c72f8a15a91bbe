"""Kernels: formulas by hand and against scikit-learn, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics.pairwise import cosine_similarity, polynomial_kernel, rbf_kernel

from kernel_patterns.kernels import (
    RBF,
    CallableKernel,
    Cosine,
    GPCovariance,
    Linear,
    Polynomial,
    Precomputed,
    make_kernel,
)

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 3))
Y = RNG.normal(size=(25, 3))

DIFFERENTIABLE = [
    RBF(gamma=0.7),
    GPCovariance(v0=1.3, v1=2.0, v2=0.1, l=[0.5, 2.0, 1.0]),
    GPCovariance(v0=1.0, v1=10.0, v2=0.5, l=3.0),
    Linear(),
    Polynomial(degree=3, gamma=0.5, coef0=1.0),
    Cosine(),
]
IDS = ["rbf", "gp-ard", "gp-iso", "linear", "poly", "cosine"]


def test_gp_covariance_reproduces_eq_2_7_by_hand() -> None:
    k = GPCovariance(v0=1, v1=10, v2=0.5, l=[400, 200])
    a, b = np.array([0.10, 0.20]), np.array([0.13, 0.26])
    off = 1 * np.exp(-0.5 * (400 * (a[0] - b[0]) ** 2 + 200 * (a[1] - b[1]) ** 2)) + 10
    K = k(np.vstack([a, b]))
    assert K[0, 1] == pytest.approx(off, rel=1e-14)
    assert K[1, 0] == pytest.approx(off, rel=1e-14)
    # δ_ij v2 on the diagonal of K(X) only
    assert K[0, 0] == pytest.approx(1 + 10 + 0.5)
    assert np.allclose(k.diag(np.vstack([a, b])), 11.5)
    # two different argument sets: no noise anywhere, even for a repeated point
    K2 = k(np.vstack([a, b]), np.vstack([a, b]))
    assert K2[0, 0] == pytest.approx(11.0)
    assert K2[0, 1] == pytest.approx(off)


def test_gp_length_scale_is_inverse_square_root_of_l() -> None:
    assert np.allclose(GPCovariance(l=400).length_scale(), 0.05)


@pytest.mark.parametrize(
    ("kernel", "reference"),
    [
        (RBF(gamma=0.3), lambda A, B: rbf_kernel(A, B, gamma=0.3)),
        (Polynomial(2, 0.5, 1.5), lambda A, B: polynomial_kernel(A, B, 2, 0.5, 1.5)),
        (Cosine(), cosine_similarity),
        (Linear(), lambda A, B: A @ B.T),
    ],
    ids=["rbf", "poly", "cosine", "linear"],
)
def test_kernels_match_scikit_learn(kernel, reference) -> None:
    np.testing.assert_allclose(kernel(X, Y), reference(X, Y), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel(X), reference(X, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel.diag(X), np.diag(reference(X, X)), rtol=1e-12)


def test_rbf_is_exact_for_data_far_from_the_origin() -> None:
    # The GEMM identity on raw data would cancel catastrophically at offset 1e6.
    A = X + 1e6
    np.testing.assert_allclose(RBF(0.7)(A), RBF(0.7)(X), atol=1e-9)


@pytest.mark.parametrize("kernel", DIFFERENTIABLE, ids=IDS)
def test_gradient_matches_finite_differences(kernel) -> None:
    A, B = X[:6] + 0.5, Y[:5]
    G = kernel.gradient(A, B)
    h = 1e-6
    num = np.empty_like(G)
    for m in range(A.shape[1]):
        E = np.zeros_like(A)
        E[:, m] = h
        num[:, :, m] = (kernel(A + E, B) - kernel(A - E, B)) / (2 * h)
    np.testing.assert_allclose(G, num, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kernel", DIFFERENTIABLE, ids=IDS)
def test_contract_gradient_equals_contracted_tensor(kernel) -> None:
    W = RNG.normal(size=(X.shape[0], Y.shape[0]))
    full = np.einsum("ij,ijd->id", W, kernel.gradient(X, Y))
    np.testing.assert_allclose(kernel.contract_gradient(X, Y, W), full, rtol=1e-10, atol=1e-12)


def test_float32_input_stays_float32() -> None:
    K = RBF(0.5)(X.astype(np.float32))
    assert K.dtype == np.float32
    np.testing.assert_allclose(K, RBF(0.5)(X), atol=1e-5)


def test_kernels_are_clonable() -> None:
    k = GPCovariance(v0=2.0, v1=1.0, v2=0.1, l=[1.0, 2.0])
    c = clone(k)
    assert c is not k
    assert c.get_params() == k.get_params()
    assert RBF(3.0).set_params(gamma=4.0).gamma == 4.0


def test_make_kernel_resolves_names_objects_and_callables() -> None:
    assert make_kernel("rbf", {"gamma": 2.0}).gamma == 2.0
    assert isinstance(make_kernel("GP", {"l": 4.0}), GPCovariance)
    assert isinstance(make_kernel("precomputed"), Precomputed)
    k = RBF(1.0)
    assert make_kernel(k) is k
    ck = make_kernel(lambda A, B, c: A @ B.T + c, {"c": 1.0})
    assert isinstance(ck, CallableKernel)
    np.testing.assert_allclose(ck(X, Y), X @ Y.T + 1.0)
    assert make_kernel(None, default=Linear()).__class__ is Linear


@pytest.mark.parametrize(
    ("kernel", "params", "match"),
    [
        ("nope", None, "unknown kernel 'nope'"),
        ("rbf", {"sigma": 1.0}, "bad kernel_params for kernel 'rbf'"),
        (RBF(1.0), {"gamma": 2.0}, "kernel_params is only used"),
        (None, None, "kernel must be given"),
    ],
)
def test_make_kernel_errors(kernel, params, match) -> None:
    with pytest.raises(ValueError, match=match):
        make_kernel(kernel, params)
    with pytest.raises(TypeError, match="kernel must be a Kernel"):
        make_kernel(3.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (np.array([[0.0, np.nan, 1.0]]), "X contains NaN"),
        (np.array([[0.0, np.inf, 1.0]]), "X contains infinity"),
        (np.zeros((0, 3)), "X has 0 sample"),
        (np.zeros(3), "X must be a 2-D array"),
        (np.array([["a", "b", "c"]]), "X must be numeric"),
        (np.array([[0.0, 2e200, 1.0]]), r"X holds values up to 2e\+200 .*overflow float64"),
    ],
)
@pytest.mark.parametrize("kernel", DIFFERENTIABLE, ids=IDS)
def test_bad_input_names_the_argument(kernel, bad, match) -> None:
    with pytest.raises(ValueError, match=match):
        kernel(bad)


@pytest.mark.parametrize("kernel", DIFFERENTIABLE, ids=IDS)
def test_mismatched_feature_counts(kernel) -> None:
    with pytest.raises(ValueError, match="Y has 2 features but X has 3"):
        kernel(X, Y[:, :2])
    with pytest.raises(ValueError, match="Y contains NaN"):
        kernel(X, np.full((2, 3), np.nan))


@pytest.mark.parametrize(
    ("kernel", "match"),
    [
        (RBF(gamma=-1.0), "gamma must be > 0"),
        (RBF(gamma=np.nan), "gamma must be finite"),
        (GPCovariance(v0=0.0), "v0 must be > 0"),
        (GPCovariance(v2=-1.0), "v2 must be >= 0"),
        (GPCovariance(l=[1.0, 2.0]), "l has 2 entries but the data has 3 features"),
        (GPCovariance(l=[-1.0]), "l must be positive"),
        (Polynomial(degree=0), "degree must be a positive integer"),
    ],
)
def test_bad_kernel_parameters(kernel, match) -> None:
    with pytest.raises(ValueError, match=match):
        kernel(X)


def test_cosine_rejects_zero_rows_and_non_differentiable_kernels_say_so() -> None:
    with pytest.raises(ValueError, match="all-zero row"):
        Cosine()(np.array([[0.0, 0.0], [1.0, 0.0]]))
    with pytest.raises(TypeError, match="not differentiable"):
        CallableKernel(lambda A, B: A @ B.T).gradient(X)


def test_callable_kernel_checks_its_output() -> None:
    with pytest.raises(ValueError, match="returned shape"):
        CallableKernel(lambda A, B: np.ones((2, 2)))(X)
    with pytest.raises(ValueError, match="the kernel callable's output contains NaN"):
        CallableKernel(lambda A, B: np.full((len(A), len(B)), np.nan))(X)


def test_kernels_do_not_modify_their_input() -> None:
    A = X.copy()
    for k in DIFFERENTIABLE:
        k(A, Y)
        k(A)
        k.contract_gradient(A, Y, np.ones((len(A), len(Y))))
    np.testing.assert_array_equal(A, X)
