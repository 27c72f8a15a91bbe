"""Scaling curves of the geodesic kernel: exact vs landmark, with scikit-learn ``Isomap``.

Same 2-D three-moons data (noise 0.06, 10 nearest neighbours) for every method, sizes
500 … 100,000, in one process; a method stops after its first run beyond the time limit.

* ``geodesic exact``: ``GeodesicKernel(n_neighbors=10).fit(X)`` (kNN graph, all-pairs Dijkstra,
  Cailliez constant by Arnoldi, the N × N kernel).
* ``geodesic landmark m=300``: ``GeodesicKernel(n_neighbors=10, approximation="landmark",
  n_landmarks=300)`` (kNN graph, 300 maxmin Dijkstra sources, landmark MDS features F, N × r).
* ``landmark + KernelKMeans``: ``KernelKMeans(3, kernel=<landmark kernel>, n_init=1)`` end to
  end (the estimator fits the kernel itself); score = ARI against the three moons.
* ``sklearn Isomap``: ``Isomap(n_neighbors=10, n_components=2)`` (kNN graph, all-pairs
  shortest paths, dense double centring, ARPACK): the peer, which has no landmark option.

Prints the acceptance line (landmark kernel on 100,000 points under 60 s end to end) and, with
the full run, the agreement of exact and landmark kernel k-means labels on 5,000 points.
Writes ``results/scale_geodesic.md`` and ``results/scale_geodesic.png``.

    python benchmarks/bench_scale_geodesic.py            # 500 … 100,000
    python benchmarks/bench_scale_geodesic.py --quick    # 500 … 5,000 (no acceptance line)

Timings on the shared 2-core machine are noisy: run under ``flock /tmp/kp-bench.lock``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.sparse import SparseEfficiencyWarning
from sklearn.metrics import adjusted_rand_score

from _common import RESULTS, machine, save
from _scaling import curves_table, plot_curves, run_curves
from kernel_patterns import KernelKMeans
from kernel_patterns.datasets import make_three_moons
from kernel_patterns.kernels import GeodesicKernel

N_NEIGHBORS = 10
N_LANDMARKS = 300
SIZES = [500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]
QUICK_SIZES = [500, 1000, 2000, 5000]


def _data(n: int) -> tuple[np.ndarray, np.ndarray]:
    return make_three_moons(n_samples=n, random_state=0)


def _landmark_kernel() -> GeodesicKernel:
    return GeodesicKernel(
        n_neighbors=N_NEIGHBORS, approximation="landmark", n_landmarks=N_LANDMARKS,
        random_state=0,
    )


def _capped(fn: Callable[[Any], Any], cap: int) -> Callable[[Any], Any]:
    """``fn``, refused beyond ``cap`` points (run_curves then stops the method)."""

    def run(d: Any) -> Any:
        if d[0].shape[0] > cap:
            raise ValueError(f"not run beyond --exact-max={cap:,} points (all-pairs, N²)")
        return fn(d)

    return run


def _methods(exact_max: int) -> dict[str, Callable[[Any], Any]]:
    from sklearn.manifold import Isomap

    return {
        "geodesic exact": _capped(
            lambda d: GeodesicKernel(n_neighbors=N_NEIGHBORS).fit(d[0]), exact_max
        ),
        f"geodesic landmark m={N_LANDMARKS}": lambda d: _landmark_kernel().fit(d[0]),
        "landmark + KernelKMeans": lambda d: KernelKMeans(
            3, kernel=_landmark_kernel(), n_init=1, random_state=0
        ).fit(d[0]).labels_,
        "sklearn Isomap": _capped(
            lambda d: Isomap(n_neighbors=N_NEIGHBORS, n_components=2).fit(d[0]), exact_max
        ),
    }


def _score(data: Any, out: Any, name: str) -> float:
    if name == "landmark + KernelKMeans":
        return float(adjusted_rand_score(data[1], out))
    return float("nan")


def _agreement(n: int) -> str:
    """ARI between exact and landmark kernel k-means labels on ``n`` points."""
    X, y = _data(n)
    t0 = time.perf_counter()
    exact = KernelKMeans(3, kernel=GeodesicKernel(n_neighbors=N_NEIGHBORS), n_init=1,
                         random_state=0).fit(X).labels_
    t1 = time.perf_counter()
    approx = KernelKMeans(3, kernel=_landmark_kernel(), n_init=1, random_state=0).fit(X).labels_
    t2 = time.perf_counter()
    return (
        f"Kernel k-means on {n:,} points: ARI(exact labels, landmark labels) = "
        f"{adjusted_rand_score(exact, approx):.4f}; against the moons: exact "
        f"{adjusted_rand_score(y, exact):.4f}, landmark {adjusted_rand_score(y, approx):.4f}; "
        f"wall time exact {t1 - t0:.1f} s, landmark {t2 - t1:.1f} s."
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="sizes up to 5,000 only")
    p.add_argument("--sizes", type=int, nargs="*", default=None)
    p.add_argument("--time-limit", type=float, default=60.0,
                   help="a method stops after its first run longer than this (s)")
    p.add_argument("--exact-max", type=int, default=10_000,
                   help="largest N for the all-pairs methods (exact kernel, Isomap): at "
                   "20,000 all-pairs Dijkstra alone takes about 200 s here")
    args = p.parse_args()
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)

    warnings.simplefilter("ignore", UserWarning)  # three moons: components joined (errata 10)
    warnings.simplefilter("ignore", SparseEfficiencyWarning)  # Isomap joining components
    print(f"geodesic kernel scaling, three moons, k={N_NEIGHBORS}; {machine()}", flush=True)
    rows = run_curves(
        _methods(args.exact_max), sizes, _data, time_limit=args.time_limit, score=_score
    )

    lines = [
        "# Geodesic kernel at scale: exact vs landmark (three moons, 2-D)",
        "",
        f"k = {N_NEIGHBORS} nearest neighbours, m = {N_LANDMARKS} maxmin landmarks; "
        f"{machine()}; 2-core machine (timings vary with its load). A method stops after its first "
        f"run beyond {args.time_limit:.0f} s; the all-pairs methods (exact, Isomap) are not "
        f"run beyond {args.exact_max:,} points. Score: ARI of the kernel k-means labels "
        "against the three moons.",
        "",
        curves_table(rows),
        "",
    ]
    big = [r for r in rows if r["method"].startswith("geodesic landmark") and r["n"] == 100_000]
    if big:
        t = big[0]["seconds"]
        verdict = "PASS" if t < 60 else "FAIL"
        lines.append(
            f"ACCEPTANCE: geodesic kernel (landmark, m={N_LANDMARKS}) on 100,000 points: "
            f"{t:.1f} s end to end (graph + Dijkstra + features), under 60 s: {verdict}"
        )
        kkm = [r for r in rows if r["method"] == "landmark + KernelKMeans" and r["n"] == 100_000]
        if kkm:
            lines.append(
                f"Kernel k-means on top (kernel fit included, n_init=1): {kkm[0]['seconds']:.1f} s,"
                f" ARI {kkm[0]['score']:.4f}"
            )
    if not args.quick and args.sizes is None:
        lines.append(_agreement(5000))
    save("scale_geodesic", "\n".join(lines))
    png = plot_curves(rows, RESULTS / "scale_geodesic.png",
                      "Geodesic kernel, three moons")
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
