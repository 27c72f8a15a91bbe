"""GPClustering() on data of one feature, beside the label-free peers.

On a line the saddle between two basins of the GP variance is the lowest point of the only
path between them, so the ripples of a sample are as deep as real splits. ``GPClustering()``
divides data of one feature into parts of one mode each by Hartigan's dip test instead
(``dip_partition``), and groups the landscape's basins by them. This benchmark
draws ``--draws`` samples (``random_state`` 0, 1, ...) of each generator below at each
size and reports, per generator and size, the mean ARI and the draws given the right
count, for ``GPClustering(random_state=0)``, the label-free peers of ``bench_count.py``
(``HDBSCAN()``, a Gaussian mixture by lowest BIC, ``KMeans`` by highest silhouette),
``GPClustering(n_clusters=k)`` given the generator's number of classes (one cluster on
a one-mode generator) and, with ``--baseline``, ``GPClustering()`` of another tree
(written by ``--write-baseline`` with that tree's package on the path).

Generators (one class where there is one mode; ARI 1 then means one cluster):

* one mode: ``gauss`` (standard normal), ``uniform`` (on [0, 1]), ``t3`` (Student's t,
  3 degrees of freedom), ``expo`` (exponential);
* several: ``two3`` / ``two4`` (two unit normals 3 and 4 apart, equal shares), ``three``
  (three normals of deviation 0.6, 4 apart), ``small5`` (a normal with 5 % of the points in
  a normal of deviation 0.5 eight away), ``blocks`` (two uniform blocks of width 1, 0.2
  apart), ``unequal`` (70 % in a normal of deviation 0.5, 30 % in one of deviation 2, 5
  away), ``t3pair`` (two Student-t samples, 3 degrees of freedom, 8 apart), ``outlier``
  (two unit normals 5 apart, one value of the second moved to 60).

Run: ``python benchmarks/bench_one_feature.py [--sizes 300 1000 3000] [--draws 10]
[--baseline FILE]``; the table is ``results/one_feature.md``.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.metrics import adjusted_rand_score

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_one_feature
    from _common import machine, save, table
    from bench_count import LABEL_FREE
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_count import LABEL_FREE

from kernel_patterns import GPClustering

Sample = tuple[np.ndarray, np.ndarray]  # values, classes


def _one(draw: Callable[[np.random.RandomState, int], np.ndarray]) -> Callable[..., Sample]:
    def make(rng: np.random.RandomState, n: int) -> Sample:
        return draw(rng, n), np.zeros(n, dtype=int)
    return make


def _mixture(means: list[float], stds: list[float], shares: list[float]) -> Callable[..., Sample]:
    def make(rng: np.random.RandomState, n: int) -> Sample:
        y = rng.choice(len(means), size=n, p=shares)
        return rng.normal(np.take(means, y), np.take(stds, y)), y
    return make


def _t3_pair(rng: np.random.RandomState, n: int) -> Sample:
    y = (rng.uniform(size=n) < 0.5).astype(int)
    return rng.standard_t(3, size=n) + 8.0 * y, y


def _outlier(rng: np.random.RandomState, n: int) -> Sample:
    y = (rng.uniform(size=n) < 0.5).astype(int)
    x = rng.normal(size=n) + 5.0 * y
    x[np.argmax(y)] = 60.0  # one value of the second group far out
    return x, y


def _blocks(rng: np.random.RandomState, n: int) -> Sample:
    y = (rng.uniform(size=n) < 0.5).astype(int)
    return rng.uniform(size=n) + 1.2 * y, y


GENERATORS: dict[str, Callable[[np.random.RandomState, int], Sample]] = {
    "gauss": _one(lambda rng, n: rng.normal(size=n)),
    "uniform": _one(lambda rng, n: rng.uniform(size=n)),
    "t3": _one(lambda rng, n: rng.standard_t(3, size=n)),
    "expo": _one(lambda rng, n: rng.exponential(size=n)),
    "two3": _mixture([0.0, 3.0], [1.0, 1.0], [0.5, 0.5]),
    "two4": _mixture([0.0, 4.0], [1.0, 1.0], [0.5, 0.5]),
    "three": _mixture([0.0, 4.0, 8.0], [0.6, 0.6, 0.6], [1 / 3, 1 / 3, 1 / 3]),
    "small5": _mixture([0.0, 8.0], [1.0, 0.5], [0.95, 0.05]),
    "blocks": _blocks,
    "unequal": _mixture([0.0, 5.0], [0.5, 2.0], [0.7, 0.3]),
    "t3pair": _t3_pair,
    "outlier": _outlier,
}


def _gp(x: np.ndarray) -> np.ndarray:
    return GPClustering(random_state=0).fit(x).labels_


def _count(labels: np.ndarray) -> int:
    return len(np.unique(labels[labels >= 0]))


def write_baseline(sizes: list[int], n_draws: int, out: Path) -> None:
    """``GPClustering(random_state=0)`` alone, as JSON ``{"name n": [[ARI, clusters], ...]}``."""
    found: dict[str, list[list[float]]] = {}
    for name, make in GENERATORS.items():
        for n in sizes:
            cells = []
            for seed in range(n_draws):
                x, y = make(np.random.RandomState(seed), n)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    labels = _gp(x[:, None])
                cells.append([float(adjusted_rand_score(y, labels)), _count(labels)])
            found[f"{name} {n}"] = cells
            print(name, n, [c[1] for c in cells], flush=True)
    out.write_text(json.dumps(found))


def _gp_given(x: np.ndarray, k: int) -> np.ndarray:
    return GPClustering(n_clusters=k, random_state=0).fit(x).labels_


def run(sizes: list[int], n_draws: int, baseline: dict[str, list[list[float]]] | None) -> str:
    given = "GPClustering(n_clusters=k)"
    names = ["GPClustering()", *LABEL_FREE, given]
    methods: dict[str, Callable[[np.ndarray], np.ndarray]] = {"GPClustering()": _gp,
                                                              **LABEL_FREE}
    rows = []
    seconds = 0.0
    for name, make in GENERATORS.items():
        for n in sizes:
            ari: dict[str, list[float]] = {k: [] for k in names}
            right = dict.fromkeys(names, 0)
            for seed in range(n_draws):
                x, y = make(np.random.RandomState(seed), n)
                k_true = len(np.unique(y))
                for k in names:
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        labels = (_gp_given(x[:, None], k_true) if k == given
                                  else methods[k](x[:, None]))
                    if k == "GPClustering()":
                        seconds += time.perf_counter() - start
                    ari[k].append(float(adjusted_rand_score(y, labels)))
                    right[k] += _count(labels) == k_true
            row = [f"{name} {n:,}", *(f"{np.mean(ari[k]):.2f} · {right[k]}" for k in names)]
            if baseline is not None:
                cells = baseline[f"{name} {n}"]  # k_true: every draw has the classes
                row.append(f"{np.mean([c[0] for c in cells]):.2f} · "
                           f"{sum(int(c[1]) == k_true for c in cells)}")
            rows.append(row)
            print(" | ".join(rows[-1]), flush=True)
    headers = ["generator, points", *names] + (["GPClustering(), baseline"] if baseline else [])
    return (f"# GPClustering() on one feature, beside the label-free peers\n\n{machine()}\n\n"
            f"Draws `random_state` = 0 to {n_draws - 1} of each generator (the module's "
            f"docstring); cells: mean ARI · draws with the right count. "
            f"`python benchmarks/bench_one_feature.py --baseline "
            f"results/one_feature_baseline.json --sizes {' '.join(map(str, sizes))} "
            f"--draws {n_draws}`. GPClustering(): {seconds / (len(rows) * n_draws):.2f} s "
            f"per fit on average.\n\n{table(headers, rows)}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[300, 1000, 3000])
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--baseline", type=Path, default=None,
                    help="JSON of another tree's GPClustering() (--write-baseline)")
    ap.add_argument("--write-baseline", type=Path, default=None)
    args = ap.parse_args()
    if args.write_baseline is not None:
        write_baseline(args.sizes, args.draws, args.write_baseline)
        return
    baseline = None if args.baseline is None else json.loads(args.baseline.read_text())
    save("one_feature", run(args.sizes, args.draws, baseline))


if __name__ == "__main__":
    main()
