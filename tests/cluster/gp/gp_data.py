"""Data and checks shared by the GP tests (the paper's kernel, shapes and rings)."""

from __future__ import annotations

import numpy as np

from kernel_patterns import datasets, metrics
from kernel_patterns.kernels import GPCovariance

#: the paper's v0, v1, v2 (eq. 2.7)
PAPER = {"v0": 1.0, "v1": 10.0, "v2": 1.0}
#: the paper's kernel on data scaled to [0, 1]
KERNEL = GPCovariance(**PAPER, l=400)


def finite_difference_gradient(f, Q: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central finite differences of ``f`` (rows in, values out) at every row of ``Q``."""
    fd = np.empty_like(Q)
    for j in range(Q.shape[1]):
        E = np.zeros_like(Q)
        E[:, j] = h
        fd[:, j] = (f(Q + E) - f(Q - E)) / (2 * h)
    return fd


def scaled(X: np.ndarray) -> np.ndarray:
    return datasets.scale_unit_interval(X)


def paper_shapes() -> dict[str, np.ndarray]:
    """The paper's 2-D shapes, scaled to [0, 1]."""
    return {
        "rings": scaled(datasets.make_rings((100, 200), random_state=0)[0]),
        "three moons": scaled(datasets.make_three_moons(random_state=0)[0]),
        "logo": scaled(datasets.make_icassp_logo(random_state=0)[0]),
    }


def rings_with_new(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rings scaled to [0, 1], and a fresh sample with the same affine map."""
    X, y = datasets.make_rings(random_state=seed)
    Xn, yn = datasets.make_rings(random_state=seed + 100)
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    return (X - lo) / span, y, (Xn - lo) / span, yn


def perfect(y: np.ndarray, labels: np.ndarray) -> None:
    """Labels equal to ``y`` by every measure of the paper."""
    assert metrics.reference_error(y, labels) == 0.0
    assert metrics.cluster_error(y, labels) == 0.0
    assert metrics.f_score(y, labels) == 1.0
