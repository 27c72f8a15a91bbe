"""GPClustering() on many draws of the generators its bars name, beside the label-free peers
and the Bayes rule.

The bars of issue 32 name one draw of each generator. One draw can be lucky or unlucky, so
this benchmark takes ``--draws`` draws (``random_state`` 0, 1, ...) of each, standardises
them, and reports, per generator and size, the mean ARI, the draws read with ARI ≥ 0.9 and
the draws given the right count, for:

* ``GPClustering(random_state=0)``;
* the label-free peers of ``bench_count.py`` (``HDBSCAN()``, a Gaussian mixture by lowest
  BIC, ``KMeans`` by highest silhouette);
* the **Bayes rule**: every point given the class of highest posterior under the generator
  itself (the curves, radii, centres, covariances and noise that drew it; a curve's class
  density integrated over its angle on a grid of ``GRID`` angles). No rule does better on
  average: it is what the sample allows, with the labels known.

Groups (``--groups``):

* ``front``: the documentation front page's four generators
  (``examples/plot_compare_clustering.py``: the paper's two moons 150 + 150, two rings
  100 + 200, three moons 100 each, ``make_blobs`` std 1 / 2 / 0.5), at 300, 1,000 and 5,000
  points (the rings and moons in the same proportions). Its ``random_state=0`` at 300 points
  is the front page's own draw, listed again below the table;
* ``toy``: scikit-learn's toy grid ("Comparing different clustering algorithms on toy
  datasets": circles, moons, varied, aniso, blobs, no structure) at 500 and 1,500 points
  (its own draw is ``random_state=170``, in ``bench_auto.py``). For "no structure" (uniform
  on the square), ARI 1 means one cluster.

Run: ``python benchmarks/bench_draws.py [--groups front toy] [--sizes N ...] [--draws 20]``.
Tables in ``results/draws_<group>.md``.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.special import logsumexp
from scipy.stats import multivariate_normal as mvn
from sklearn import datasets as skd
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_draws
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
    """The upper half circle (the circle, over a whole turn) at the angles ``t``."""
    return np.c_[np.cos(t), np.sin(t)]


def _lower_moon(t: np.ndarray) -> np.ndarray:
    """The second moon of the paper's and scikit-learn's two moons at the angles ``t``."""
    return np.c_[1.0 - np.cos(t), 0.5 - np.sin(t)]


def two_moons(n: int, seed: int) -> Draw:
    counts = [n // 2, n - n // 2]
    X, y = datasets.make_two_moons(counts, random_state=seed)
    t = np.linspace(0, np.pi, GRID)
    return X, y, _curve_bayes(X, [_half(t), _lower_moon(t)], counts, MOON_NOISE)


def ring_counts(n: int) -> list[int]:
    """Points on the inner and the outer ring: the front page's 100 + 200 at 300 points,
    the same proportions at other sizes."""
    inner = 100 if n == 300 else n // 3
    return [inner, n - inner]


def rings(n: int, seed: int) -> Draw:
    counts = ring_counts(n)
    X, y = datasets.make_rings(counts, random_state=seed)
    t = np.linspace(0, 2 * np.pi, GRID, endpoint=False)
    return X, y, _curve_bayes(X, [_half(t), 2.0 * _half(t)], counts, RING_NOISE)


def three_moons(n: int, seed: int) -> Draw:
    X, y = datasets.make_three_moons(n, random_state=seed)
    t = np.linspace(0, np.pi, GRID)
    curves = [_half(t), _lower_moon(t), _half(t) + np.array([3.5, 0.0])]
    return X, y, _curve_bayes(X, curves, np.bincount(y).tolist(), MOON_NOISE)


def _gaussian_bayes(X: np.ndarray, y: np.ndarray, centers: np.ndarray,
                    covs: list[np.ndarray]) -> np.ndarray:
    """The class of highest posterior under Gaussians with priors the classes' shares."""
    logp = np.stack([mvn(c, v).logpdf(X) for c, v in zip(centers, covs, strict=True)], axis=1)
    return np.argmax(logp + np.log(np.bincount(y, minlength=len(covs))), axis=1)


def gaussian_blobs(
    std: list[float], transform: np.ndarray | None = None
) -> Callable[[int, int], Draw]:
    """``make_blobs`` with three centres of deviations ``std`` (mapped by ``transform``)."""

    def make(n: int, seed: int) -> Draw:
        X, y, centers = skd.make_blobs(n, cluster_std=std, random_state=seed,
                                       return_centers=True)
        covs = [s**2 * np.eye(2) for s in std]
        if transform is not None:
            X, centers = X @ transform, centers @ transform
            covs = [transform.T @ c @ transform for c in covs]
        return X, y, _gaussian_bayes(X, y, centers, covs)

    return make


def circles(n: int, seed: int) -> Draw:
    X, y = skd.make_circles(n, factor=0.5, noise=0.05, random_state=seed)
    t = np.linspace(0, 2 * np.pi, GRID, endpoint=False)
    return X, y, _curve_bayes(X, [_half(t), 0.5 * _half(t)], np.bincount(y).tolist(), 0.05)


def moons(n: int, seed: int) -> Draw:
    X, y = skd.make_moons(n, noise=0.05, random_state=seed)
    t = np.linspace(0, np.pi, GRID)
    return X, y, _curve_bayes(X, [_half(t), _lower_moon(t)], np.bincount(y).tolist(), 0.05)


def no_structure(n: int, seed: int) -> Draw:
    zeros = np.zeros(n, dtype=int)
    return np.random.RandomState(seed).rand(n, 2), zeros, zeros


#: scikit-learn's toy grid's anisotropic map
ANISO = np.array([[0.6, -0.6], [-0.4, 0.8]])

GROUPS: dict[str, tuple[dict[str, Callable[[int, int], Draw]], list[int]]] = {
    "front": ({"two moons": two_moons, "rings": rings, "three moons": three_moons,
               "blobs": gaussian_blobs(list(BLOB_STD))}, [300, 1000, 5000]),
    "toy": ({"circles": circles, "moons": moons, "varied": gaussian_blobs([1.0, 2.5, 0.5]),
             "aniso": gaussian_blobs([1.0] * 3, ANISO), "blobs": gaussian_blobs([1.0] * 3),
             "no structure": no_structure}, [500, 1500]),
}


def _gp(X: np.ndarray) -> np.ndarray:
    return GPClustering(random_state=0).fit(X).labels_


def methods() -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """Column name → labels of the standardised data."""
    return {"GPClustering()": _gp, **LABEL_FREE}


def run(group: str, sizes: list[int], n_draws: int) -> str:
    generators = GROUPS[group][0]
    names = ["Bayes rule", *methods()]
    rows: list[list[Any]] = []
    first: list[list[Any]] = []
    for gen, make in generators.items():
        for n in sizes:
            ari: dict[str, list[float]] = {k: [] for k in names}
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
                if group == "front" and seed == 0 and n == 300:
                    first.append([gen, *(f"{ari[k][0]:.2f} "
                                         f"({len(np.unique(labels[k][labels[k] >= 0]))})"
                                         for k in names)])
            rows.append([f"{gen} {n:,}", *(
                f"{np.mean(ari[k]):.2f} · {sum(a >= 0.9 for a in ari[k])} · {right[k]}"
                for k in names)])
            print(" | ".join(str(v) for v in rows[-1]), flush=True)
    out = (f"# GPClustering() on {n_draws} draws of each generator ({group})\n\n{machine()}\n\n"
           f"Standardised; draws `random_state` = 0 to {n_draws - 1}. Cells: mean ARI · "
           f"draws with ARI ≥ 0.9 · draws with the right count. "
           f"`python benchmarks/bench_draws.py --groups {group} --sizes "
           f"{' '.join(map(str, sizes))} --draws {n_draws}`.\n\n"
           f"{table(['generator, points', *names], rows)}\n")
    if first:
        out += (f"\nThe front page's own draw (`random_state=0`, 300 points); cells: ARI "
                f"(clusters):\n\n{table(['generator', *names], first)}\n")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", nargs="+", default=list(GROUPS), choices=list(GROUPS))
    ap.add_argument("--sizes", nargs="+", type=int, default=None,
                    help="points per draw (default: the group's own sizes)")
    ap.add_argument("--draws", type=int, default=20)
    args = ap.parse_args()
    for group in args.groups:
        save(f"draws_{group}", run(group, args.sizes or GROUPS[group][1], args.draws))


if __name__ == "__main__":
    main()
