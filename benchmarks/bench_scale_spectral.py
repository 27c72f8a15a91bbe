"""Scaling: spectral clustering and kernel MDS, exact and Nyström, against scikit-learn.

Two groups of scaling curves (wall time and peak resident memory against N, log-log), each
method run on the same rings (radii 1 and 2, 1:2 sizes, noise 0.08) in one process, in
increasing N, until a run exceeds ``--time-limit`` seconds or the memory guard stops it:

* ``spectral``: ``kernel_patterns.SpectralClustering`` exact (dense/chunked operator,
  ``dtype="auto"``) and ``approximation="nystrom"`` (m = 300 landmarks), scikit-learn's
  ``SpectralClustering`` with ``affinity="rbf"`` (dense) and ``affinity="nearest_neighbors"``
  (sparse 10-NN graph). RBF γ = 10 everywhere; the score is the ARI against the ring labels.
  Then the Nyström labels are compared with the exact method's on a subsample.
* ``embedding``: ``KernelMDS`` exact and Nyström (m = 300) against scikit-learn's
  ``KernelPCA`` (exact, ARPACK) and the ``Nystroem(300) + PCA`` pipeline; RBF γ = 1,
  2 components. The score is the share of the exact top-2 eigenvalue sum that the
  method's embedding variance recovers (1 = the exact kernel-PCA variance; for peers run on
  a different approximation it says how close they get), computed as
  ``sum(var(embedding)) · N / sum(exact top-2 eigenvalues)`` on sizes where the exact
  eigenvalues are known (≤ 20,000), else nan.

Results: ``benchmarks/results/scale_spectral.md`` (tables + acceptance lines),
``scale_spectral.png`` (clustering curves) and ``scale_spectral_embedding.png``; the rows of
each group are cached in ``scale_spectral.json`` so the groups can be run separately
(``--quick`` writes ``scale_spectral_quick.*`` instead).

    python benchmarks/bench_scale_spectral.py --quick            # 1k-5k, seconds
    flock /tmp/kp-bench.lock python benchmarks/bench_scale_spectral.py --group spectral
    flock /tmp/kp-bench.lock python benchmarks/bench_scale_spectral.py --group embedding
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from _common import RESULTS, machine, save
from _scaling import curves_table, plot_curves, run_curves

GAMMA_SPECTRAL = 10.0
GAMMA_MDS = 1.0
LANDMARKS = 300
SIZES = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
QUICK_SIZES = [1_000, 2_000, 5_000]


def make_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    from kernel_patterns.datasets import make_rings

    return make_rings(n_samples=(n // 3, n - n // 3), random_state=0)


def capped(fn: Callable[[Any], Any], max_n: int) -> Callable[[Any], Any]:
    """``fn`` that refuses sizes above ``max_n`` (run_curves then stops the method there).

    The time limit only stops a method *after* a slow run; a dense N × N method one size too
    far can take many minutes and most of the memory, so dense methods also get a size cap.
    """

    def run(data: Any) -> Any:
        if len(data[0]) > max_n:
            raise ValueError(f"not run above N={max_n:,} (dense N x N; see --dense-max)")
        return fn(data)

    return run


# ------------------------------------------------------------------------ spectral clustering
def spectral_methods(dense_max: int, peer_max: int) -> dict[str, Callable[[Any], Any]]:
    from sklearn.cluster import SpectralClustering as SkSpectral

    from kernel_patterns import SpectralClustering

    g = {"gamma": GAMMA_SPECTRAL}
    return {
        "ours exact": capped(lambda d: SpectralClustering(
            2, kernel="rbf", kernel_params=g, random_state=0).fit(d[0]).labels_, dense_max),
        f"ours nystrom m={LANDMARKS}": lambda d: SpectralClustering(
            2, kernel="rbf", kernel_params=g, approximation="nystrom", n_landmarks=LANDMARKS,
            random_state=0).fit(d[0]).labels_,
        "sklearn rbf (dense)": capped(lambda d: SkSpectral(
            2, affinity="rbf", gamma=GAMMA_SPECTRAL, random_state=0).fit(d[0]).labels_,
            peer_max),
        "sklearn nearest_neighbors": lambda d: SkSpectral(
            2, affinity="nearest_neighbors", n_neighbors=10, random_state=0).fit(d[0]).labels_,
    }


def ari_score(data: Any, labels: Any, name: str) -> float:
    from sklearn.metrics import adjusted_rand_score

    return float(adjusted_rand_score(data[1], labels))


def subsample_agreement(n: int) -> tuple[float, float, float]:
    """ARI between Nyström and exact labels on n ring points, and both times."""
    from sklearn.metrics import adjusted_rand_score

    from kernel_patterns import SpectralClustering

    X, _ = make_data(n)
    g = {"gamma": GAMMA_SPECTRAL}
    t0 = time.perf_counter()
    exact = SpectralClustering(2, kernel="rbf", kernel_params=g, random_state=0).fit(X).labels_
    t1 = time.perf_counter()
    ny = SpectralClustering(2, kernel="rbf", kernel_params=g, approximation="nystrom",
                            n_landmarks=LANDMARKS, random_state=0).fit(X).labels_
    t2 = time.perf_counter()
    return float(adjusted_rand_score(exact, ny)), t1 - t0, t2 - t1


# ------------------------------------------------------------------------ embeddings
_EXACT_TOP: dict[int, float] = {}


def embedding_methods(dense_max: int, peer_max: int) -> dict[str, Callable[[Any], Any]]:
    from sklearn.decomposition import PCA, KernelPCA
    from sklearn.kernel_approximation import Nystroem
    from sklearn.pipeline import make_pipeline

    from kernel_patterns import KernelMDS

    g = {"gamma": GAMMA_MDS}

    def ours_exact(d: Any) -> Any:
        mds = KernelMDS(2, kernel_params=g, random_state=0).fit(d[0])
        _EXACT_TOP[len(d[0])] = float(mds.eigenvalues_.sum())
        return mds.embedding_

    return {
        "ours KernelMDS exact": capped(ours_exact, dense_max),
        f"ours KernelMDS nystrom m={LANDMARKS}": lambda d: KernelMDS(
            2, kernel_params=g, approximation="nystrom", n_landmarks=LANDMARKS,
            random_state=0).fit_transform(d[0]),
        "sklearn KernelPCA": capped(lambda d: KernelPCA(
            2, kernel="rbf", gamma=GAMMA_MDS, eigen_solver="arpack",
            random_state=0).fit_transform(d[0]), peer_max),
        f"sklearn Nystroem({LANDMARKS})+PCA": lambda d: make_pipeline(
            Nystroem(gamma=GAMMA_MDS, n_components=LANDMARKS, random_state=0),
            PCA(2, random_state=0)).fit_transform(d[0]),
    }


def variance_score(data: Any, Z: Any, name: str) -> float:
    top = _EXACT_TOP.get(len(data[0]))
    if top is None or top <= 0:
        return math.nan
    Z = np.asarray(Z, dtype=np.float64)
    return float(Z.var(axis=0).sum() * len(Z) / top)


# ------------------------------------------------------------------------ report
def _acceptance(rows: list[dict[str, Any]], extra: list[str]) -> list[str]:
    lines = []
    for r in rows:
        if r["n"] == max(q["n"] for q in rows if q["method"] == r["method"]):
            score = f", score {r['score']:.3f}" if not math.isnan(r.get("score", math.nan)) \
                else ""
            lines.append(f"{r['group']} {r['method']} largest N={r['n']:,}: "
                         f"{r['seconds']:.1f} s, peak {r['peak_mb']:.0f} MB{score}")
    return lines + extra


def _label_score(rows: list[dict[str, Any]], group: str) -> None:
    for r in rows:
        r["group"] = group
        if "score" not in r:
            r["score"] = math.nan


def warm_up(methods: dict[str, Callable[[Any], Any]]) -> None:
    """One untimed run of every method on 300 points (imports, BLAS/OpenMP start-up)."""
    data = make_data(300)
    for fn in methods.values():
        fn(data)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="sizes 1k-5k only (a smoke run)")
    p.add_argument("--group", choices=["spectral", "embedding", "all"], default="all")
    p.add_argument("--sizes", type=int, nargs="*", default=None)
    p.add_argument("--time-limit", type=float, default=60.0,
                   help="a method whose run takes longer is not run at larger sizes")
    p.add_argument("--dense-max", type=int, default=20_000,
                   help="largest N for our exact (dense) runs")
    p.add_argument("--peer-dense-max", type=int, default=10_000,
                   help="largest N for scikit-learn's dense runs (rbf SpectralClustering, "
                   "KernelPCA: several N x N float64 copies)")
    p.add_argument("--subsample", type=int, default=None,
                   help="size of the Nyström-vs-exact comparison (default 20,000; 2,000 quick)")
    args = p.parse_args(argv)
    # scikit-learn's 10-NN graph of small ring samples is sometimes split; its ARI says so.
    warnings.filterwarnings("ignore", message="Graph is not fully connected")
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    # a smoke run never overwrites the full results
    name = "scale_spectral_quick" if args.quick else "scale_spectral"
    cache_path = RESULTS / f"{name}.json"
    cache: dict[str, Any] = json.loads(cache_path.read_text()) if cache_path.exists() else {}

    groups = {  # group -> (heading, its methods, its score)
        "spectral": ("spectral clustering, rings, RBF gamma=10:", spectral_methods, ari_score),
        "embedding": ("kernel MDS / kernel PCA, rings, RBF gamma=1:", embedding_methods,
                      variance_score),
    }
    for group, (heading, group_methods, score) in groups.items():
        if args.group not in (group, "all"):
            continue
        print(heading, flush=True)
        methods = group_methods(args.dense_max, args.peer_dense_max)
        warm_up(methods)
        rows = run_curves(methods, sizes, make_data, time_limit=args.time_limit, score=score)
        _label_score(rows, group)
        cache[group] = {"rows": rows}
        if group == "spectral":
            n_sub = args.subsample or (2_000 if args.quick else 20_000)
            agree, t_exact, t_ny = subsample_agreement(n_sub)
            cache[group]["subsample"] = [n_sub, agree, t_exact, t_ny]
    cache_path.parent.mkdir(exist_ok=True)
    cache_path.write_text(json.dumps(cache, indent=1))

    parts = [f"# Scaling: spectral clustering and kernel MDS ({machine()})", "",
             "Rings (radii 1, 2; sizes 1:2; noise 0.08). Wall time and peak resident memory "
             "above the start of each run; a method stops after a run over the time limit. "
             "Timings were taken while other jobs shared the 2 cores: compare within a row "
             "group, not across machines.", ""]
    extra: list[str] = []
    if "spectral" in cache:
        s = cache["spectral"]
        plot_curves(s["rows"], RESULTS / f"{name}.png",
                    "Spectral clustering, rings")
        n_sub, agree, t_exact, t_ny = s["subsample"]
        extra.append(f"spectral nystrom vs exact on {n_sub:,} points: ARI {agree:.4f} "
                     f"(exact {t_exact:.1f} s, nystrom {t_ny:.1f} s)")
        parts += ["## Spectral clustering (score: ARI against the ring labels)", "",
                  curves_table(s["rows"]), "", f"![]({name}.png)", ""]
    if "embedding" in cache:
        e = cache["embedding"]
        plot_curves(e["rows"], RESULTS / f"{name}_embedding.png",
                    "Kernel MDS / kernel PCA, rings")
        parts += ["## Kernel MDS / kernel PCA (score: embedding variance / exact top-2 "
                  "eigenvalues)", "", curves_table(e["rows"]), "",
                  f"![]({name}_embedding.png)", ""]
    all_rows = [r for g in ("spectral", "embedding") if g in cache for r in cache[g]["rows"]]
    lines = _acceptance(all_rows, extra)
    parts += ["## Acceptance lines", "", "```", *lines, "```"]
    print()
    save(name, "\n".join(parts))


if __name__ == "__main__":
    main()
