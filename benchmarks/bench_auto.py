"""GPClustering() finding the count itself, beside the label-free peers, at several sizes.

Sets: scikit-learn's toy grid ("Comparing different clustering algorithms on toy datasets":
circles, moons, varied, aniso, blobs, no structure) at 500, 1,500 and 10,000 points; the
documentation front page's four sets (``examples/plot_compare_clustering.py``) at 300 and 5,000
points of the same generators; ``make_blobs(centers=4, random_state=1)`` and scikit-learn's
moons (noise 0.08) at 800, 3,000 and 30,000 points; three families of
``bench_defaults_time.py`` (two noisy rings, three thin stripes, three touching blobs) at
1,000 and 5,000 points, three draws each, where thin ridges of 1,000 points split at gaps of
the sample (``results/gp_design_notes.md``); seven overlapping blobs in 4, 9 and 16 dimensions
(``make_blobs(n, n_features=d, centers=7, cluster_std=2.5)``, seeds 10 to 12) at 200 and 600
points, where the support at ℓ₀ joins groups that shorter length scales keep apart; and the
23 real sets of ``bench_real.py``. Every set is
standardised; nothing is tuned per set. Peers, all without labels: ``HDBSCAN()``, a Gaussian
mixture with k = 1..10 by lowest BIC and ``KMeans`` with k = 2..10 by highest silhouette
(``bench_count.py``). Each cell: ARI (clusters found, seconds).

Run: ``python benchmarks/bench_auto.py [--groups toy front size families overlap real]
[--quick]``
(``--quick``: the small sizes only). Table in ``results/gp_auto.md`` (``gp_auto_quick.md``).

The column "GP() at the issue's start" is the rule this benchmark was written to replace
(main at 27e79f9), read from ``results/gp_auto_baseline.json``, which
``--baseline-out FILE`` writes with that tree's package on the path::

    git worktree add --detach /tmp/base 27e79f9
    PYTHONPATH=/tmp/base/src python benchmarks/bench_auto.py --baseline-out \
        benchmarks/results/gp_auto_baseline.json

Every set that falls more than 0.05 below it is listed under the table with its measured
reason (``REASONS``).
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from sklearn import datasets as skd
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_auto
    from _common import machine, save, table
    from bench_count import LABEL_FREE
    from bench_defaults_time import FAMILIES
    from bench_draws import ANISO, ring_counts
    from bench_real import SETS
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_count import LABEL_FREE
    from benchmarks.bench_defaults_time import FAMILIES
    from benchmarks.bench_draws import ANISO, ring_counts
    from benchmarks.bench_real import SETS

from kernel_patterns import GPClustering, datasets

XY = tuple[np.ndarray, np.ndarray]
GROUPS = ("toy", "front", "size", "families", "overlap", "real")

BASELINE = Path(__file__).parent / "results" / "gp_auto_baseline.json"
#: why a set falls more than 0.05 below the issue's start, as measured
#: (``benchmarks/results/gp_design_notes.md`` has the figures)
REASONS: dict[str, str] = {
    "blobs std 1/2/0.5 300": (
        "the issue's start read the modes that persisted best (5 at √2 ℓ₀, agreement 0.90 "
        "with the 4 at 2ℓ₀, above the tuned MODE_PERSIST_ARI = 0.5 the issue removed). The "
        "std-2 blob is a shoulder of the std-1 blob in the generating density (its peak 0.45 % "
        "above the saddle). Now the excess of mass at ℓ₀ keeps the whole, the support at ℓ₀ is "
        "one piece and the modes are the same at no two length scales (15 / 7 / 5 / 4 / 2 "
        "modes, agreements 0.75 / 0.90 / 0.51), and along the direction two-means finds the "
        "points have one mode (Silverman's test p 0.07 at random_state=0), so the persistent "
        "modes are not read: one cluster, with the warning. No method reaches the issue's "
        "0.9 on these blobs: the Bayes rule with the generating centres "
        "and deviations has ARI 0.79 here and 0.77 at 5,000 points."),
}


def toy(n: int) -> dict[str, Callable[[], XY]]:
    """scikit-learn's toy grid at ``n`` points (its own seeds)."""

    def aniso() -> XY:
        X, y = skd.make_blobs(n, random_state=170)
        return X @ ANISO, y

    def uniform() -> XY:
        return np.random.RandomState(170).rand(n, 2), np.zeros(n, dtype=int)

    return {
        f"circles {n:,}": lambda: skd.make_circles(n, factor=0.5, noise=0.05, random_state=170),
        f"moons {n:,}": lambda: skd.make_moons(n, noise=0.05, random_state=170),
        f"varied {n:,}": lambda: skd.make_blobs(n, cluster_std=[1.0, 2.5, 0.5],
                                                random_state=170),
        f"aniso {n:,}": aniso,
        f"blobs {n:,}": lambda: skd.make_blobs(n, random_state=170),
        f"no structure {n:,}": uniform,
    }


def front(n: int) -> dict[str, Callable[[], XY]]:
    """The front page's four sets; at 300 points exactly the figure's."""
    h = n // 2
    return {
        f"two moons (paper) {n:,}": lambda: datasets.make_two_moons((h, n - h), random_state=0),
        f"rings (paper) {n:,}": lambda: datasets.make_rings(ring_counts(n), random_state=0),
        f"three moons (paper) {n:,}": lambda: datasets.make_three_moons(n, random_state=0),
        f"blobs std 1/2/0.5 {n:,}": lambda: skd.make_blobs(
            n, centers=3, cluster_std=[1.0, 2.0, 0.5], random_state=0),
    }


def sizes(n: int) -> dict[str, Callable[[], XY]]:
    """The two distributions whose count must not change with n."""
    return {
        f"make_blobs(centers=4) {n:,}": lambda: skd.make_blobs(n, centers=4, random_state=1),
        f"moons noise 0.08 {n:,}": lambda: skd.make_moons(n, noise=0.08, random_state=0),
    }


def families(n: int) -> dict[str, Callable[[], XY]]:
    """Three families of ``bench_defaults_time.py`` at ``n`` points, three draws each (seeds
    0, 1 and 2; one draw of a thousand points can be lucky): two noisy rings and three thin
    stripes, ridges whose sample has gaps, and three touching blobs."""
    names = {"rings": "two noisy rings", "stripes": "three thin stripes",
             "touching blobs": "three touching blobs"}
    return {f"{label} {n:,}" + (f", draw {seed}" if seed else ""):
            (lambda name=name, seed=seed: FAMILIES[name](n, seed))
            for name, label in names.items() for seed in range(3)}


def overlap(n: int) -> dict[str, Callable[[], XY]]:
    """Seven overlapping blobs in 4, 9 and 16 dimensions at ``n`` points, three draws each
    (seeds 10 to 12: none of them was looked at while the rule was designed)."""
    return {f"7 blobs {d}-D {n:,}, seed {seed}":
            (lambda d=d, seed=seed: skd.make_blobs(n, n_features=d, centers=7, cluster_std=2.5,
                                                   random_state=seed))
            for d in (4, 9, 16) for seed in (10, 11, 12)}


def cell(y: np.ndarray, fit: Callable[[], np.ndarray]) -> tuple[float, str]:
    """The ARI of ``fit()``'s labels against ``y`` and the table cell "ARI (clusters, seconds)"
    (noise, -1, is no cluster); warnings are silenced."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = fit()
    secs = time.perf_counter() - t0
    ari = float(adjusted_rand_score(y, pred))
    return ari, f"{ari:.2f} ({len(np.unique(pred[pred >= 0]))}, {secs:.1f} s)"


def _gp_reading(X: np.ndarray) -> tuple[np.ndarray, str]:
    gp = GPClustering(random_state=0).fit(X)
    trace = gp.count_trace_
    return gp.labels_, f"{trace.reading} at {trace.factor:.2f} ℓ₀"


def sets(groups: list[str], quick: bool) -> dict[str, Callable[[], XY]]:
    """Every set of ``groups`` by name, loaded on call."""
    loads: dict[str, Callable[[], XY]] = {}
    for n in (500,) if quick else (500, 1500, 10_000):
        if "toy" in groups:
            loads.update(toy(n))
    for n in (300,) if quick else (300, 5000):
        if "front" in groups:
            loads.update(front(n))
    for n in (800, 3000) if quick else (800, 3000, 30_000):
        if "size" in groups:
            loads.update(sizes(n))
    for n in (1000,) if quick else (1000, 5000):
        if "families" in groups:
            loads.update(families(n))
    for n in (200,) if quick else (200, 600):
        if "overlap" in groups:
            loads.update(overlap(n))
    if "real" in groups:
        loads.update(SETS)
    return loads


def _load(load: Callable[[], XY]) -> XY:
    X, y = load()
    return StandardScaler().fit_transform(np.asarray(X, dtype=float)), np.asarray(y)


def write_baseline(groups: list[str], quick: bool, out: Path) -> None:
    """``GPClustering(random_state=0)`` alone on every set, as JSON ``{set: [ARI, clusters]}``
    (run with the baseline tree's package on the path)."""
    result: dict[str, list[float]] = {}
    for name, load in sets(groups, quick).items():
        X, y = _load(load)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pred = GPClustering(random_state=0).fit(X).labels_
        result[name] = [float(adjusted_rand_score(y, pred)),
                        len(np.unique(pred[pred >= 0]))]
        print(name, result[name], flush=True)
    out.write_text(json.dumps(result, indent=1) + "\n")


def run(groups: list[str], quick: bool) -> str:
    base = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    rows: list[list[Any]] = []
    means: dict[str, list[float]] = {k: [] for k in ("gp", *LABEL_FREE, "base")}
    real: dict[str, list[float]] = {k: [] for k in means}
    blobs: dict[str, list[float]] = {k: [] for k in means}  # the overlapping blobs
    fallen: list[str] = []
    for name, load in sets(groups, quick).items():
        X, y = _load(load)
        reading: dict[str, str] = {}

        def gp(X: np.ndarray = X, reading: dict[str, str] = reading) -> np.ndarray:
            labels, reading["how"] = _gp_reading(X)
            return labels

        cells = {"gp": cell(y, gp)}
        cells.update({name: cell(y, lambda X=X, peer=peer: peer(X))
                      for name, peer in LABEL_FREE.items()})
        for k, (ari, _) in cells.items():
            means[k].append(ari)
            if name in SETS:
                real[k].append(ari)
            if name.startswith("7 blobs"):
                blobs[k].append(ari)
        was = base.get(name)
        if was is not None:
            means["base"].append(was[0])
            if name in SETS:
                real["base"].append(was[0])
            if cells["gp"][0] < was[0] - 0.05:
                fallen.append(name)
        rows.append([name, X.shape[0], len(np.unique(y)), *(c[1] for c in cells.values()),
                     "" if was is None else f"{was[0]:.2f} ({was[1]})", reading["how"]])
        print(" | ".join(str(v) for v in rows[-1]), flush=True)
    for label, got in (("**mean ARI**", means),
                       (f"**mean ARI, the {len(blobs['gp'])} overlapping blob sets**", blobs),
                       (f"**mean ARI, the {len(real['gp'])} real sets**", real)):
        if got["gp"]:
            rows.append([label, "", "", *(f"**{np.mean(v):.3f}**" if v else ""
                                          for v in got.values()), ""])
    headers = ["set", "n", "classes", "GPClustering()", *LABEL_FREE,
               "GP() at the issue's start", "GP reading kept"]
    notes = "".join(f"- **{name}**: {REASONS.get(name, 'not yet explained')}\n"
                    for name in fallen)
    return (f"# GPClustering() finding the count, beside the label-free peers\n\n"
            f"{machine()}\n\nCells: ARI (clusters found, seconds); the issue's start: "
            f"ARI (clusters) of `GPClustering()` at 27e79f9. Groups: "
            f"{', '.join(groups)}{' (quick)' if quick else ''}.\n\n{table(headers, rows)}\n"
            + (f"\nMore than 0.05 below the issue's start:\n\n{notes}" if fallen else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", nargs="+", default=list(GROUPS), choices=list(GROUPS))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--baseline-out", type=Path,
                    help="write GPClustering()'s ARI and count per set as JSON and stop")
    args = ap.parse_args()
    if args.baseline_out is not None:
        write_baseline(args.groups, args.quick, args.baseline_out)
        return
    text = run(args.groups, args.quick)
    suffix = "" if set(args.groups) == set(GROUPS) else "_" + "_".join(
        args.groups)
    save(f"gp_auto{suffix}{'_quick' if args.quick else ''}", text)


if __name__ == "__main__":
    main()
