"""Kernel operators: chunked, dense, sparse and precomputed agree; the memory guard speaks."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from kernel_patterns.kernels import (
    RBF,
    CallableKernel,
    ChunkedKernelOperator,
    Cosine,
    DenseKernelOperator,
    GPCovariance,
    Linear,
    MemoryBudgetError,
    NystromKernelOperator,
    Polynomial,
    Precomputed,
    SparseKernelOperator,
    check_dense_fits,
    make_operator,
)
from kernel_patterns.utils import check_square_kernel, resolve_dtype

RNG = np.random.default_rng(1)
X = RNG.normal(size=(301, 4))
KERNELS = [
    RBF(0.4),
    GPCovariance(v0=1.0, v1=10.0, v2=0.5, l=[1.0, 2.0, 0.5, 3.0]),
    Linear(),
    Polynomial(3, 0.2, 1.0),
    Cosine(),
    CallableKernel(lambda A, B: np.tanh(A @ B.T / 4) + 2.0),
]
IDS = ["rbf", "gp", "linear", "poly", "cosine", "callable"]


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_chunked_and_dense_agree_to_1e_10(kernel) -> None:
    dense = make_operator(kernel, X, operator="dense")
    # a budget of a few rows forces many blocks (and the threaded path)
    chunked = make_operator(kernel, X, operator="chunked", block_memory=40 * 301 * 8)
    assert isinstance(dense, DenseKernelOperator)
    assert isinstance(chunked, ChunkedKernelOperator)
    K = kernel(X)
    V = RNG.normal(size=(301, 7))
    np.testing.assert_allclose(dense.to_dense(), K, rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.to_dense(), K, rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.matmat(V), dense.matmat(V), rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.matmat(V), K @ V, rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.matvec(V[:, 0]), K @ V[:, 0], rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.diag(), np.diag(K), rtol=0, atol=1e-10)
    np.testing.assert_allclose(dense.diag(), np.diag(K), rtol=0, atol=1e-10)
    np.testing.assert_allclose(chunked.rows(17, 90), K[17:90], rtol=0, atol=1e-10)
    idx = np.array([300, 0, 5, 5, 123])
    np.testing.assert_allclose(chunked.take_rows(idx), K[idx], rtol=0, atol=1e-10)
    np.testing.assert_allclose(dense.take_rows(idx), K[idx], rtol=0, atol=1e-10)
    blocks = np.vstack([b for _, _, b in chunked.iter_row_blocks(50)])
    np.testing.assert_allclose(blocks, K, rtol=0, atol=1e-10)
    Ynew = RNG.normal(size=(9, 4))
    np.testing.assert_allclose(chunked.cross(Ynew), kernel(Ynew, X), rtol=0, atol=1e-10)
    np.testing.assert_allclose(dense.row_sums(), K.sum(axis=1), rtol=1e-12)


@pytest.mark.parametrize("kernel", KERNELS[:2], ids=IDS[:2])
def test_float32_operators_are_close_and_float32(kernel) -> None:
    op = make_operator(kernel, X, operator="dense", dtype=np.float32)
    ch = make_operator(kernel, X, operator="chunked", dtype=np.float32, block_memory=10**5)
    assert op.dtype == np.float32 and ch.dtype == np.float32
    K = kernel(X)
    np.testing.assert_allclose(op.to_dense(), K, atol=1e-5 * np.abs(K).max())
    V = RNG.normal(size=(301, 3))
    np.testing.assert_allclose(ch.matmat(V), K @ V, rtol=1e-4, atol=1e-3)


def test_dense_tiles_cover_a_matrix_larger_than_one_tile() -> None:
    A = RNG.normal(size=(2600, 2))  # > one 2048 tile: off-diagonal tiles are mirrored
    op = make_operator(RBF(1.0), A, operator="dense")
    K = op.to_dense()
    np.testing.assert_allclose(K, K.T, atol=0)
    np.testing.assert_allclose(K[2500, :10], RBF(1.0)(A[2500:2501], A[:10])[0], atol=1e-12)


def test_linear_operator_for_eigensolvers() -> None:
    op = make_operator(RBF(0.4), X, operator="chunked", block_memory=10**5)
    lin = op.aslinearoperator()
    v = RNG.normal(size=301)
    np.testing.assert_allclose(lin @ v, RBF(0.4)(X) @ v, atol=1e-10)


def test_precomputed_operator_is_read_only_and_validated() -> None:
    K = RBF(0.4)(X)
    before = K.copy()
    op = make_operator(Precomputed(), K)
    assert not op.to_dense().flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        op.to_dense()[0, 0] = 5.0
    assert K.flags.writeable  # the user's array keeps its flags
    np.testing.assert_array_equal(K, before)
    np.testing.assert_allclose(op.matmat(np.ones((301, 1)))[:, 0], K.sum(axis=1))
    with pytest.raises(ValueError, match="must have 301 columns"):
        op.cross(np.ones((3, 5)))
    with pytest.raises(ValueError, match="must be a square kernel matrix"):
        make_operator(Precomputed(), K[:10])
    bad = K.copy()
    bad[0, 1] += 1.0
    with pytest.raises(ValueError, match="is not symmetric"):
        make_operator(Precomputed(), bad)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        make_operator(Precomputed(), K - 2 * np.eye(301), check_psd=True)
    with pytest.raises(ValueError, match="contains NaN"):
        make_operator(Precomputed(), np.full((3, 3), np.nan))


def test_check_square_kernel_accepts_psd_matrices() -> None:
    K = Linear()(X)
    np.testing.assert_array_equal(check_square_kernel(K, check_psd=True), K)
    big = RBF(0.4)(RNG.normal(size=(700, 3)))  # ARPACK branch
    assert check_square_kernel(big, check_psd=True).shape == (700, 700)


def test_sparse_operator_never_densifies_and_matches() -> None:
    A = sparse.random(200, 200, density=0.05, random_state=0)
    A = (A + A.T).tocsr()
    op = make_operator(Precomputed(), A)
    assert isinstance(op, SparseKernelOperator)
    V = RNG.normal(size=(200, 3))
    np.testing.assert_allclose(op.matmat(V), A.toarray() @ V, atol=1e-12)
    np.testing.assert_allclose(op.diag(), A.diagonal())
    np.testing.assert_allclose(op.rows(3, 9), A.toarray()[3:9])
    with pytest.raises(ValueError, match="must be square"):
        SparseKernelOperator(sparse.random(3, 4, density=0.5))


def test_memory_guard_names_the_chunked_option() -> None:
    with pytest.raises(MemoryBudgetError, match="operator='chunked'"):
        make_operator(RBF(1.0), X, operator="dense", memory_budget=1000)
    with pytest.raises(MemoryBudgetError, match="approximation='nystrom'"):
        check_dense_fits(200_000, 200_000, np.float32)
    # auto falls back to chunked under a small budget, dense otherwise
    assert isinstance(make_operator(RBF(1.0), X, memory_budget=1000), ChunkedKernelOperator)
    assert isinstance(make_operator(RBF(1.0), X), DenseKernelOperator)
    ch = make_operator(RBF(1.0), X, operator="chunked")
    with pytest.raises(MemoryBudgetError, match="memory budget"):
        ch.to_dense(memory_budget=1000)


def test_operator_argument_errors() -> None:
    with pytest.raises(ValueError, match=r"dtype must be float32, float64 or .auto."):
        make_operator(RBF(1.0), X, dtype=np.int64)
    with pytest.raises(ValueError, match="operator must be"):
        make_operator(RBF(1.0), X, operator="sparse")  # type: ignore[arg-type]
    op = make_operator(RBF(1.0), X)
    with pytest.raises(ValueError, match="V must have 301 rows"):
        op.matmat(np.ones((5, 2)))
    with pytest.raises(ValueError, match="X has 3 features but the training data has 4"):
        op.cross(np.ones((2, 3)))


def test_operators_do_not_modify_the_data() -> None:
    A = X.copy()
    for kind in ("dense", "chunked"):
        op = make_operator(GPCovariance(v2=0.3), A, operator=kind)
        op.matmat(np.ones((301, 2)))
        op.cross(A[:5])
    np.testing.assert_array_equal(A, X)


@pytest.mark.parametrize("kind", ["dense", "chunked", "nystrom", "sparse"])
def test_sparse_right_hand_side_and_min(kind) -> None:
    from kernel_patterns.kernels import NystromKernelOperator

    A = RNG.normal(size=(120, 3))
    if kind == "nystrom":
        op = NystromKernelOperator(Polynomial(2, 0.5, -0.5), A, 120, random_state=0)
    elif kind == "sparse":
        S = sparse.random(120, 120, density=0.1, random_state=1)
        op = make_operator(Precomputed(), (S + S.T).tocsr())
    else:
        op = make_operator(Polynomial(2, 0.5, -0.5), A, operator=kind, block_memory=20_000)
    K = op.to_dense()
    labels = RNG.integers(0, 4, 120)
    Z = sparse.csr_array((np.ones(120), (np.arange(120), labels)), shape=(120, 4))
    np.testing.assert_allclose(op.matmat(Z), K @ Z.toarray(), atol=1e-8)
    np.testing.assert_allclose(op.matmat(Z.tocsc()), K @ Z.toarray(), atol=1e-8)
    v = RNG.normal(size=120)
    np.testing.assert_allclose(op.matvec(v), K @ v, atol=1e-8)  # symv on dense
    np.testing.assert_allclose(op.matmat(v[:, None])[:, 0], K @ v, atol=1e-8)
    assert op.min() == pytest.approx(float(np.min(K)), abs=1e-8)
    with pytest.raises(ValueError, match="V must have 120 rows"):
        op.matmat(sparse.csr_array((5, 2)))


def test_make_operator_nystrom_and_auto_dtype() -> None:
    op = make_operator(RBF(0.4), X, approximation="nystrom", n_components=301, random_state=0)
    assert isinstance(op, NystromKernelOperator)
    np.testing.assert_allclose(op.to_dense(), RBF(0.4)(X), atol=1e-6)
    small = make_operator(RBF(0.4), X, approximation="nystrom", random_state=0)
    assert small.features.shape[0] == 301  # default min(300, n) landmarks
    assert make_operator(RBF(0.4), X, dtype="auto").dtype == np.float64
    assert resolve_dtype("auto", 20_001) == np.float32
    with pytest.raises(ValueError, match="approximation must be"):
        make_operator(RBF(0.4), X, approximation="svd")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a kernel function"):
        make_operator(Precomputed(), RBF(0.4)(X), approximation="nystrom")
    with pytest.raises(ValueError, match="dtype must be"):
        make_operator(RBF(0.4), X, dtype=np.int64)
