"""Kernel k-means at scale: time and peak memory against N, ours and the peers, one process.

Data: 2-D two moons (``make_two_moons``, noise 0.06, halves of N), RBF kernel gamma = 5
(length scale 0.32): the exact method's best clustering is the two moons up to their tips
(ARI about 0.97 against the generating labels), and it is the unique best of the restarts, so
"the approximation agrees with the exact method" is a meaningful test. Two clusters.

Methods, all with ``N_INIT`` = 10 restarts (our default ``n_init="auto"``; the same for
everyone; fewer restarts miss the moons at gamma = 5 on some sizes):

* ours, exact, float32: ``KernelKMeans(dtype="float32")``: dense K computed once, up to the
  memory budget (beyond it fit raises ``MemoryBudgetError`` before allocating: the curve
  stops there);
* ours, Nyström: ``KernelKMeans(approximation="nystrom", n_landmarks=M)`` (uniform
  landmarks; float32 above 20,000 points, ``dtype="auto"``);
* scikit-learn ``Nystroem(M)`` features + ``KMeans`` (the same rank-M feature map, Lloyd in
  Cython);
* scikit-learn ``Nystroem(M)`` features + ``MiniBatchKMeans`` (mini-batch k-means runs on the
  Nystroem features: scikit-learn has no kernel k-means);
* tslearn ``KernelKMeans`` (exact kernel, drops the within-cluster term): run while it
  finishes; a size whose predicted time (quadratic growth from the last run) exceeds the
  time limit is not started.

Acceptance lines printed at the end: exact 50,000 points float32, and Nyström on 1,000,000
points with the adjusted Rand index of its labels against the exact method's labels on a
20,000-point subsample (the exact method fitted on those 20,000 points alone).

Run: ``flock /tmp/kp-bench.lock python benchmarks/bench_scale_kernel_kmeans.py [--quick]``.
Writes ``results/scale_kernel_kmeans.md`` and ``.png`` (``--quick``: ``*_quick``).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score

from _common import RESULTS, machine, save
from _scaling import curves_table, measure_rss, plot_curves, run_curves
from kernel_patterns import KernelKMeans
from kernel_patterns.datasets import make_two_moons
from kernel_patterns.kernels import RBF, MemoryBudgetError

GAMMA = 5.0
#: Nyström landmarks (ours and scikit-learn's): at gamma = 5 on the moons the spectrum of K
#: decays fast; 100 uniform landmarks agree with the exact labels (ARI 0.996 at 1M)
M = 100
N_INIT = 10
SIZES = [1_000, 3_000, 10_000, 30_000, 50_000, 100_000, 300_000, 1_000_000]
QUICK_SIZES = [1_000, 3_000, 10_000]
TIME_LIMIT = 60.0
SUBSAMPLE = 20_000


def make_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    return make_two_moons(n_samples=(n // 2, n - n // 2), random_state=0)


def ours_exact(data: Any) -> np.ndarray:
    km = KernelKMeans(2, kernel=RBF(GAMMA), dtype="float32", n_init=N_INIT, random_state=0)
    return km.fit(data[0]).labels_


#: labels of the Nyström fit at the largest size, reused by the acceptance line
_LARGEST: dict[int, np.ndarray] = {}


def ours_nystrom(data: Any) -> np.ndarray:
    km = KernelKMeans(2, kernel=RBF(GAMMA), approximation="nystrom", n_landmarks=M,
                      n_init=N_INIT, random_state=0)
    labels = km.fit(data[0]).labels_
    _LARGEST.clear()
    _LARGEST[len(labels)] = labels
    return labels


def sklearn_nystroem(kmeans: str) -> Callable[[Any], np.ndarray]:
    def fit(data: Any) -> np.ndarray:
        from sklearn.cluster import KMeans, MiniBatchKMeans
        from sklearn.kernel_approximation import Nystroem

        F = Nystroem(gamma=GAMMA, n_components=M, random_state=0).fit_transform(data[0])
        if kmeans == "KMeans":
            return KMeans(2, n_init=N_INIT, random_state=0).fit(F).labels_
        return MiniBatchKMeans(2, n_init=N_INIT, random_state=0).fit(F).labels_

    return fit


def tslearn_kkm() -> Callable[[Any], np.ndarray]:
    last: dict[str, float] = {}

    def fit(data: Any) -> np.ndarray:
        from tslearn.clustering import KernelKMeans as TsKKM

        n = len(data[0])
        if last and last["t"] * (n / last["n"]) ** 2 > TIME_LIMIT:
            raise ValueError(
                f"not started: predicted {last['t'] * (n / last['n']) ** 2:.0f} s "
                f"> {TIME_LIMIT:.0f} s from its {last['n']:,.0f}-point run"
            )
        t = time.perf_counter()
        ts = TsKKM(n_clusters=2, kernel="rbf", kernel_params={"gamma": GAMMA}, n_init=N_INIT,
                   max_iter=50, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            labels = ts.fit_predict(data[0])
        last.update(t=time.perf_counter() - t, n=n)
        return np.asarray(labels)

    return fit


def methods(with_tslearn: bool) -> dict[str, Callable[[Any], np.ndarray]]:
    out = {
        "ours exact float32": ours_exact,
        f"ours Nystrom m={M}": ours_nystrom,
        f"sklearn Nystroem({M}) + KMeans": sklearn_nystroem("KMeans"),
        f"sklearn Nystroem({M}) + MiniBatchKMeans": sklearn_nystroem("MiniBatchKMeans"),
    }
    if with_tslearn:
        out["tslearn KernelKMeans"] = tslearn_kkm()
    return out


def exact_line(n: int = 50_000) -> str:
    """Exact float32 at ``n`` points (default ``n_init``): wall and CPU seconds, memory."""
    X, _ = make_data(n)
    c0 = time.process_time()
    dt, mb, km = measure_rss(lambda: KernelKMeans(
        2, kernel=RBF(GAMMA), dtype="float32", random_state=0).fit(X))
    cpu = time.process_time() - c0
    return (f"exact {n // 1000}k float32: {dt:.1f} s (n_init='auto' = 10, CPU {cpu:.1f} s on "
            f"2 cores, peak {mb:.0f} MB above start, K alone {n * n * 4 / 2**20:.0f} MB, "
            f"{km.n_iter_} passes of the kept run)")


def guard_line(n: int = 100_000) -> str:
    """The memory guard at ``n`` points: the error, and how long it took to raise."""
    X, _ = make_data(n)
    t = time.perf_counter()
    try:
        KernelKMeans(2, kernel=RBF(GAMMA), dtype="float32", random_state=0).fit(X)
    except MemoryBudgetError as exc:
        return (f"exact {n // 1000}k float32: MemoryBudgetError after "
                f"{time.perf_counter() - t:.2f} s, before allocating: {exc}")
    return f"exact {n // 1000}k: no MemoryBudgetError (the budget was large enough)"


def acceptance(rows: list[dict[str, Any]], n_big: int) -> list[str]:
    """The two acceptance lines (exact at 50,000 points; Nyström at n_big with its ARI against
    the exact method on a 20,000-point subsample)."""
    lines = []
    exact = [r for r in rows if r["method"] == "ours exact float32" and r["n"] == 50_000]
    if exact:
        lines.append(f"exact 50k float32: {exact[0]['seconds']:.1f} s "
                     f"(n_init={N_INIT}, peak {exact[0]['peak_mb']:.0f} MB above start)")
    X, y = make_data(n_big)
    ny = [r for r in rows if r["method"] == f"ours Nystrom m={M}" and r["n"] == n_big]
    if ny and n_big in _LARGEST:  # the curve's own run
        dt, mb, labels = ny[0]["seconds"], ny[0]["peak_mb"], _LARGEST[n_big]
    else:
        dt, mb, labels = measure_rss(lambda: ours_nystrom((X, y)))
    sub = np.random.default_rng(1).choice(n_big, size=min(SUBSAMPLE, n_big), replace=False)
    ref = KernelKMeans(2, kernel=RBF(GAMMA), random_state=0).fit(X[sub])  # n_init="auto"
    ari = adjusted_rand_score(ref.labels_, labels[sub])
    lines.append(
        f"nystrom {n_big / 1e6:g}M: {dt:.1f} s (m={M}, n_init={N_INIT}, peak {mb:.0f} MB), "
        f"ARI vs exact on {sub.size / 1e3:g}k subsample: {ari:.4f} "
        f"(exact vs truth {adjusted_rand_score(y[sub], ref.labels_):.3f}, "
        f"Nystrom vs truth {adjusted_rand_score(y, labels):.3f})"
    )
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 10,000, no tslearn")
    ap.add_argument("--exact-only", action="store_true",
                    help="only the exact 50,000-point line and the memory guard at 100,000")
    args = ap.parse_args(argv)
    if args.exact_only:
        print(exact_line())
        print(guard_line())
        return
    sizes = QUICK_SIZES if args.quick else SIZES
    try:
        import tslearn  # noqa: F401

        have_ts = not args.quick
    except ImportError:
        have_ts = False
        print("tslearn is not installed: its curve is skipped", flush=True)

    def score(data: Any, labels: Any, name: str) -> float:
        return float(adjusted_rand_score(data[1], labels))

    print(f"# kernel k-means scaling, 2-D moons, RBF gamma={GAMMA}, n_init={N_INIT}\n")
    rows = run_curves(methods(have_ts), sizes, make_data, time_limit=TIME_LIMIT, score=score)
    lines = acceptance(rows, sizes[-1])
    if not args.quick:
        lines.append(guard_line())
    suffix = "_quick" if args.quick else ""
    png = plot_curves(rows, RESULTS / f"scale_kernel_kmeans{suffix}.png",
                      f"Kernel k-means, 2-D moons, RBF gamma={GAMMA}")
    text = "\n".join([
        "# Kernel k-means at scale: time and peak memory against N",
        "",
        f"2-D two moons, RBF gamma={GAMMA}, 2 clusters, n_init={N_INIT} for every method, "
        f"Nystrom rank m={M} (uniform landmarks) for ours and scikit-learn's. Score: ARI "
        "against the generating labels. A curve stops where a run exceeds "
        f"{TIME_LIMIT:.0f} s, raises a memory-budget error (ours exact beyond the dense "
        "budget) or is predicted to exceed the limit (tslearn). MiniBatchKMeans runs on "
        "the Nystroem features. Peak memory: resident set above the start of each run. "
        f"Machine: {machine()}; 2 cores shared with other jobs: times are noisy.",
        "",
        curves_table(rows),
        "",
        "## Acceptance",
        "",
        *[f"- {line}" for line in lines],
        "",
        f"![scaling curves]({png.name})",
    ])
    save(f"scale_kernel_kmeans{suffix}", text)


if __name__ == "__main__":
    main()
