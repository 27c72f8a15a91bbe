"""GPClustering() beside the label-free peers' defaults, in time and ARI, in one process.

Issue 61's speed bars: ``GPClustering()`` at most 3× ``HDBSCAN()``'s time on the toy grid at
10,000 points; 100,000 2-D points in at most 10 s and 1,000,000 in at most 60 s, with the
count it finds on 10,000 points of the same generator. Peers, all with their defaults:
scikit-learn's ``HDBSCAN()`` and PLSCAN (``fast_plscan.PLSCAN()``, the ``bench`` extra; left
out when it is not installed). Every set is standardised. Each cell: ARI (clusters found,
seconds); the last columns: GP's time over HDBSCAN's and over PLSCAN's.

Run: ``python benchmarks/bench_gp_peers_time.py [--sizes 10000 100000 1000000]
[--no-hdbscan-above N]`` (HDBSCAN is skipped above ``N`` points, default 100,000: it takes
tens of seconds there). Writes ``results/gp_peers_time.md``. Time it alone (nothing else on
the two cores).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn import datasets as skd
from sklearn.cluster import HDBSCAN
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_gp_peers_time
    from _common import machine, save, table
    from bench_auto import toy
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_auto import toy

from kernel_patterns import GPClustering

XY = tuple[np.ndarray, np.ndarray]


def plscan() -> Any | None:
    """PLSCAN with its defaults, or None when fast_plscan is not installed."""
    try:
        from fast_plscan import PLSCAN
    except ImportError:
        return None
    return PLSCAN()


def large(n: int) -> dict[str, Callable[[], XY]]:
    """The two 2-D sets of the size bars: four blobs and moons (noise 0.08)."""
    return {
        f"make_blobs(centers=4) {n:,}": lambda: skd.make_blobs(n, centers=4, random_state=1),
        f"moons noise 0.08 {n:,}": lambda: skd.make_moons(n, noise=0.08, random_state=0),
    }


def cell(y: np.ndarray, fit: Callable[[], np.ndarray]) -> tuple[str, float]:
    """``ARI (clusters, seconds)`` of one fit, and its seconds."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labels = np.asarray(fit())
    dt = time.perf_counter() - t0
    k = np.unique(labels[labels >= 0]).size
    return f"{adjusted_rand_score(y, labels):.2f} ({k}, {dt:.2f} s)", dt


def run(sizes: list[int], hdbscan_max: int) -> str:
    rows = []
    for n in sizes:
        loads = {**toy(n), **large(n)} if n <= 10_000 else large(n)
        for name, load in loads.items():
            X, y = load()
            X = StandardScaler().fit_transform(X)
            gp, t_gp = cell(y, lambda X=X: GPClustering(random_state=0).fit(X).labels_)
            row: list[Any] = [name, gp]
            t_hd = t_pl = float("nan")
            if n <= hdbscan_max:
                hd, t_hd = cell(y, lambda X=X: HDBSCAN().fit(X).labels_)
            else:
                hd = "skipped"
            model = plscan()
            if model is not None:
                pl, t_pl = cell(y, lambda X=X, m=model: m.fit(X).labels_)
            else:
                pl = "not installed"
            row += [hd, pl, f"{t_gp / t_hd:.1f}" if t_hd == t_hd else "",
                    f"{t_gp / t_pl:.1f}" if t_pl == t_pl else ""]
            rows.append(row)
            print(" | ".join(map(str, row)), flush=True)
    head = ["set", "GPClustering()", "HDBSCAN()", "PLSCAN()", "GP / HDBSCAN", "GP / PLSCAN"]
    return "\n".join([
        "# GPClustering() beside HDBSCAN() and PLSCAN(): time and ARI",
        "",
        f"Machine: {machine()}. `python benchmarks/bench_gp_peers_time.py "
        f"--sizes {' '.join(map(str, sizes))}`. Each cell: ARI (clusters, seconds); the data "
        "standardised; every estimator with its defaults (GP with random_state=0).",
        "",
        table(head, rows),
    ])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000])
    ap.add_argument("--no-hdbscan-above", type=int, default=100_000, dest="hdbscan_max")
    args = ap.parse_args()
    save("gp_peers_time", run(args.sizes, args.hdbscan_max))


if __name__ == "__main__":
    main()
