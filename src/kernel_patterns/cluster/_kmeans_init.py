"""Initial assignments for (soft) kernel k-means, as label vectors.

Kernel k-means has no centroids it can write down, so it starts from assignments
(section 6.2.3 of Rogers & Girolami, file ``003``): random assignments, the converged
assignments of standard k-means in input space, or "N − K + 1 objects in cluster 1 and the
other K − 1 alone". We add k-means++ seeding in feature space (Arthur & Vassilvitskii, with
scikit-learn's greedy local trials), which needs only a few kernel rows.

All functions are pure: arrays and an operator in, a label vector out, no validation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..kernels import KernelOperator
from ._kernel_kmeans_solver import on_centroid_floor

IntArray = NDArray[np.intp]


def _init_random(n_samples: int, n_clusters: int, rng: np.random.Generator) -> IntArray:
    """Random balanced assignments (every cluster non-empty): a permutation of i mod K."""
    return rng.permutation(np.arange(n_samples) % n_clusters).astype(np.intp)


def _init_all_but_k(n_samples: int, n_clusters: int, rng: np.random.Generator) -> IntArray:
    """003's third scheme: N − K + 1 objects in cluster 0, K − 1 random objects alone."""
    labels = np.zeros(n_samples, dtype=np.intp)
    alone = rng.choice(n_samples, size=n_clusters - 1, replace=False)
    labels[alone] = np.arange(1, n_clusters)
    return labels


def _init_input_kmeans(
    X: NDArray[Any], n_clusters: int, sample_weight: NDArray[Any], rng: np.random.Generator
) -> IntArray:
    """003's second scheme: the converged labels of standard k-means in input space."""
    from sklearn.cluster import KMeans

    seed = int(rng.integers(np.iinfo(np.int32).max))
    km = KMeans(n_clusters=n_clusters, n_init=1, random_state=seed)
    return km.fit(X, sample_weight=sample_weight).labels_.astype(np.intp)


def _init_kmeans_plusplus(
    op: KernelOperator,
    diag: NDArray[Any],
    n_clusters: int,
    sample_weight: NDArray[Any],
    rng: np.random.Generator,
    n_local_trials: int | None = None,
) -> IntArray:
    """Greedy k-means++ in feature space; labels are the nearest seed in feature space.

    The squared feature-space distance between points i and j is
    ``K_ii + K_jj − 2 K_ij``; each new seed costs ``n_local_trials`` kernel rows
    (``op.take_rows``), never the full matrix. Distances of at most ``ON_CENTROID`` times
    the largest K_nn are 0: a point and its copy are then equally near every seed, so a
    seed's copies start in its cluster (the self-distance is exactly 0, the copy's a
    rounding error of K_ij, which used to put each copy chosen as a seed in a cluster of its
    own: identical points split from the start, and ties keep them so).
    """
    n = op.n_samples
    floor = on_centroid_floor(diag)
    if n_local_trials is None:
        n_local_trials = 2 + int(np.log(n_clusters))
    w = sample_weight.astype(np.float64)
    p0 = w / w.sum()
    first = int(rng.choice(n, p=p0))
    row = np.asarray(op.take_rows([first]), dtype=np.float64)[0]
    seed_dist = np.empty((n_clusters, n), dtype=np.float64)
    seed_dist[0] = np.maximum(diag + diag[first] - 2.0 * row, 0.0)
    seed_dist[0][seed_dist[0] <= floor] = 0.0
    closest = seed_dist[0].copy()
    for c in range(1, n_clusters):
        pot = w * closest
        total = pot.sum()
        if total <= 0.0:  # every point coincides with a seed: pick uniformly among the rest
            cand = rng.choice(n, size=n_local_trials, p=p0)
        else:
            cum = np.cumsum(pot)
            cand = np.searchsorted(cum, rng.uniform(size=n_local_trials) * total)
            cand = np.minimum(cand, n - 1)
        rows = np.asarray(op.take_rows(cand), dtype=np.float64)
        d = np.maximum(diag[None, :] + diag[cand][:, None] - 2.0 * rows, 0.0)
        d[d <= floor] = 0.0
        new_closest = np.minimum(closest[None, :], d)
        best = int(np.argmin((w[None, :] * new_closest).sum(axis=1)))
        seed_dist[c] = d[best]
        closest = new_closest[best]
    return np.argmin(seed_dist, axis=0).astype(np.intp)
