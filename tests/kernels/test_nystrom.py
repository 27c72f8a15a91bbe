"""Nyström operator: exact at full rank, error falls with the number of landmarks."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.kernels import (
    RBF,
    GPCovariance,
    NystromKernelOperator,
    Precomputed,
    make_operator,
)

RNG = np.random.default_rng(2)
X = RNG.normal(size=(240, 3))


@pytest.mark.parametrize("landmarks", ["uniform", "kmeans++", "leverage"])
def test_full_rank_nystrom_equals_the_exact_operator(landmarks) -> None:
    k = RBF(0.3)
    ny = NystromKernelOperator(k, X, n_components=240, landmarks=landmarks, random_state=0)
    exact = make_operator(k, X)
    V = RNG.normal(size=(240, 4))
    np.testing.assert_allclose(ny.matmat(V), exact.matmat(V), atol=1e-6)
    np.testing.assert_allclose(ny.diag(), exact.diag(), atol=1e-7)
    np.testing.assert_allclose(ny.rows(5, 20), exact.rows(5, 20), atol=1e-7)
    Y = RNG.normal(size=(7, 3))
    np.testing.assert_allclose(ny.cross(Y), exact.cross(Y), atol=1e-6)


def test_error_falls_as_landmarks_grow() -> None:
    A = RNG.uniform(size=(600, 2))
    K = RBF(5.0)(A)
    errs = []
    for m in (10, 40, 160):
        ny = NystromKernelOperator(RBF(5.0), A, n_components=m, random_state=1)
        errs.append(np.linalg.norm(ny.to_dense() - K) / np.linalg.norm(K))
    assert errs[0] > errs[1] > errs[2]
    assert errs[2] < 1e-3


def test_kmeanspp_landmarks_cover_a_small_far_cluster_better_than_uniform() -> None:
    # one big and one tiny far cluster: uniform sampling may miss the tiny one
    A = np.vstack([RNG.normal(size=(580, 2)) * 0.3, RNG.normal(size=(20, 2)) * 0.1 + 8.0])
    K = RBF(2.0)(A)
    err = {}
    for how in ("uniform", "kmeans++", "leverage"):
        e = []
        for seed in range(5):
            ny = NystromKernelOperator(RBF(2.0), A, n_components=12, landmarks=how,
                                       random_state=seed)
            e.append(np.linalg.norm(ny.to_dense() - K) / np.linalg.norm(K))
        err[how] = float(np.mean(e))
    assert err["kmeans++"] < err["uniform"]


def test_rank_restriction_and_float32() -> None:
    ny = NystromKernelOperator(GPCovariance(v1=1.0, l=2.0), X, n_components=50, rank=8,
                               dtype=np.float32, random_state=0)
    assert ny.rank == 8 and ny.features.shape == (240, 8) and ny.features.dtype == np.float32
    assert ny.matmat(np.ones((240, 2))).dtype == np.float32


def test_reproducible_landmarks() -> None:
    a = NystromKernelOperator(RBF(1.0), X, 30, landmarks="kmeans++", random_state=3)
    b = NystromKernelOperator(RBF(1.0), X, 30, landmarks="kmeans++", random_state=3)
    np.testing.assert_array_equal(a.landmark_indices, b.landmark_indices)


def test_nystrom_errors() -> None:
    with pytest.raises(ValueError, match="n_components must be between 1 and n_samples=240"):
        NystromKernelOperator(RBF(1.0), X, 241)
    with pytest.raises(ValueError, match="rank must be between 1 and n_components"):
        NystromKernelOperator(RBF(1.0), X, 10, rank=11)
    with pytest.raises(ValueError, match="landmarks must be"):
        NystromKernelOperator(RBF(1.0), X, 10, landmarks="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not 'precomputed'"):
        NystromKernelOperator(Precomputed(), X, 10)
    with pytest.raises(ValueError, match="X contains NaN"):
        NystromKernelOperator(RBF(1.0), np.full((3, 2), np.nan), 2)
    ny = NystromKernelOperator(RBF(1.0), X, 10, random_state=0)
    with pytest.raises(ValueError, match="X has 2 features but the training data has 3"):
        ny.cross(np.ones((2, 2)))
