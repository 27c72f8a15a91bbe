"""The spectral estimators on denser k-NN graphs than their default: a user's ``n_neighbors``.

``bench_defaults_time.py`` times the defaults (10 neighbours). A user who follows
scikit-learn's ``SpectralEmbedding`` (``n_samples // 10`` neighbours) or wants a smoother
picture passes more. Such graphs join shapes that 10 neighbours keep apart, and their
Laplacians have the clustered bottom spectrum where regular-mode Lanczos is slow; the sparse
LU of shift-invert stays cheap on them while the data are low-dimensional. This runs
``SpectralClustering(k, n_neighbors=K)`` and ``LaplacianEmbedding(n_neighbors=K)`` beside
scikit-learn's ``SpectralClustering(k, affinity="nearest_neighbors", n_neighbors=K)`` and
``SpectralEmbedding(n_neighbors=K)`` on two moons and two rings
(``bench_defaults_time.moons`` / ``rings``), one fit each, ours and the peer alternating in
one process, and prints the seconds, the ratio (ours / peer) and the ARI (embeddings: of
KMeans on them, as in ``bench_defaults_time.py``).

Run: ``python benchmarks/bench_dense_knn.py`` (about three minutes on two cores); the table is
kept in ``results/dense_knn.md``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_dense_knn
    from _common import machine, save, table
    from bench_defaults_time import FAMILIES
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_defaults_time import FAMILIES

from kernel_patterns import LaplacianEmbedding, SpectralClustering

#: (family, n_samples, n_neighbors): scikit-learn's embedding default at 1,000 points (100),
#: then denser graphs of larger samples
CASES = [("moons", 20_000, 100), ("rings", 20_000, 100), ("moons", 50_000, 100),
         ("moons", 100_000, 32), ("rings", 100_000, 32)]


Fit = Callable[[np.ndarray], Any]


def _timed(fit: Fit, X: np.ndarray) -> tuple[float, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # disconnected graphs warn, by design
        t = time.perf_counter()
        out = fit(X)
        return time.perf_counter() - t, np.asarray(out)


def _score(y: np.ndarray, labels_or_embedding: np.ndarray, k: int) -> float:
    if labels_or_embedding.ndim == 2:
        labels_or_embedding = KMeans(k, n_init=10, random_state=0).fit_predict(
            labels_or_embedding.astype(np.float64))
    return float(adjusted_rand_score(y, labels_or_embedding))


def pairs(k: int, K: int) -> dict[str, tuple[Fit, Fit]]:
    return {
        "SpectralClustering": (
            lambda X: SpectralClustering(k, n_neighbors=K, random_state=0).fit(X).labels_,
            lambda X: SkSpectral(k, affinity="nearest_neighbors", n_neighbors=K,
                                 random_state=0).fit(X).labels_),
        "LaplacianEmbedding": (
            lambda X: LaplacianEmbedding(n_neighbors=K, random_state=0).fit(X).embedding_,
            lambda X: SpectralEmbedding(n_neighbors=K, random_state=0).fit_transform(X)),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--name", default="dense_knn", help="results/<name>.md")
    args = p.parse_args()
    rows = []
    for fam, n, K in CASES:
        X, y = FAMILIES[fam](n, 0)
        k = len(np.unique(y))
        for name, (ours, peer) in pairs(k, K).items():
            to, lo = _timed(ours, X)
            tp, lp = _timed(peer, X)
            rows.append((name, fam, n, K, round(to, 3), round(tp, 3), round(to / tp, 3),
                         round(_score(y, lo, k), 3), round(_score(y, lp, k), 3)))
            print(*rows[-1], flush=True)
    text = "\n\n".join([
        "# The spectral estimators on denser k-NN graphs: time against scikit-learn",
        f"`python benchmarks/bench_dense_knn.py` on {machine()}; one fit each, ours and the "
        "peer alternating in one process; embeddings scored by the ARI of KMeans on them.",
        table(["ours", "family", "n", "n_neighbors", "ours s", "peer s", "ratio", "ARI ours",
               "ARI peer"], rows),
    ])
    save(args.name, text)


if __name__ == "__main__":
    main()
