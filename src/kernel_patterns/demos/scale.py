"""Demo step: the approximations at scale, each on a data set far beyond the exact methods.

* Nyström kernel k-means on 200,000 two-moons points (m = 100 landmarks, float32);
* Nyström spectral clustering on 200,000 ring points (m = 300);
* GP-variance clustering with 300 inducing points (FITC) on 50,000 ring points;
* kernel k-means with the landmark geodesic kernel (300 Dijkstra sources) on 50,000
  three-moons points.

Each panel plots 4,000 of the points; the summary keeps wall times and the ARI against the
generating labels. The full scaling curves against the peers are in ``benchmarks/``
(``make bench-scale``).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score

from .. import datasets, plotting
from .._mpl import pyplot
from ..cluster import GPClustering, KernelKMeans, SpectralClustering
from ..kernels import RBF, GeodesicKernel, GPCovariance

NAME = "scale"
ORDER = 50
_SHOWN = 4_000


def _moons_kkm() -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    X, y = datasets.make_two_moons((100_000, 100_000), random_state=0)
    km = KernelKMeans(2, kernel=RBF(5.0), approximation="nystrom", n_landmarks=100,
                      random_state=0).fit(X)
    return "Nyström kernel k-means, m=100", X, y, km.labels_


def _rings_spectral() -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    X, y = datasets.make_rings((100_000, 100_000), random_state=0)
    sc = SpectralClustering(2, kernel=RBF(10.0), approximation="nystrom", n_landmarks=300,
                            random_state=0).fit(X)
    return "Nyström spectral clustering, m=300", X, y, sc.labels_


def _rings_gp() -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    X, y = datasets.make_rings((25_000, 25_000), random_state=1)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=400), approximation="inducing",
                      n_landmarks=300, random_state=0).fit(X)
    return "GP variance, 300 inducing points", X, y, gp.labels_


def _moons_geodesic() -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    X, y = datasets.make_three_moons(50_000, random_state=0)
    kernel = GeodesicKernel(n_neighbors=10, approximation="landmark", n_landmarks=300,
                            random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the three moons' graph has 3 components: joined
        km = KernelKMeans(3, kernel=kernel, n_init=3, random_state=0).fit(X)
    return "landmark geodesic kernel k-means, m=300", X, y, km.labels_


_STEPS: list[Callable[[], tuple[str, np.ndarray, np.ndarray, np.ndarray]]] = [
    _moons_kkm, _rings_spectral, _rings_gp, _moons_geodesic,
]


def run(out_dir: Path) -> dict[str, Any]:
    plt = pyplot()
    fig, axes = plt.subplots(1, len(_STEPS), figsize=(5 * len(_STEPS), 4.6))
    rng = np.random.default_rng(0)
    summary: dict[str, Any] = {}
    for ax, step in zip(axes, _STEPS, strict=True):
        t0 = time.perf_counter()
        title, X, y, labels = step()
        seconds = time.perf_counter() - t0
        ari = float(adjusted_rand_score(y, labels))
        shown = rng.choice(len(X), size=min(_SHOWN, len(X)), replace=False)
        plotting.plot_clusters(X[shown], labels[shown], ax=ax, s=4,
                               title=f"{title}\nN={len(X):,}: {seconds:.1f} s, ARI {ari:.3f}")
        summary[title] = {"n_samples": len(X), "seconds": round(seconds, 2),
                          "ari": round(ari, 4)}
    fig.tight_layout()
    plotting.save_figure(fig, out_dir / "scale.png")
    summary["figures"] = ["scale.png"]
    return summary
