"""Experiment: every matrix × assignment of SpectralClustering next to scikit-learn's.

On the rings, two moons and "ICASSP" letters data (one RBF kernel matrix per data set, shared
by every method), runs ``kernel_patterns.SpectralClustering`` for each ``matrix`` in
{K, random_walk, normalized, laplacian} and ``assign`` in {recluster, eigenvector, qr,
threshold (two-cluster data only)}, and scikit-learn's ``SpectralClustering`` (affinity
"precomputed") with each of its ``assign_labels`` (kmeans, discretize, cluster_qr). Prints a
Markdown table of the adjusted Rand index against the true labels and the wall time.

Run: ``kernel-patterns reproduce spectral`` (or ``python benchmarks/experiment_spectral.py``).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.cluster import SpectralClustering as SkSpectralClustering
from sklearn.metrics import adjusted_rand_score

from ..cluster import SpectralClustering
from ..datasets import make_icassp_logo, make_rings, make_two_moons
from ..kernels import RBF

NAME = "spectral"
TITLE = "Spectral clustering (Shawe-Taylor & Cristianini §8.2.3): every matrix × assignment"
#: the demo step that draws this experiment\'s figures (run beside it by ``reproduce``)
FIGURES = "spectral"

MATRICES = ("K", "random_walk", "normalized", "laplacian")
ASSIGNS = ("recluster", "eigenvector", "qr", "threshold")
SK_ASSIGNS = ("kmeans", "discretize", "cluster_qr")


def _data() -> dict[str, tuple[np.ndarray, np.ndarray, float]]:
    rings = make_rings(random_state=0)
    moons = make_two_moons(random_state=0)
    letters = make_icassp_logo(random_state=0)
    return {
        "rings (300, k=2)": (*rings, 10.0),
        "two moons (200, k=2)": (*moons, 20.0),
        "ICASSP letters (280, k=6)": (*letters, 50.0),
    }


REPEATS = 3


def _run(est: Any, K: np.ndarray) -> tuple[np.ndarray, float, int]:
    """Labels, median wall time of REPEATS fits, number of warnings of one fit."""
    times = []
    for _ in range(REPEATS):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t0 = time.perf_counter()
            labels = est.fit(K).labels_
            times.append(time.perf_counter() - t0)
    return labels, float(np.median(times)), len(caught)


def run(out_dir: Path, quick: bool = False) -> str:
    """The ARI/time table as Markdown (the same fits with ``quick``: it takes seconds)."""
    sets = _data()
    columns = list(sets)
    results: dict[str, dict[str, str]] = {}
    for name, (X, y, gamma) in sets.items():
        K = RBF(gamma)(X)
        k = int(np.unique(y).size)
        for matrix in MATRICES:
            for assign in ASSIGNS:
                row = f"kernel_patterns {matrix} / {assign}"
                if assign == "threshold" and k != 2:
                    results.setdefault(row, {})[name] = "(k=2 only)"
                    continue
                est = SpectralClustering(k, kernel="precomputed", matrix=matrix,
                                         assign=assign, random_state=0)
                labels, t, n_warn = _run(est, K)
                mark = " ⚠" if n_warn else ""
                results.setdefault(row, {})[name] = (
                    f"{adjusted_rand_score(y, labels):.3f} ({t * 1000:.0f} ms){mark}"
                )
        for assign in SK_ASSIGNS:
            row = f"scikit-learn normalized / {assign}"
            est = SkSpectralClustering(k, affinity="precomputed", assign_labels=assign,
                                       random_state=0)
            labels, t, n_warn = _run(est, K)
            mark = " ⚠" if n_warn else ""
            results.setdefault(row, {})[name] = (
                f"{adjusted_rand_score(y, labels):.3f} ({t * 1000:.0f} ms){mark}"
            )
    gammas = ", ".join(f"{n.split(' (')[0]} γ={g:g}" for n, (_, _, g) in sets.items())
    lines = [f"ARI against the true labels (wall time), one RBF matrix per data set ({gammas}); "
             f"median of {REPEATS} fits; ⚠ = the run warned.", "",
             "| method (matrix / assign) | " + " | ".join(columns) + " |",
             "|---|" + "---:|" * len(columns)]
    for row, cells in results.items():
        lines.append(f"| {row} | " + " | ".join(cells.get(c, "") for c in columns) + " |")
    return "\n".join(lines) + "\n"
