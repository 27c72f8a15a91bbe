"""Sparse input to the kernels and operators (issue 18, item 6): the dot-product kernels and
the RBF kernel (by the GEMM identity) take scipy.sparse CSR/CSC rows and give the dense
answer; other kernels raise a TypeError naming the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from kernel_patterns._validation import check_matrix
from kernel_patterns.kernels import (
    RBF,
    CallableKernel,
    Chi2,
    Cosine,
    GeodesicKernel,
    GPCovariance,
    Laplacian,
    Linear,
    Polynomial,
    Sigmoid,
    check_kernel_input,
    make_operator,
)

_KERNELS = [Linear(), Polynomial(degree=2, gamma=0.5, coef0=1.0), Cosine(), RBF(gamma=0.3),
            Laplacian(gamma=0.3), Sigmoid(gamma=0.1, coef0=0.5)]
_FORMATS = [sparse.csr_array, sparse.csr_matrix, sparse.csc_array, sparse.csc_matrix]


def _data(n: int = 120, d: int = 15, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    X[X < 0.7] = 0.0
    X[:, 0] += 0.05  # no all-zero row (the cosine is undefined there)
    return X


@pytest.mark.parametrize("kernel", _KERNELS, ids=lambda k: type(k).__name__)
@pytest.mark.parametrize("fmt", _FORMATS, ids=lambda f: f.__name__)
def test_kernel_on_sparse_equals_dense(kernel, fmt):
    X, Y = _data(), _data(7, seed=1)
    S, T = fmt(X), fmt(Y)
    np.testing.assert_allclose(kernel(S), kernel(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel(T, S), kernel(Y, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel(Y, S), kernel(Y, X), rtol=1e-12, atol=1e-12)  # mixed
    np.testing.assert_allclose(kernel.diag(S), kernel.diag(X), rtol=1e-12)
    assert isinstance(kernel(S), np.ndarray)


@pytest.mark.parametrize("kernel", [RBF(), Laplacian(), Sigmoid()], ids=lambda k: type(k).__name__)
def test_scale_from_sparse_data_is_that_of_the_dense_data(kernel):
    X = _data()
    assert kernel.with_data_scale(sparse.csr_array(X)).gamma == pytest.approx(
        kernel.with_data_scale(X).gamma, rel=1e-12)
    np.testing.assert_allclose(kernel(sparse.csr_array(X)), kernel(X), atol=1e-12)


@pytest.mark.parametrize("kernel", _KERNELS, ids=lambda k: type(k).__name__)
@pytest.mark.parametrize("operator", ["dense", "chunked", "nystrom"])
def test_operators_on_sparse_equal_dense(kernel, operator):
    X = _data()
    kw = ({"approximation": "nystrom", "n_components": 40, "random_state": 0}
          if operator == "nystrom" else {"operator": operator, "block_memory": 50_000})
    dense, sp = make_operator(kernel, X, **kw), make_operator(kernel, sparse.csc_matrix(X), **kw)
    np.testing.assert_allclose(sp.to_dense(), dense.to_dense(), rtol=1e-10, atol=1e-10)
    V = np.random.default_rng(0).normal(size=(120, 3))
    np.testing.assert_allclose(sp.matmat(V), dense.matmat(V), rtol=1e-10, atol=1e-10)
    Y = _data(5, seed=2)
    np.testing.assert_allclose(sp.cross(sparse.csr_array(Y)), dense.cross(Y), atol=1e-10)


@pytest.mark.parametrize(
    ("kernel", "name"),
    [(GPCovariance(), "GPCovariance"), (GeodesicKernel(n_neighbors=5), "GeodesicKernel"),
     (CallableKernel(lambda A, B: A @ B.T), "CallableKernel"), (Chi2(), "Chi2")],
)
def test_kernels_that_cannot_take_sparse_input_say_so(kernel, name):
    S = sparse.csr_array(_data())
    with pytest.raises(TypeError, match=f"the kernel {name} cannot take sparse input X"):
        make_operator(kernel, S)
    with pytest.raises(TypeError, match=f"the kernel {name} cannot take sparse input Y"):
        check_kernel_input(kernel, S, "Y")


def test_sparse_validation_names_the_argument():
    S = sparse.csr_array(np.array([[1.0, np.nan], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="X contains NaN"):
        check_matrix(S, "X", accept_sparse=True)
    with pytest.raises(TypeError, match="X is a sparse matrix; a dense array is required"):
        check_matrix(S, "X")
    ints = check_matrix(sparse.coo_array(np.eye(3, dtype=int)), "X", accept_sparse=True)
    assert sparse.issparse(ints) and ints.format == "csr" and ints.dtype == np.float64
