"""Shared by the tests of the ν-ranking dual's solvers: noisy ranked data and the objective."""

from __future__ import annotations

import numpy as np


def noisy_ranks(n=120, n_ranks=4, noise=0.6, seed=0):
    """Points in 3-D whose rank is a cut of a noisy nonlinear score."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    z = X[:, 0] + 0.5 * np.sin(2 * X[:, 1]) + noise * rng.normal(size=n)
    y = np.searchsorted(np.quantile(z, np.linspace(0, 1, n_ranks + 1)[1:-1]), z)
    return X, y.astype(np.intp)


def objective(K, au, al):
    """The dual objective ½ βᵀKβ with β = α_upper − α_lower."""
    beta = au - al
    return 0.5 * beta @ K @ beta
