"""GPClustering at scale: exact against inducing points (``approximation="inducing"``).

Three parts, all in this process, on data scaled to [0, 1] as in the GP experiments
(``benchmarks/experiment_gp.py``), kernel ``GPCovariance(v0=1, v1=10, v2=1, l=400)`` for the
2-D shapes and ``l=31, n_clusters=5`` for the 5-D Gaussians (the experiment's settings):

1. scaling curves (wall time and peak resident memory against N, log-log PNG) of the exact
   and the inducing method on the rings, N = 500 … 100,000; the exact method stops where a
   run exceeds the time limit, or where its O(N³) growth from the last run predicts more than
   twice the limit (it is not started then: at 5,000 points it would run for many minutes);
2. acceptance (a): on 2,000 points, the inducing labels against the exact ones (ARI) on the
   rings, the two moons and the 5-D Gaussians, with the defaults (m = 300 inducing points,
   subsample 2,000 = every point flowed) and with a 500-point subsample (the short flow
   assigns the other 1,500);
3. acceptance (b): 100,000 points of rings and of moons with the defaults, end to end
   (validation, inducing points, fit, flows, hierarchy, assignment of every point), under
   60 s, ARI against the true clusters.

Run: ``python benchmarks/bench_scale_gp.py [--quick]`` (``--quick``: N up to 5,000 and
smaller acceptance sets). Writes ``benchmarks/results/scale_gp.md`` and ``scale_gp.png``.
Time it alone: ``flock /tmp/kp-bench.lock python benchmarks/bench_scale_gp.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets
from kernel_patterns.kernels import GPCovariance

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_scale_gp
    from _common import RESULTS, machine, save, table
    from _scaling import curves_table, measure_rss, plot_curves, run_curves
except ImportError:  # pragma: no cover
    from benchmarks._common import RESULTS, machine, save, table
    from benchmarks._scaling import curves_table, measure_rss, plot_curves, run_curves

SIZES = [500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]
QUICK_SIZES = [500, 1000, 2000, 5000]
TIME_LIMIT = 60.0
PAPER = {"v0": 1.0, "v1": 10.0, "v2": 1.0}

Data = tuple[np.ndarray, np.ndarray, dict[str, Any]]


def _trim() -> None:
    """Give freed heap memory back to the OS, so that the next run's peak RSS above its
    start is not hidden by pages the allocator kept from an earlier (larger) run."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: no trim
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _trimmed(fn: Callable[[Data], np.ndarray]) -> Callable[[Data], np.ndarray]:
    def run(data: Data) -> np.ndarray:
        out = fn(data)
        _trim()
        return out

    return run


def _rings_trimmed(n: int) -> Data:
    _trim()
    return rings(n)


def rings(n: int) -> Data:
    X, y = datasets.make_rings((n // 3, n - n // 3), random_state=0)
    return datasets.scale_unit_interval(X), y, {"kernel": GPCovariance(**PAPER, l=400.0)}


def moons(n: int) -> Data:
    X, y = datasets.make_two_moons((n // 2, n - n // 2), random_state=0)
    return datasets.scale_unit_interval(X), y, {"kernel": GPCovariance(**PAPER, l=400.0)}


def gaussians(n: int, n_features: int = 5) -> Data:
    """The 5/10/20-D Gaussian sets; l as in the GP experiment (31, and the hand-set 5 and 2)."""
    X, y = datasets.make_gaussians(n_features, n_per_cluster=n // 5, random_state=1)
    l = {5: 31.0, 10: 5.0, 20: 2.0}[n_features]
    kw = {"kernel": GPCovariance(**PAPER, l=l), "n_clusters": 5}
    return datasets.scale_unit_interval(X), y, kw


def fit_exact(data: Data) -> np.ndarray:
    X, _, kw = data  # named: approximation="auto" takes inducing points past 1,000 points
    return GPClustering(**kw, approximation="exact").fit(X).labels_


def fit_inducing(data: Data, **extra: Any) -> np.ndarray:
    X, _, kw = data
    return GPClustering(**kw, approximation="inducing", random_state=0, **extra).fit(X).labels_


def guarded_exact(time_limit: float, notes: list[str]) -> Callable[[Data], np.ndarray]:
    """The exact fit, refused (ValueError, so run_curves stops it; the reason goes to
    ``notes``) when the O(N³) growth from its last run predicts more than twice the limit."""
    last: dict[str, float] = {}

    def run(data: Data) -> np.ndarray:
        n = data[0].shape[0]
        if last:
            predicted = last["seconds"] * (n / last["n"]) ** 3
            if predicted > 2 * time_limit:
                msg = (f"exact not run at N={n:,}: {last['seconds']:.1f} s at "
                       f"N={last['n']:,.0f} predicts {predicted:,.0f} s (O(N³))")
                notes.append(msg)
                raise ValueError(msg)
        t0 = time.perf_counter()
        out = fit_exact(data)
        last.update(seconds=time.perf_counter() - t0, n=float(n))
        return out

    return run


def curves(sizes: list[int]) -> tuple[str, list[dict[str, Any]]]:
    notes: list[str] = []
    rows = run_curves(
        {"exact": _trimmed(guarded_exact(TIME_LIMIT, notes)),
         "inducing (m=300)": _trimmed(fit_inducing)},
        sizes, _rings_trimmed, time_limit=TIME_LIMIT,
        score=lambda data, labels, name: adjusted_rand_score(data[1], labels),
    )
    return "\n\n".join([curves_table(rows), *notes]), rows


def compare_with_exact(n: int) -> tuple[str, list[str]]:
    out: list[list[Any]] = []
    sets: list[tuple[str, Callable[[int], Data]]] = [
        ("rings", rings), ("two moons", moons),
        *[(f"Gaussians {d}-D", lambda n, d=d: gaussians(n, d)) for d in (5, 10, 20)],
    ]
    for name, make in sets:
        data = make(n)
        t_ex, _, exact = measure_rss(lambda data=data: fit_exact(data))
        for label, extra in [("defaults", {}), ("subsample=500", {"subsample": 500})]:
            t_in, _, ind = measure_rss(lambda data=data, extra=extra: fit_inducing(data, **extra))
            out.append([name, f"{data[0].shape[0]:,}", label, t_ex, t_in,
                        adjusted_rand_score(exact, ind), adjusted_rand_score(data[1], ind),
                        adjusted_rand_score(data[1], exact)])
    lines = []
    for name in dict.fromkeys(r[0] for r in out):
        worst = min(r[5] for r in out if r[0] == name)
        lines.append(f"ACCEPTANCE (a) GPClustering inducing vs exact labels, {n:,} {name}: "
                     f"lowest ARI {worst:.4f} (≥ 0.99): {'PASS' if worst >= 0.99 else 'FAIL'}")
    return table(["data", "N", "inducing", "exact s", "inducing s", "ARI vs exact",
                  "ARI inducing vs truth", "ARI exact vs truth"], out), lines


def large(n: int) -> tuple[str, list[str]]:
    out, lines = [], []
    for name, make in [("rings", rings), ("two moons", moons)]:
        data = make(n)
        X, y, kw = data
        est = GPClustering(**kw, approximation="inducing", random_state=0)
        _trim()
        dt, mb, _ = measure_rss(lambda est=est, X=X: est.fit(X))
        ari = adjusted_rand_score(y, est.labels_)
        out.append([name, f"{n:,}", dt, mb, est.n_clusters_, est.equilibria_.shape[0], ari])
        ok = dt < TIME_LIMIT and ari >= 0.99
        lines.append(f"ACCEPTANCE (b) GPClustering inducing, {n:,} {name}: {dt:.1f} s "
                     f"(limit {TIME_LIMIT:.0f} s), ARI vs truth {ari:.4f}: "
                     f"{'PASS' if ok else 'FAIL'}")
    return table(["data", "N", "seconds", "peak MB", "clusters", "SEPs", "ARI vs truth"],
                 out), lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N up to 5,000; small sets")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    n_compare = 600 if args.quick else 2000
    n_large = 10_000 if args.quick else 100_000

    print(f"# scaling curves, rings, N = {sizes[0]:,} … {sizes[-1]:,}", flush=True)
    curve_text, rows = curves(sizes)
    print(f"# acceptance (a): inducing vs exact labels, {n_compare:,} points", flush=True)
    compare_text, accept_a = compare_with_exact(n_compare)
    print(f"# acceptance (b): {n_large:,} points", flush=True)
    large_text, accept = large(n_large)

    text = "\n\n".join([
        "# GPClustering at scale: exact vs inducing points",
        f"Machine: {machine()}. Measured with other processes sharing the 2 cores unless "
        "run alone; `python benchmarks/bench_scale_gp.py" + (" --quick" if args.quick else "")
        + "`. Kernel GPCovariance(v0=1, v1=10, v2=1, l=400) on data scaled to [0, 1] (the "
        "Gaussians: l=31, n_clusters=5). Inducing defaults: m=300 k-means inducing points, "
        "FITC variance, SEPs from the full flows of a 2,000-point subsample, the other points "
        "by segment check / short flow (random_state=0).",
        "## Scaling curves (rings; score = ARI against the true rings)",
        curve_text,
        "![scaling](scale_gp.png)",
        f"## Acceptance (a): labels of the inducing method against the exact ones, "
        f"{n_compare:,} points",
        compare_text,
        "\n".join(accept_a),
        f"## Acceptance (b): {n_large:,} points end to end",
        large_text,
        "\n".join(accept),
    ])
    plot_curves(rows, RESULTS / "scale_gp.png", "GPClustering, rings")
    save("scale_gp", text)


if __name__ == "__main__":
    main()
