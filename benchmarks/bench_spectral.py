"""Speed: kernel_patterns.SpectralClustering vs scikit-learn's, same data, same RBF kernel.

Both compute the RBF affinity from the points (scikit-learn: ``affinity="rbf"``), take the
spectral embedding of the normalised affinity and run k-means (n_init=10) on it. Prints a
Markdown table with the median wall time of ``--repeats`` runs (the two libraries alternate),
the ARI against the ring labels and the speed ratio.

    python benchmarks/bench_spectral.py                 # 4,000 and 20,000 ring points
    python benchmarks/bench_spectral.py --sizes 4000 --repeats 5
    python benchmarks/bench_spectral.py --sklearn-max 20000   # also scikit-learn at 20k (slow)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import SpectralClustering as SkSpectralClustering
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import SpectralClustering
from kernel_patterns.datasets import make_rings

GAMMA = 10.0


def _time(fit: Callable[[], Any], y: np.ndarray) -> tuple[float, float]:
    t0 = time.perf_counter()
    labels = fit()
    return time.perf_counter() - t0, adjusted_rand_score(y, labels)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[4000, 20000])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--sklearn-max", type=int, default=10000,
                   help="largest size scikit-learn is run at (its dense shift-invert LU and "
                   "Laplacian copies need about 3 N² floats)")
    args = p.parse_args()

    rows = []
    for n in args.sizes:
        X, y = make_rings(n_samples=(n // 3, n - n // 3), random_state=0)
        ours: dict[str, Callable[[], Any]] = {
            "kernel_patterns float64": lambda X=X: SpectralClustering(
                2, kernel="rbf", kernel_params={"gamma": GAMMA}, random_state=0
            ).fit(X).labels_,
            "kernel_patterns float32": lambda X=X: SpectralClustering(
                2, kernel="rbf", kernel_params={"gamma": GAMMA}, dtype="float32",
                random_state=0,
            ).fit(X).labels_,
        }
        peers: dict[str, Callable[[], Any]] = {}
        if n <= args.sklearn_max:
            peers["scikit-learn"] = lambda X=X: SkSpectralClustering(
                2, affinity="rbf", gamma=GAMMA, random_state=0
            ).fit(X).labels_
        times: dict[str, list[float]] = {k: [] for k in (*ours, *peers)}
        aris: dict[str, float] = {}
        repeats = args.repeats if n <= 5000 else 1
        for _ in range(repeats):
            for name, fit in (*ours.items(), *peers.items()):
                t, a = _time(fit, y)
                times[name].append(t)
                aris[name] = a
        ref = statistics.median(times["scikit-learn"]) if "scikit-learn" in times else None
        for name, ts in times.items():
            med = statistics.median(ts)
            ratio = f"{ref / med:.2f}x" if ref is not None else "n/a"
            rows.append((n, name, med, aris[name], ratio))
        if ref is None:
            rows.append((n, "scikit-learn", float("nan"), float("nan"),
                         f"not run (> --sklearn-max {args.sklearn_max})"))

    print(f"\nRings (radii 1 and 2, 1:2 sizes, noise 0.08), RBF gamma={GAMMA}, normalised "
          f"affinity + k-means (n_init=10); median of {args.repeats} runs for n ≤ 5000, "
          "1 run above.\n")
    print("| n | implementation | seconds | ARI | speed-up vs scikit-learn |")
    print("|---:|---|---:|---:|---:|")
    for n, name, t, a, ratio in rows:
        print(f"| {n} | {name} | {t:.2f} | {a:.4f} | {ratio} |")


if __name__ == "__main__":
    main()
