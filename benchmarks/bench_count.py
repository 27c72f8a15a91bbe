"""Finding the number of clusters on real data: GP clustering against four other count rules.

The eigengap heuristic (von Luxburg 2007, §8.3) takes the count k ≥ 2 before the largest gap
between consecutive eigenvalues of the normalised affinity D^-1/2 A D^-1/2 of the default
k-nearest-neighbour graph (10 neighbours, symmetrised, as ``SpectralClustering``'s default),
then clusters with ``SpectralClustering(k)``. The two recipes a scikit-learn user reaches for
first: the count k = 1 .. 10 of the ``GaussianMixture`` (full covariances) with the lowest BIC,
and the count k = 2 .. 10 of ``KMeans`` with the highest silhouette. ``GPClustering()`` and
scikit-learn's ``HDBSCAN()`` find their own count. On the standardised sets of
``bench_real.py``: the count found and the adjusted Rand index against the classes.

Run: ``python benchmarks/bench_count.py [--sets NAME ...]``
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.metrics import adjusted_rand_score, silhouette_score
from sklearn.mixture import GaussianMixture
from sklearn.neighbors import kneighbors_graph
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_count
    from _common import machine, save, table
    from bench_real import SETS
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_real import SETS

from kernel_patterns import GPClustering, SpectralClustering

#: counts the eigengap may choose from (2 .. MAX_COUNT)
MAX_COUNT = 20
#: counts the BIC (1 .. MAX_MODEL_COUNT) and the silhouette (2 .. MAX_MODEL_COUNT) choose from
MAX_MODEL_COUNT = 10


def eigengap_count(Z: np.ndarray, n_neighbors: int = 10) -> int:
    """The count k ≥ 2 before the largest gap of the top eigenvalues of D^-1/2 A D^-1/2."""
    A = kneighbors_graph(Z, n_neighbors, include_self=False)
    A = 0.5 * (A + A.T)
    d = np.asarray(A.sum(axis=1)).ravel()
    S = sp.diags(1.0 / np.sqrt(d))
    w = eigh((S @ A @ S).toarray(), eigvals_only=True)[::-1][: MAX_COUNT + 1]
    gaps = w[1:-1] - w[2:]  # gap after the k-th eigenvalue, k = 2 .. MAX_COUNT
    return int(np.argmax(gaps)) + 2


def bic_labels(Z: np.ndarray) -> np.ndarray:
    """Labels of the ``GaussianMixture`` (k = 1 .. MAX_MODEL_COUNT) with the lowest BIC."""
    fits = [GaussianMixture(k, random_state=0).fit(Z) for k in range(1, MAX_MODEL_COUNT + 1)]
    return min(fits, key=lambda g: g.bic(Z)).predict(Z)


def silhouette_labels(Z: np.ndarray) -> np.ndarray:
    """Labels of the ``KMeans`` (k = 2 .. MAX_MODEL_COUNT) with the highest silhouette."""
    fits = [KMeans(k, random_state=0).fit_predict(Z) for k in range(2, MAX_MODEL_COUNT + 1)]
    return max(fits, key=lambda labels: silhouette_score(Z, labels))


def hdbscan_labels(Z: np.ndarray) -> np.ndarray:
    """Labels of ``HDBSCAN()`` with its defaults (noise -1)."""
    return HDBSCAN().fit_predict(Z)


#: the label-free peers of ``GPClustering()`` finding the count: column name → labels of the
#: standardised data (``bench_auto.py``, ``bench_heldout_real.py``, ``bench_blob_grid.py``)
LABEL_FREE = {"HDBSCAN()": hdbscan_labels, "GaussianMixture BIC": bic_labels,
              "KMeans silhouette": silhouette_labels}


def _cell(y: np.ndarray, pred: np.ndarray) -> tuple[int, float, str]:
    found = len(np.unique(pred[pred >= 0]))
    ari = float(adjusted_rand_score(y, pred))
    return found, ari, f"{found} ({ari:.2f})"


def run(names: list[str]) -> str:
    rows = []
    right = np.zeros(5, dtype=int)
    total = np.zeros(5)
    for name in names:
        X, y = SETS[name]()
        Z = StandardScaler().fit_transform(X)
        k = len(np.unique(y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kg = eigengap_count(Z)
            preds = [SpectralClustering(kg, random_state=0).fit_predict(Z),
                     bic_labels(Z), silhouette_labels(Z),
                     GPClustering(random_state=0).fit_predict(Z),
                     HDBSCAN().fit_predict(Z)]
        cells = [_cell(y, p) for p in preds]
        right += [c[0] == k for c in cells]
        total += [c[1] for c in cells]
        rows.append([f"{name} {Z.shape[0]}×{Z.shape[1]}", k, *(c[2] for c in cells)])
        print(rows[-1], flush=True)
    rows.append(["right count / mean ARI", "",
                 *(f"{r} of {len(names)} / {t / len(names):.2f}" for r, t in
                   zip(right, total, strict=True))])
    headers = ["data", "classes", "eigengap + SpectralClustering(k)",
               f"GaussianMixture, best BIC (k ≤ {MAX_MODEL_COUNT})",
               f"KMeans, best silhouette (k ≤ {MAX_MODEL_COUNT})", "GPClustering()",
               "sklearn HDBSCAN()"]
    return "\n".join([
        "# The number of clusters on real data: clusters found (ARI against the classes)", "",
        "Standardised features. Eigengap: the count before the largest gap of the top "
        f"eigenvalues (k = 2 .. {MAX_COUNT}) of the default 10-nearest-neighbour graph's "
        "normalised affinity. BIC: the `GaussianMixture` (full covariances, k = 1 .. "
        f"{MAX_MODEL_COUNT}) of lowest BIC; silhouette: the `KMeans` (k = 2 .. {MAX_MODEL_COUNT}) "
        "of highest silhouette; every estimator with scikit-learn's defaults otherwise. "
        "`python benchmarks/bench_count.py`; " f"{machine()}.", "",
        table(headers, rows),
    ])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    save("count", run(ap.parse_args().sets))


if __name__ == "__main__":
    main()
