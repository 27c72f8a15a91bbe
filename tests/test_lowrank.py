"""The low-rank eigen shortcut (kernel_patterns._lowrank) against dense eigendecompositions."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns._lowrank import factor_mean, low_rank_gram, low_rank_top_eigenpairs


@pytest.fixture(scope="module")
def factor():
    return np.random.default_rng(0).normal(size=(150, 12))


def _dense(F, scale=None, mean=None):
    G = F - (0 if mean is None else mean)
    if scale is not None:
        G = G * scale[:, None]
    w, V = np.linalg.eigh(G @ G.T)
    return w[::-1], V[:, ::-1]


@pytest.mark.parametrize("use_scale", [False, True])
@pytest.mark.parametrize("use_mean", [False, True])
def test_top_eigenpairs_match_dense_eigh(factor, use_scale, use_mean):
    rng = np.random.default_rng(1)
    scale = rng.uniform(0.5, 2.0, factor.shape[0]) if use_scale else None
    mean = factor_mean(factor) if use_mean else None
    w, V, W = low_rank_top_eigenpairs(factor, 5, scale=scale, mean=mean)
    w_ref, V_ref = _dense(factor, scale, mean)
    np.testing.assert_allclose(w, w_ref[:5], rtol=1e-10)
    # unit eigenvectors, equal up to sign, largest |entry| positive
    np.testing.assert_allclose(np.abs(V.T @ V_ref[:, :5]), np.eye(5), atol=1e-8)
    assert np.all(V[np.argmax(np.abs(V), axis=0), np.arange(5)] > 0)
    # W maps the rows of G to the eigenvectors: V = G W / sqrt(w)
    G = (factor - (0 if mean is None else mean)) * (1 if scale is None else scale[:, None])
    np.testing.assert_allclose(G @ W / np.sqrt(w), V, atol=1e-10)


def test_gram_of_float32_factor(factor):
    F32 = factor.astype(np.float32)
    gram = low_rank_gram(F32)
    assert gram.dtype == np.float64
    F64 = F32.astype(np.float64)
    G = F64.T @ F64
    np.testing.assert_allclose(gram, G, atol=1e-5 * np.abs(G).max())
    np.testing.assert_allclose(factor_mean(F32), F64.mean(axis=0), rtol=1e-12)


def test_declines_beyond_the_rank_unless_padded(factor):
    F = factor[:, :3]
    assert low_rank_top_eigenpairs(F, 4) is None
    F_dup = np.hstack([F, F])  # rank 3 with 6 columns: eigenvalues 4..6 are 0
    assert low_rank_top_eigenpairs(F_dup, 4) is None
    w, V, W = low_rank_top_eigenpairs(F, 5, pad=True)
    assert w.shape == (5,) and V.shape == (150, 5) and W.shape == (3, 5)
    np.testing.assert_array_equal(w[3:], 0.0)
    np.testing.assert_array_equal(V[:, 3:], 0.0)
    w_ref, _ = _dense(F)
    np.testing.assert_allclose(w[:3], w_ref[:3], rtol=1e-10)


def test_input_factor_is_not_modified(factor):
    F = factor.copy()
    low_rank_top_eigenpairs(F, 3, scale=np.full(150, 2.0), mean=factor_mean(F))
    np.testing.assert_array_equal(F, factor)
