"""Data and checks shared by the GP tests (the paper's kernel, shapes and rings)."""

from __future__ import annotations

import numpy as np

from kernel_patterns import datasets, metrics
from kernel_patterns.kernels import GPCovariance

#: the paper's v0, v1, v2 (eq. 2.7)
PAPER = {"v0": 1.0, "v1": 10.0, "v2": 1.0}
#: the paper's kernel on data scaled to [0, 1]
KERNEL = GPCovariance(**PAPER, l=400)


def lazy_against_full(model, S: np.ndarray, n_points: int = 20) -> tuple[np.ndarray, ...]:
    """Check that the lazy saddle levels of the SEPs ``S`` give the single linkage of every
    segment evaluated (the same merges, heights up to round-off), each a lower bound of its
    full level and exact on the merges; the lazy and full levels, by candidate pair."""
    from kernel_patterns.cluster.gp._graph import candidate_pairs, segment_levels, single_linkage

    I, J = candidate_pairs(S)
    full = segment_levels(model, S, I, J, n_points=n_points)
    lazy = segment_levels(model, S, I, J, n_points=n_points, lazy=True)
    Z_full, e_full = single_linkage(S.shape[0], I, J, full)
    Z_lazy, e_lazy = single_linkage(S.shape[0], I, J, lazy)
    np.testing.assert_array_equal(e_lazy, e_full)
    np.testing.assert_array_equal(Z_lazy[:, [0, 1, 3]], Z_full[:, [0, 1, 3]])
    np.testing.assert_allclose(Z_lazy[:, 2], Z_full[:, 2], rtol=1e-12)
    assert np.all(lazy <= full * (1 + 1e-12))
    pair = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(I, J, strict=True))}
    used = [pair[(int(a), int(b))] for a, b in np.sort(e_full, axis=1)]
    np.testing.assert_allclose(lazy[used], full[used], rtol=1e-12)
    return lazy, full


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
