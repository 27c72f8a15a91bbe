"""Every clustering and embedding estimator with its defaults against its nearest scikit-learn
peer: wall time ratio and ARI on generated 2-D families, at 1,000, 5,000 and 20,000 points.

Pairs (ours with defaults, scikit-learn's peer with its defaults; k is the true count):

* ``SpectralClustering(k)`` / ``SpectralClustering(k, affinity="nearest_neighbors")``
* ``LaplacianEmbedding()`` / ``SpectralEmbedding()``, scored by the ARI of
  ``KMeans(k, n_init=10)`` on each embedding (not timed)
* ``KernelKMeans(k)`` / ``KMeans(k)``
* ``SoftKernelKMeans(k)`` / ``GaussianMixture(k)``
* ``KernelMDS()`` / ``KernelPCA(2, kernel="rbf")``, scored as the embeddings
* ``GPClustering()`` / ``HDBSCAN()`` (both find their own count)

Families: two concentric noisy rings (radii 1 and 2, noise 0.05), two moons, three long thin
parallel stripes, three well-separated blobs, three touching blobs, uniform noise (one class;
k = 3 is asked for, so every ARI is 0 there). Each pair runs in the same process, ours and the
peer alternating (best of 3 runs up to 1,000 points, of 2 up to 5,000, one run above), so
that the load of a shared machine falls on both. The ratio is ours / peer (below 1: ours is
faster). Prints each row as it is measured, then the table, the median and the maximum ratio
per estimator; the table is kept in ``results/defaults_time.md``.

Run: ``python benchmarks/bench_defaults_time.py`` (all sizes, long: GP clustering and the
dense kernel methods at 20,000 points take minutes), or a quick subset, e.g.
``python benchmarks/bench_defaults_time.py --sizes 1000 5000 --estimators spectral laplacian``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.datasets import make_blobs
from sklearn.decomposition import KernelPCA
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score
from sklearn.mixture import GaussianMixture

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_defaults_time
    from _common import machine, save, table
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table

from kernel_patterns import (
    GPClustering,
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    SoftKernelKMeans,
    SpectralClustering,
    datasets,
)

XY = tuple[np.ndarray, np.ndarray]


def rings(n: int, seed: int) -> XY:
    X, y = datasets.make_rings(n_samples=(n // 2, n - n // 2), radii=(1.0, 2.0), noise=0.05,
                               random_state=seed)
    return X, np.asarray(y)


def moons(n: int, seed: int) -> XY:
    X, y = datasets.make_two_moons(n_samples=(n // 2, n - n // 2), random_state=seed)
    return X, np.asarray(y)


def stripes(n: int, seed: int) -> XY:
    """Three parallel stripes 10 long, 1 apart, 0.05 thick."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = np.c_[rng.uniform(0.0, 10.0, n), y + rng.normal(0.0, 0.05, n)]
    return X, y


def separated_blobs(n: int, seed: int) -> XY:
    X, y = make_blobs(n, centers=[[0, 0], [10, 0], [0, 10]], cluster_std=0.5,
                      random_state=seed)
    return X, y


def touching_blobs(n: int, seed: int) -> XY:
    X, y = make_blobs(n, centers=[[0, 0], [3, 0], [1.5, 2.6]], cluster_std=1.0,
                      random_state=seed)
    return X, y


def uniform(n: int, seed: int) -> XY:
    return np.random.default_rng(seed).uniform(0.0, 1.0, (n, 2)), np.zeros(n, dtype=int)


FAMILIES: dict[str, Callable[[int, int], XY]] = {
    "rings": rings, "moons": moons, "stripes": stripes,
    "separated blobs": separated_blobs, "touching blobs": touching_blobs, "uniform": uniform,
}


def _count(y: np.ndarray) -> int:
    return max(int(np.unique(y).size), 3 if np.unique(y).size == 1 else 2)


def _embedding_ari(Z: np.ndarray, y: np.ndarray, k: int) -> float:
    labels = KMeans(k, n_init=10, random_state=0).fit_predict(np.asarray(Z, dtype=np.float64))
    return float(adjusted_rand_score(y, labels))


Fit = Callable[[np.ndarray, int], np.ndarray]

#: name -> (our label, peer label, ours, peer, is an embedding)
PAIRS: dict[str, tuple[str, str, Fit, Fit, bool]] = {
    "spectral": (
        "SpectralClustering(k)", "SpectralClustering(k, affinity='nearest_neighbors')",
        lambda X, k: SpectralClustering(k, random_state=0).fit_predict(X),
        lambda X, k: SkSpectral(k, affinity="nearest_neighbors",
                                random_state=0).fit_predict(X),
        False),
    "laplacian": (
        "LaplacianEmbedding()", "SpectralEmbedding()",
        lambda X, k: LaplacianEmbedding(random_state=0).fit_transform(X),
        lambda X, k: SpectralEmbedding(random_state=0).fit_transform(X),
        True),
    "kernel_kmeans": (
        "KernelKMeans(k)", "KMeans(k)",
        lambda X, k: KernelKMeans(k, random_state=0).fit_predict(X),
        lambda X, k: KMeans(k, random_state=0).fit_predict(X),
        False),
    "soft_kernel_kmeans": (
        "SoftKernelKMeans(k)", "GaussianMixture(k)",
        lambda X, k: SoftKernelKMeans(k, random_state=0).fit_predict(X),
        lambda X, k: GaussianMixture(k, random_state=0).fit_predict(X),
        False),
    "kernel_mds": (
        "KernelMDS()", "KernelPCA(2, kernel='rbf')",
        lambda X, k: KernelMDS(random_state=0).fit_transform(X),
        lambda X, k: KernelPCA(2, kernel="rbf", random_state=0).fit_transform(X),
        True),
    "gp": (
        "GPClustering()", "HDBSCAN()",
        lambda X, k: GPClustering(random_state=0).fit_predict(X),
        lambda X, k: HDBSCAN().fit_predict(X),
        False),
}


def _run(fit: Fit, X: np.ndarray, y: np.ndarray, k: int, embedding: bool) -> tuple[float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # disconnected graphs etc.: the same for both sides
        t0 = time.perf_counter()
        out = fit(X, k)
        dt = time.perf_counter() - t0
        ari = _embedding_ari(out, y, k) if embedding else float(adjusted_rand_score(y, out))
    return dt, ari


def measure_row(name: str, X: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Best time and ARI of ours and of the peer, alternating (ours first on even runs)."""
    _, _, ours, peer, embedding = PAIRS[name]
    k = _count(y)
    n = X.shape[0]
    repeats = 3 if n <= 1000 else 2 if n <= 5000 else 1
    t_ours, t_peer = [], []
    a_ours = a_peer = float("nan")
    for r in range(repeats):
        order = [(ours, t_ours), (peer, t_peer)]
        for fit, times in order if r % 2 == 0 else order[::-1]:
            t, a = _run(fit, X, y, k, embedding)
            times.append(t)
            if fit is ours:
                a_ours = a
            else:
                a_peer = a
    return min(t_ours), min(t_peer), a_ours, a_peer


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000])
    p.add_argument("--estimators", nargs="*", default=list(PAIRS), choices=list(PAIRS))
    p.add_argument("--families", nargs="*", default=list(FAMILIES), choices=list(FAMILIES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default="defaults_time",
                   help="results/<name>.md (default: defaults_time)")
    args = p.parse_args()

    rows: list[tuple[Any, ...]] = []
    ratios: dict[str, list[float]] = {e: [] for e in args.estimators}
    for n in args.sizes:
        for fam in args.families:
            X, y = FAMILIES[fam](n, args.seed)
            for est in args.estimators:
                to, tp, ao, ap = measure_row(est, X, y)
                ratio = to / tp
                ratios[est].append(ratio)
                row = (PAIRS[est][0], PAIRS[est][1], fam, n, to, tp, ratio, ao, ap)
                print(" | ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in row),
                      flush=True)
                rows.append(row)
    summary = [(PAIRS[e][0], len(r), statistics.median(r), max(r)) for e, r in ratios.items()
               if r]
    text = "\n\n".join([
        "# Every default against its scikit-learn peer: time ratio (ours / peer) and ARI",
        f"`python benchmarks/bench_defaults_time.py --sizes {' '.join(map(str, args.sizes))}"
        + ("" if args.estimators == list(PAIRS) else
           f" --estimators {' '.join(args.estimators)}")
        + ("" if args.families == list(FAMILIES) else
           f" --families {' '.join(repr(f) for f in args.families)}")
        + f"` on {machine()}; seconds are the best of 3 runs (n ≤ 1,000), 2 (n ≤ 5,000) or "
        "1, ours and the peer alternating in one process. Embeddings are scored by the ARI of "
        "KMeans(k) on them.",
        table(["ours", "peer", "family", "n", "ours s", "peer s", "ratio", "ARI ours",
               "ARI peer"], rows),
        "## Ratio per estimator",
        table(["ours", "rows", "median ratio", "max ratio"], summary),
    ])
    save(args.name, text)


if __name__ == "__main__":
    main()
