"""How far ``GPClustering()``'s count and ARI move with ``random_state`` alone.

Every ``bench_auto.py`` set (standardised, full sizes), ``GPClustering(random_state=r)`` for
r = 0..9: the count and the ARI of each seed, and per set the spread (largest minus
smallest) of both. Issue 61 asks that the count move by at most one cluster and the ARI by at
most 0.05, or that the table say why. Only the inducing points' subsample and k-means, Hopkins'
test and the shoulder test draw from the seed, so sets of at most ``AUTO_EXACT_MAX`` points
that take neither test do not move at all.

Run: ``python benchmarks/bench_gp_seeds.py [--seeds 10] [--groups ...]``; the table is
written to ``results/gp_seeds.md``.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.metrics import adjusted_rand_score

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_gp_seeds
    from _common import machine, save, table
    from bench_auto import GROUPS, _load, sets
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_auto import GROUPS, _load, sets

from kernel_patterns import GPClustering

#: why a set's count moves with the seed (measured: ``count_trace_.step`` at the seeds that
#: differ), for every set that moves by more than one cluster or 0.05 ARI
SHOULDER = ("one cluster at every seed but one, where the shoulder test (two modes along the "
            "direction two-means finds on a random half, tested on the other half) passes and "
            "the persistent modes are read (step \"shoulder\"); the fit is exact, so those "
            "halves are the only draw that matters")
TOUCHING = ("no reading is the same at two length scales; the first two rungs whose modes agree "
            "(step \"modes stay\"), or none (\"one\"), depend on the inducing points' "
            "subsample of 2,000 of the 5,000 points")
REASONS = {
    "blobs std 1/2/0.5 300": SHOULDER,
    "7 blobs 4-D 600, seed 10": SHOULDER,
    "three touching blobs 5,000": TOUCHING,
    "three touching blobs 5,000, draw 1": TOUCHING,
    "digits": ("the modes at ℓ₀/√2 (step \"modes below the support\") of the inducing "
               "landscape, whose inducing points (k-means) are drawn with the seed: 19 to 24 "
               "basins of 5 points"),
    "cells": ("the support at ℓ₀ of the inducing landscape, 3 to 8 pieces as the inducing "
              "points move; the ARI stays near 0 (0.07 to 0.10): the two classes are not the "
              "density's groups"),
    "leaf": ("the support at ℓ₀ of the inducing landscape, 13 to 16 pieces as the inducing "
             "points move; the ARI moves by 0.03"),
}


def spread(X: np.ndarray, y: np.ndarray, seeds: int) -> tuple[list[int], list[float]]:
    """The count and ARI of ``GPClustering(random_state=r)`` for r < ``seeds``."""
    counts, scores = [], []
    for r in range(seeds):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            labels = GPClustering(random_state=r).fit(X).labels_
        counts.append(len(np.unique(labels[labels >= 0])))
        scores.append(float(adjusted_rand_score(y, labels)))
    return counts, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--groups", nargs="*", default=list(GROUPS))
    args = ap.parse_args()
    rows, moved = [], 0
    for name, load in sets(args.groups, quick=False).items():
        X, y = _load(load)
        counts, scores = spread(X, y, args.seeds)
        dc, da = max(counts) - min(counts), max(scores) - min(scores)
        moved += dc > 1 or da > 0.05
        rows.append([name, X.shape[0], " ".join(map(str, counts)),
                     f"{min(scores):.2f}–{max(scores):.2f}", dc, round(da, 3),
                     "**moves**" if dc > 1 or da > 0.05 else ""])
        print(*rows[-1], sep=" | ", flush=True)
    text = (f"# GPClustering() over random_state 0–{args.seeds - 1}\n\n"
            f"{machine()}\n\n`python benchmarks/bench_gp_seeds.py --seeds {args.seeds}`\n\n"
            + table(["set", "n", "count per seed", "ARI range", "count spread", "ARI spread",
                     ""], rows)
            + f"\n\nSets whose count moves by more than one or ARI by more than 0.05: "
              f"{moved} of {len(rows)}.\n\n"
            + "".join(f"- {row[0]}: {REASONS.get(row[0], 'not yet explained')}.\n"
                      for row in rows if row[-1]))
    print(save("gp_seeds", text))


if __name__ == "__main__":
    main()
