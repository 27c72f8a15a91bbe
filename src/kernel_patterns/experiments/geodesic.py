"""Reproduce Table 1 and the Iris / Wine rows of Table 3 of "Soft geodesic kernel k-means"
(Kim, Shim & Choi; file 004): per row, the paper's figure, ours with the paper's stated
settings and ours with the library's defaults, as Markdown.

Paper's settings (as far as they are stated): stiffness β = 0.6 (two moons), 0.03 (three
moons), 0.03 (logo) in Table 1; 0.6 (Iris), 0.03 (Wine) in Table 3; random initial
assignments (here random hard assignments, ``init="random"``, one start); 10 runs (seeds
0..9), the mean reported. "Kernel size" σ of the RBF kernel is read as
k(x, y) = exp(−‖x − y‖² / (2σ²)). Wine is whitened (zero mean, unit variance). The geodesic
kernel is built once per data set and neighbourhood size and passed precomputed (the same K
the estimator builds from ``GeodesicKernel(n_neighbors=...)``).

Library's defaults: ``SoftKernelKMeans(k)`` with the same kernel (the neighbourhood size or
kernel size is the table's own axis, and k is an input of the method): ``beta="auto"``,
``init="k-means++"``, ``n_init="auto"`` (10 restarts, the one of lowest free energy eq. 3
kept: chosen by the objective, never by the labels), ``random_state=0``: one fit per cell.

Accuracy: the mean of the per-class accuracies after the best one-to-one matching of
clusters to classes. Measured: Table 1's two-moons figures 94.792 and 92.188 are not k/200
for any k (nor a mean of 10 such values: 10 × 200 × 0.94792 = 1895.84 is not an integer);
they are (100 + 86/96 · 100) / 2 and (100 + 81/96 · 100) / 2, the mean over the two classes
(104 and 96 points) of the per-class accuracy with 10 and 15 errors in the smaller class.
Table 1's caption says so ("mean of each accuracy").

Why rows differ (measured with ``python`` on this machine; the numbers are in the tables the
run writes unless said otherwise):

- **β's scale, the critical stiffness.** Soft k-means has a phase transition (deterministic
  annealing): below β_c = 1 / (2 λ_max), λ_max the largest eigenvalue of the data's
  covariance in feature space (of HKH / N), the only fixed point gives every point the same
  responsibilities, and argmax picks noise. The tables print β_c. With a normalised RBF
  kernel every feature-space squared distance is at most 2, so β_c is 1.7–5.6 on the three
  toy sets and 1.84 on Iris at σ = 0.948: the paper's β = 0.03 (toy sets) and 0.6 (Iris) are
  below it whatever the data's units. Measured on Iris, σ = 0.948: β = 0.6 gives mean
  responsibility max 0.33 (uniform) and 66.7 % (class 2 at 0 %); β = 3 gives 92.7 %, β = 10
  and ``"auto"`` (13.7) 90.0 %, the paper's 90.2. Reading σ as exp(−d²/σ²) instead changes
  66.7 → 66.7 at β = 0.6 and 92.7 → 93.3 at β = 3: the parametrisation is not the cause.
  For the geodesic kernel, distances are in the data's units, so the paper's β only carries
  over at its (unknown) data scale: on our three moons β_c = 0.006–0.02 (β = 0.03 is barely
  above it), on our logo 0.003–0.016. β_c is only the first split: the further splits come
  at larger β, and with β = 0.03 on the logo only 4 or 5 of the 6 clusters hold a point
  (the fit warns; 61–67 % for k ≥ 6). ``beta="auto"`` (10 / mean squared distance to the
  mean, about 16–18 × β_c here) gives the logo 100 % for k = 5..12.
- **Random hard starts.** With one random start per run, β = 10 gave 86.5 % mean on three
  moons (k ≥ 8) with one run at 51.3 %, and 57–61 % on the logo (k = 4..10), where the best
  of the same 10 starts by objective gives 95.3 % and 79.6–81.4 %. The defaults' 10 restarts
  chosen by the free energy give the logo 100 % for k = 6..12 (92 % at k = 4).
- **Data geometry (three moons).** The paper's figures are not in our copy of the text; our
  generator draws its own moons (noise 0.06, third moon's tip 0.7 from the second's). For
  k ≥ 8 the true labelling is *not* the minimum of the kernel k-means objective on our
  sample: the partition found has a lower objective than the classes (the "J ratio"
  column: 1.028–1.035 for k = 8..12, 1.071 at k = 4; 1.000 for k = 5..7, where the defaults
  give 100 %; on the logo 1.052 at k = 4, 1.000 for k = 5..12). No optimiser of the
  paper's objective returns the classes there; the paper's 99.3–99.7 % at k = 8..12 needs
  moons that the k-nearest-neighbour graph keeps further apart than ours (noise 0.06 on
  unit-radius moons).
- **RBF rows.** At β = 0.03 every RBF row is below β_c, so the paper's-settings column is
  noise around a uniform assignment (58–71 % on three moons); the paper's 78–99.7 % cannot
  come from eq. 7 with β = 0.03 and a normalised RBF kernel. Hard kernel k-means (random
  start, 10 runs) gives 62–83 % on three moons, so neither reading reproduces the row.

The 20 Newsgroups rows need a corpus that cannot be fetched here (errata 6).

Run: ``kernel-patterns reproduce geodesic`` (or ``python benchmarks/experiment_geodesic.py``).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from .._parallel import limit_threads
from ..cluster import SoftKernelKMeans
from ..datasets import (
    load_iris,
    load_wine,
    make_icassp_logo,
    make_three_moons,
    make_two_moons,
    whiten,
)
from ..kernels import RBF, GeodesicKernel

NAME = "geodesic"
TITLE = "Soft geodesic kernel k-means (Kim, Shim & Choi): Tables 1 and 3 reproduced"
#: the demo step that draws this experiment\'s figures (run beside it by ``reproduce``)
FIGURES = "kernel_kmeans"

NEIGHBOURS = [4, 5, 6, 7, 8, 9, 10, 11, 12]
SIZES = [0.32, 0.55, 0.71, 0.84, 0.95, 1.05, 1.14, 1.22, 1.30]
PAPER_T1 = {
    ("geodesic", "Two moons"): [100, 100, 100, 100, 100, 100, 100, 94.792, 92.188],
    ("geodesic", "Three moons"): [100, 100, 100, 100, 99.667, 99.333, 99.333, 99.333, 99.333],
    ("geodesic", "'ICASSP' logo"): [100, 100, 100, 100, 100, 100, 100, 83.333, 81.899],
    ("rbf", "Two moons"): [100, 75.321, 73.397, 72.917, 71.955, 70.994, 70.994, 70.994, 70.994],
    ("rbf", "Three moons"): [78.0, 81.0, 89.333, 99.667, 95.667, 96.0, 96.333, 97.667, 90.333],
    ("rbf", "'ICASSP' logo"): [50.804, 82.858, 93.642, 78.625, 58.908, 67.072, 71.715, 71.715,
                               59.048],
}
PAPER_T3 = {
    ("Iris", "geodesic"): ("ours (neighbourhood size 26)", [100.0, 82.0, 98.0], 93.333, 0.0),
    ("Iris", "rbf"): ("soft k-means, RBF (kernel size 0.948)", [100.0, 85.466, 85.2], 90.222,
                      0.86),
    ("Wine", "geodesic"): ("ours (neighbourhood size 28)", [92.542, 86.056, 96.25], 91.616,
                           2.116),
    ("Wine", "rbf"): ("soft k-means, RBF (kernel size 1.581)", [81.355, 75.176, 83.072], 79.868,
                      6.334),
}


def per_class_accuracy(y: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """Per-class and total accuracy (%) after the best one-to-one matching."""
    classes = np.unique(y)
    clusters = np.unique(labels)
    C = np.array([[np.sum((y == c) & (labels == k)) for k in clusters] for c in classes])
    r, c = linear_sum_assignment(-C)
    hit = np.zeros(len(classes))
    hit[r] = C[r, c]
    return 100 * hit / C.sum(1), 100 * hit.sum() / len(y)


def class_mean_accuracy(y: np.ndarray, labels: np.ndarray) -> float:
    """The paper's Table 1 accuracy: the mean of the per-class accuracies (%)."""
    return float(per_class_accuracy(y, labels)[0].mean())


def critical_beta(K: np.ndarray) -> float:
    """β_c = 1 / (2 λ_max(HKH / N)): below it soft k-means has only the uniform fixed point."""
    n = K.shape[0]
    Kc = K - K.mean(axis=0)[None, :] - K.mean(axis=1)[:, None] + K.mean()
    return float(1.0 / (2.0 * np.linalg.eigvalsh(Kc)[-1] / n))


def hard_objective(K: np.ndarray, labels: np.ndarray) -> float:
    """Kernel k-means objective of a partition: Σ_t K_tt − Σ_j (1/n_j) Σ_{a,b ∈ j} K_ab."""
    total = float(np.trace(K))
    for c in np.unique(labels):
        m = labels == c
        total -= float(K[np.ix_(m, m)].sum()) / int(m.sum())
    return total


def paper_runs(K: np.ndarray, k: int, beta: float, runs: int) -> list[np.ndarray]:
    """The paper's protocol: one random hard start per run, seeds 0..runs-1."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # collapsed clusters below β_c: the tables show them
        for seed in range(runs):
            m = SoftKernelKMeans(k, kernel="precomputed", beta=beta, init="random", n_init=1,
                                 random_state=seed).fit(K)
            out.append(m.labels_)
    return out


def default_fit(K: np.ndarray, k: int, n_init: Any = "auto") -> SoftKernelKMeans:
    """The library's defaults (k given, as the method takes it): one fit, seed 0."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SoftKernelKMeans(k, kernel="precomputed", n_init=n_init, random_state=0).fit(K)


def geodesic_K(X: np.ndarray, n_neighbors: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # disconnected graphs: joined (errata 10)
        return GeodesicKernel(n_neighbors=n_neighbors).fit(X).kernel_matrix_


def rbf_K(X: np.ndarray, sigma: float) -> np.ndarray:
    return RBF(gamma=1.0 / (2.0 * sigma**2))(X)


def table1(runs: int, n_init: Any) -> list[str]:
    data = {
        "Two moons": (make_two_moons(random_state=0), 2, 0.6),
        "Three moons": (make_three_moons(random_state=0), 3, 0.03),
        "'ICASSP' logo": (make_icassp_logo(random_state=0), 6, 0.03),
    }
    lines = [
        "## Table 1: accuracy (%, mean of the per-class accuracies)", "",
        f"Paper's settings: the paper's β, one random hard start per run, mean of {runs} runs. "
        "Defaults: `SoftKernelKMeans(k)` (β auto, k-means++, restarts chosen by the free "
        "energy), one fit. β_c: the critical stiffness of the kernel matrix (below it the "
        "responsibilities collapse to uniform). J ratio: the kernel k-means objective of the "
        "true classes over that of the defaults' partition (above 1: the classes are not the "
        "objective's minimum, no optimiser of it returns them).", "",
        "| method | data | size | paper | ours, paper's settings | ours, defaults | β paper | "
        "β defaults | β_c | J ratio |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind, grid in (("geodesic", NEIGHBOURS), ("rbf", SIZES)):
        method = "soft geodesic kernel k-means" if kind == "geodesic" else "soft RBF k-means"
        for name, ((X, y), k, beta) in data.items():
            for v, paper in zip(grid, PAPER_T1[(kind, name)], strict=True):
                K = geodesic_K(X, int(v)) if kind == "geodesic" else rbf_K(X, float(v))
                ours = np.mean([class_mean_accuracy(y, lab)
                                for lab in paper_runs(K, k, beta, runs)])
                d = default_fit(K, k, n_init)
                lines.append(
                    f"| {method} | {name} | {v:g} | {paper:g} | {ours:.1f} | "
                    f"{class_mean_accuracy(y, d.labels_):.1f} | {beta:g} | {d.beta_:.3g} | "
                    f"{critical_beta(K):.3g} | "
                    f"{hard_objective(K, y) / hard_objective(K, d.labels_):.3f} |")
    return lines


def table3(runs: int, n_init: Any) -> list[str]:
    Xi, yi = load_iris(return_X_y=True)
    Xw, yw = load_wine(return_X_y=True)
    Xw = whiten(Xw)
    setups = {
        ("Iris", "geodesic"): (geodesic_K(Xi, 26), yi, 0.6),
        ("Iris", "rbf"): (rbf_K(Xi, 0.948), yi, 0.6),
        ("Wine", "geodesic"): (geodesic_K(Xw, 28), yw, 0.03),
        ("Wine", "rbf"): (rbf_K(Xw, 1.581), yw, 0.03),
    }
    lines = ["", "## Table 3 (Iris, Wine): accuracy (%), per class and total", "",
             f"Total: mean (± std) over {runs} runs with the paper's settings; one fit with "
             "the defaults.", "",
             "| data | method | classes, paper | classes, paper's settings | "
             "classes, defaults | total, paper | total, paper's settings | total, defaults | "
             "β paper | β defaults | β_c |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (data, kind), (K, y, beta) in setups.items():
        label, paper_cls, paper_tot, paper_sd = PAPER_T3[(data, kind)]
        res = [per_class_accuracy(y, lab) for lab in paper_runs(K, 3, beta, runs)]
        cls = np.array([r[0] for r in res]).mean(axis=0)
        tot = np.array([r[1] for r in res])
        d = default_fit(K, 3, n_init)
        dcls, dtot = per_class_accuracy(y, d.labels_)

        def fmt(v: Any) -> str:
            return " / ".join(f"{x:.1f}" for x in v)

        lines.append(
            f"| {data} | {label} | {fmt(paper_cls)} | {fmt(cls)} | {fmt(dcls)} | "
            f"{paper_tot:g} (± {paper_sd:g}) | {tot.mean():.1f} (± {tot.std():.1f}) | "
            f"{dtot:.1f} | {beta:g} | {d.beta_:.3g} | {critical_beta(K):.3g} |")
    return lines


def run(out_dir: Path, quick: bool = False) -> str:
    """Tables 1 and 3 as Markdown, ours beside the paper's (10 runs per cell and 10 restarts
    for the defaults; 2 and 2 with quick)."""
    runs = 2 if quick else 10
    n_init: Any = 2 if quick else "auto"
    t0 = time.perf_counter()
    lines = ["# Soft geodesic kernel k-means: the paper's tables, reproduced", "",
             "Per row: the paper's figure, ours with the paper's stated settings, ours with "
             "the library's defaults. The reasons the rows differ are measured in the "
             "docstring of `kernel_patterns.experiments.geodesic` (summary below).", ""]
    # every matrix here has at most 300 rows: one BLAS thread (two threads made each small
    # product wait for a core on the shared machine; the tables are the same)
    with limit_threads(1, "blas"):
        lines += table1(runs, n_init)
        lines += table3(runs, n_init)
    lines += ["", NOTES, f"(total time {time.perf_counter() - t0:.1f} s)"]
    return "\n".join(lines) + "\n"


NOTES = """## Why rows differ

- Accuracy is the mean of the per-class accuracies: the paper's 94.792 and 92.188 (two moons,
  104 + 96 points) are (100 + 86/96·100)/2 and (100 + 81/96·100)/2, never k/200.
- Paper's β below β_c on every RBF row (β = 0.03 or 0.6 against β_c ≈ 1.7–5.6; a normalised
  RBF has squared feature-space distances ≤ 2, so this holds in any data units): the
  responsibilities collapse to near uniform. On the logo's geodesic rows β = 0.03 is only
  2–10 × β_c (the first split); only 4–5 of the 6 clusters hold a point. The defaults' β
  (10 / mean squared distance to the mean) is 16–18 × β_c and gives the logo 100 %.
- Three moons, geodesic, k ≥ 8 (and k = 4): on our sample the classes are not the minimum of
  the kernel k-means objective (J ratio > 1), so the paper's 99.3 % cannot be had from its
  objective on our moons; the paper's moons (its figures are not in our text) must have
  been further apart in the k-NN graph. Still, the defaults reach 95.3 %, ≥ 95 % of 99.3.
- Iris, RBF σ = 0.948, β = 0.6 < β_c = 1.84: uniform responsibilities, one class at 0 %;
  the defaults' β = 13.7 give 90.0 %, the paper's 90.2 %. Reading σ as exp(−d²/σ²) does not
  change this (66.7 % at β = 0.6 either way).
"""
