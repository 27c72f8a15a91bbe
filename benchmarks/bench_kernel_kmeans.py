"""Kernel k-means against its peers, same data, same process.

* 4,000 two-moons points, RBF kernel, n_init=5: ``KernelKMeans`` against tslearn's
  ``KernelKMeans`` (0.10; drops the within-cluster term) and a naive numpy implementation of
  eq. 6.3 (masks per cluster); time, ratio and adjusted Rand index.
* linear kernel on blobs: ``KernelKMeans(kernel="linear")`` against scikit-learn ``KMeans``
  (same n_init): time and inertia.
* 20,000 moons points (ours only), in a child process for its peak memory.
* the geodesic kernel on 5,000 points, stage by stage.

Run: ``python benchmarks/bench_kernel_kmeans.py [--quick]`` (tslearn needed for its row).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
import warnings

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import KernelKMeans, SoftKernelKMeans
from kernel_patterns.datasets import make_two_moons
from kernel_patterns.kernels import RBF, GeodesicKernel

GAMMA = 5.0


def naive_kernel_kmeans(X, k, gamma, n_init, max_iter, seed):  # type: ignore[no-untyped-def]
    """Textbook eq. 6.3 with a dense numpy K and boolean masks (random initial labels)."""
    sq = (X**2).sum(1)
    K = np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0.0))
    rng = np.random.default_rng(seed)
    best, best_inertia = None, np.inf
    diag = np.diag(K)
    for _ in range(n_init):
        lab = rng.integers(0, k, X.shape[0])
        for _ in range(max_iter):
            d = np.empty((X.shape[0], k))
            for c in range(k):
                m = lab == c
                nk = max(int(m.sum()), 1)
                d[:, c] = diag - 2.0 / nk * K[:, m].sum(1) + K[np.ix_(m, m)].sum() / nk**2
            new = d.argmin(1)
            if np.array_equal(new, lab):
                break
            lab = new
        inertia = d[np.arange(len(lab)), lab].sum()
        if inertia < best_inertia:
            best, best_inertia = lab, inertia
    return best


def timed(f):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def row(name: str, seconds: float, ref: float, extra: str) -> None:
    print(f"| {name:<44} | {seconds:9.2f} | {ref / seconds:8.2f}x | {extra} |", flush=True)


def moons_section(n: int, n_init: int, with_tslearn: bool) -> None:
    X, y = make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)
    print(f"\n## {n:,} two-moons points, RBF gamma={GAMMA}, n_init={n_init}, 2 clusters\n")
    print("| method | seconds | speed-up vs tslearn/naive | ARI |")
    print("|---|---|---|---|")
    results = {}
    if with_tslearn:
        from tslearn.clustering import KernelKMeans as TsKKM

        ts = TsKKM(n_clusters=2, kernel="rbf", kernel_params={"gamma": GAMMA}, n_init=n_init,
                   max_iter=50, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lab, t_ts = timed(lambda: ts.fit_predict(X))
        results["tslearn KernelKMeans 0.10"] = (t_ts, adjusted_rand_score(y, lab))
    lab, t_nv = timed(lambda: naive_kernel_kmeans(X, 2, GAMMA, n_init, 50, 0))
    results["naive numpy eq. 6.3"] = (t_nv, adjusted_rand_score(y, lab))
    for init in ("random", "k-means++"):
        for dtype in ("float64", "float32"):
            km = KernelKMeans(2, kernel=RBF(GAMMA), init=init, n_init=n_init, random_state=0,
                              dtype=dtype)
            lab, t = timed(lambda km=km: km.fit_predict(X))
            results[f"KernelKMeans init={init} {dtype}"] = (t, adjusted_rand_score(y, lab))
    ref = results.get("tslearn KernelKMeans 0.10", results["naive numpy eq. 6.3"])[0]
    for name, (t, ari) in results.items():
        row(name, t, ref, f"{ari:.3f}")


def linear_section(n: int) -> None:
    X, _ = make_blobs(n_samples=n, centers=8, n_features=10, random_state=0)
    print(f"\n## linear kernel, {n:,} blobs points (10-D, 8 clusters), n_init=10\n")
    print("| method | seconds | ratio vs KMeans | inertia |")
    print("|---|---|---|---|")
    km, t_sk = timed(lambda: KMeans(8, n_init=10, random_state=0).fit(X))
    row("scikit-learn KMeans", t_sk, t_sk, f"{km.inertia_:.6g}")
    kk, t = timed(lambda: KernelKMeans(8, kernel="linear", n_init=10, random_state=0).fit(X))
    row("KernelKMeans(kernel='linear')", t, t_sk, f"{kk.inertia_:.6g}")


def big_child(n: int, dtype: str) -> None:
    X, y = make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)
    from kernel_patterns.kernels import make_operator

    km, t = timed(lambda: KernelKMeans(2, kernel=RBF(GAMMA), n_init=5, random_state=0,
                                       dtype=dtype, operator="dense").fit(X))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # the fit's peak
    _, t_build = timed(lambda: make_operator(RBF(GAMMA), X, operator="dense", dtype=dtype))
    print(f"| {n:,} | {dtype} | {t:.2f} | {t_build:.2f} | {km.n_iter_} | "
          f"{adjusted_rand_score(y, km.labels_):.3f} | {peak:.2f} |", flush=True)


def geodesic_section(n: int) -> None:
    from scipy.sparse.csgraph import shortest_path
    from sklearn.neighbors import kneighbors_graph

    from kernel_patterns.kernels import cailliez_constant, geodesic_distances

    X, y = make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)
    k = 10
    print(f"\n## geodesic kernel, {n:,} moons points, n_neighbors={k}: stages\n")
    print("| stage | seconds |")
    print("|---|---|")
    G, t = timed(lambda: kneighbors_graph(X, k, mode="distance"))
    print(f"| kNN graph (scikit-learn) | {t:.2f} |")
    G = G.maximum(G.T)
    _, t = timed(lambda: shortest_path(G, method="D", directed=False))
    print(f"| all-pairs shortest paths (scipy Dijkstra), one pass | {t:.2f} |")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (D, n_comp), t = timed(lambda: geodesic_distances(X, k, 1.0))
    print(f"| graph + paths + joining {n_comp} components (errata 10) | {t:.2f} |")
    c, t = timed(lambda: cailliez_constant(D, "arpack"))
    print(f"| Cailliez c* = {c:.4f} (ARPACK on the matrix-free 2N x 2N product) | {t:.2f} |")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g, t = timed(lambda: GeodesicKernel(n_neighbors=k).fit(X))
    print(f"| GeodesicKernel.fit total (graph, paths, c*, K) | {t:.2f} |")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m, t = timed(lambda: SoftKernelKMeans(2, kernel=g, beta=0.6, n_init=5,
                                              random_state=0).fit(X))
    print(f"| SoftKernelKMeans fit, n_init=5 (fits the kernel again inside) | {t:.2f} |")
    print(f"\nARI of soft geodesic kernel k-means: {adjusted_rand_score(y, m.labels_):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, no tslearn")
    ap.add_argument("--big-child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--dtype", default="float32", help=argparse.SUPPRESS)
    ap.add_argument("--sections", default="moons,linear,big,geodesic",
                    help="comma-separated subset of moons,linear,big,geodesic")
    args = ap.parse_args()
    if args.big_child:
        big_child(args.big_child, args.dtype)
        return
    sections = set(args.sections.split(","))
    if args.quick:
        moons_section(1000, 2, with_tslearn=False)
        linear_section(5000)
        geodesic_section(1000)
        return
    try:
        import tslearn  # noqa: F401

        have_ts = True
    except ImportError:
        have_ts = False
        print("tslearn is not installed: its row is skipped", flush=True)
    if "moons" in sections:
        moons_section(4000, 5, with_tslearn=have_ts)
    if "linear" in sections:
        linear_section(20000)
    if "big" in sections:
        print("\n## 20,000 moons points, RBF, n_init=5, dense operator (one child process "
              "per row, for its peak memory)\n")
        print("| n | dtype | fit seconds | K build alone (s) | n_iter | ARI | "
              "peak RSS GB |")
        print("|---|---|---|---|---|---|---|", flush=True)
        for dtype in ("float32", "float64"):
            subprocess.run([sys.executable, __file__, "--big-child", "20000", "--dtype", dtype],
                           check=True)
    if "geodesic" in sections:
        geodesic_section(5000)


if __name__ == "__main__":
    main()
