"""GPClustering() finding the count of Gaussian blobs in 4 to 16 dimensions, beside the peers.

216 sets of ``make_blobs(n, n_features=d, centers=c, cluster_std=s, random_state=r)``: n 200
and 600, d 4, 6, 9 and 16, c 3, 5 and 7, s 1.5, 2.0 and 2.5, r 10, 11 and 12, each
standardised. The grid was fixed before any count rule was measured on it; the rules it
judged are in ``results/gp_design_notes.md``. In several dimensions overlapping blobs are
where a density's splits fall below its noise: the points lie far above the minima, and a
reading of the density has to tell groups from ripples with few points per group.

Peers, all without labels, as in ``bench_auto.py``: ``HDBSCAN()``, a Gaussian mixture with
k = 1..10 by lowest BIC, and ``KMeans`` with k = 2..10 by highest silhouette. The table gives
the mean ARI by dimension, size and deviation, and the sets where each method found the
number of centres.

Run: ``python benchmarks/bench_blob_grid.py`` (about ten minutes on two cores). Table in
``results/blob_grid.md``.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_blob_grid
    from _common import machine, save, table
    from bench_count import LABEL_FREE
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_count import LABEL_FREE

from kernel_patterns import GPClustering

SIZES, DIMS, CENTRES = (200, 600), (4, 6, 9, 16), (3, 5, 7)
STDS, SEEDS = (1.5, 2.0, 2.5), (10, 11, 12)
METHODS = ("GPClustering()", *LABEL_FREE)


def _labels(method: str, X: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "GPClustering()":
            return GPClustering(random_state=0).fit(X).labels_
        return LABEL_FREE[method](X)


def run() -> str:
    scores: list[dict[str, Any]] = []
    for n, d, c, s, r in itertools.product(SIZES, DIMS, CENTRES, STDS, SEEDS):
        X, y = make_blobs(n, n_features=d, centers=c, cluster_std=s, random_state=r)
        X = StandardScaler().fit_transform(X)
        row: dict[str, Any] = {"n": n, "d": d, "s": s}
        for method in METHODS:
            pred = _labels(method, X)
            found = len(np.unique(pred[pred >= 0]))
            row[method] = (float(adjusted_rand_score(y, pred)), found == c)
        scores.append(row)
        print(n, d, c, s, r, *(f"{row[m][0]:.2f}" for m in METHODS), flush=True)

    def line(name: str, keep: list[dict[str, Any]]) -> list[Any]:
        return [name, len(keep), *(f"{np.mean([k[m][0] for k in keep]):.3f} "
                                   f"({sum(k[m][1] for k in keep)})" for m in METHODS)]

    rows = [line(f"{d}-D", [k for k in scores if k["d"] == d]) for d in DIMS]
    rows += [line(f"{n} points", [k for k in scores if k["n"] == n]) for n in SIZES]
    rows += [line(f"deviation {s}", [k for k in scores if k["s"] == s]) for s in STDS]
    rows.append(line("**all**", scores))
    headers = ["sets", "count", *METHODS]
    return (f"# Gaussian blobs in 4 to 16 dimensions: the count found without labels\n\n"
            f"{machine()}\n\n`python benchmarks/bench_blob_grid.py`: the 216 sets of its "
            f"docstring, standardised. Cells: mean ARI (sets where the number of centres was "
            f"found).\n\n{table(headers, rows)}\n")


def main() -> None:
    save("blob_grid", run())


if __name__ == "__main__":
    main()
