"""The front page's four sets on many draws: GPClustering() beside the label-free peers and
the Bayes rule.

The documentation's front page (``examples/plot_compare_clustering.py``) shows one draw
(``random_state=0``) of each of its four generators at 300 points: the paper's two moons
(150 + 150), two rings (100 + 200), three moons (100 each) and three blobs (``make_blobs``,
std 1 / 2 / 0.5). One draw can be lucky or unlucky, so this benchmark takes ``--draws``
draws (``random_state`` 0, 1, ...) of each at ``--sizes`` points (the rings and the moons
in the same proportions), standardises them as the front page does, and reports, per
generator and size, the mean ARI, the draws read with ARI ≥ 0.9 and the draws given the
right count, for:

* ``GPClustering(random_state=0)``;
* the label-free peers of ``bench_count.py`` (``HDBSCAN()``, a Gaussian mixture by lowest
  BIC, ``KMeans`` by highest silhouette);
* the **Bayes rule**: every point given the class of highest posterior under the generator
  itself (the curves, radii, centres and noise that drew it; the moons' and rings'
  class densities integrated over their uniform angle on a grid of ``GRID`` angles). No
  rule can do better on average; it is what the sample allows, with the labels known.

The draw ``random_state=0`` is the front page's own; its row is listed too.

Run: ``python benchmarks/bench_front_draws.py [--sizes 300 1000 5000] [--draws 20]``.
Table in ``results/front_draws.md``.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.special import logsumexp
from sklearn import datasets as skd
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_front_draws
    from _common import machine, save, table
    from bench_count import LABEL_FREE
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_count import LABEL_FREE

from kernel_patterns import GPClustering, datasets

#: angles per curve over which the Bayes rule integrates a moon's or a ring's density
GRID = 2000
#: the noise of the front page's generators (their defaults in ``kernel_patterns.datasets``)
MOON_NOISE, RING_NOISE = 0.06, 0.08
BLOB_STD = (1.0, 2.0, 0.5)

Draw = tuple[np.ndarray, np.ndarray, np.ndarray]  # X, y, the Bayes rule's labels


def _curve_bayes(X: np.ndarray, curves: list[np.ndarray], counts: list[int],
                 noise: float) -> np.ndarray:
    """The class of highest posterior: each class a curve (points on a uniform grid of its
    angle) blurred by isotropic Gaussian noise, with prior its share of the points."""
    logp = []
    for C, k in zip(curves, counts, strict=True):
        d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        logp.append(logsumexp(-d2 / (2 * noise**2), axis=1) - np.log(len(C)) + np.log(k))
    return np.argmax(np.stack(logp, axis=1), axis=1)


def _half(t: np.ndarray) -> np.ndarray:
    return np.c_[np.cos(t), np.sin(t)]


def two_moons(n: int, seed: int) -> Draw:
    counts = [n // 2, n - n // 2]
    X, y = datasets.make_two_moons(counts, random_state=seed)
    t = np.linspace(0, np.pi, GRID)
    curves = [_half(t), np.c_[1.0 - np.cos(t), 0.5 - np.sin(t)]]
    return X, y, _curve_bayes(X, curves, counts, MOON_NOISE)


def rings(n: int, seed: int) -> Draw:
    inner = 100 if n == 300 else n // 3  # the front page's 100 + 200
    counts = [inner, n - inner]
    X, y = datasets.make_rings(counts, random_state=seed)
    t = np.linspace(0, 2 * np.pi, GRID, endpoint=False)
    return X, y, _curve_bayes(X, [_half(t), 2.0 * _half(t)], counts, RING_NOISE)


def three_moons(n: int, seed: int) -> Draw:
    X, y = datasets.make_three_moons(n, random_state=seed)
    t = np.linspace(0, np.pi, GRID)
    curves = [_half(t), np.c_[1.0 - np.cos(t), 0.5 - np.sin(t)], _half(t) + np.array([3.5, 0.0])]
    return X, y, _curve_bayes(X, curves, np.bincount(y).tolist(), MOON_NOISE)


def blobs(n: int, seed: int) -> Draw:
    X, y, centers = skd.make_blobs(n, centers=3, cluster_std=list(BLOB_STD),
                                   random_state=seed, return_centers=True)
    std = np.asarray(BLOB_STD)
    d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    logp = (-d2 / (2 * std**2) - X.shape[1] * np.log(std) + np.log(np.bincount(y)))
    return X, y, np.argmax(logp, axis=1)


GENERATORS: dict[str, Callable[[int, int], Draw]] = {
    "two moons": two_moons, "rings": rings, "three moons": three_moons, "blobs": blobs}


def _gp(X: np.ndarray) -> np.ndarray:
    return GPClustering(random_state=0).fit(X).labels_


def methods() -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """Column name → labels of the standardised data."""
    return {"GPClustering()": _gp, **LABEL_FREE}


def run(sizes: list[int], n_draws: int) -> str:
    names = ["Bayes rule", *methods()]
    rows: list[list[Any]] = []
    front: list[list[Any]] = []
    for gen, make in GENERATORS.items():
        for n in sizes:
            ari = {k: [] for k in names}
            right = dict.fromkeys(names, 0)
            for seed in range(n_draws):
                X, y, bayes = make(n, seed)
                Z = StandardScaler().fit_transform(X)
                k_true = len(np.unique(y))
                labels = {"Bayes rule": bayes}
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    labels.update({k: fit(Z) for k, fit in methods().items()})
                for k, pred in labels.items():
                    ari[k].append(float(adjusted_rand_score(y, pred)))
                    right[k] += len(np.unique(pred[pred >= 0])) == k_true
                if seed == 0 and n == 300:
                    front.append([gen, *(f"{ari[k][0]:.2f} "
                                         f"({len(np.unique(labels[k][labels[k] >= 0]))})"
                                         for k in names)])
            rows.append([f"{gen} {n:,}", *(
                f"{np.mean(ari[k]):.2f} · {sum(a >= 0.9 for a in ari[k])} · {right[k]}"
                for k in names)])
            print(" | ".join(str(v) for v in rows[-1]), flush=True)
    out = (f"# The front page's sets on {n_draws} draws each\n\n{machine()}\n\n"
           f"Standardised, as on the front page; draws `random_state` = 0 to {n_draws - 1}. "
           f"Cells: mean ARI · draws with ARI ≥ 0.9 · draws with the right count. "
           f"`python benchmarks/bench_front_draws.py --sizes {' '.join(map(str, sizes))} "
           f"--draws {n_draws}`.\n\n{table(['generator, points', *names], rows)}\n")
    if front:
        out += (f"\nThe front page's own draw (`random_state=0`, 300 points); cells: ARI "
                f"(clusters):\n\n{table(['generator', *names], front)}\n")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[300, 1000, 5000])
    ap.add_argument("--draws", type=int, default=20)
    args = ap.parse_args()
    save("front_draws", run(args.sizes, args.draws))


if __name__ == "__main__":
    main()
