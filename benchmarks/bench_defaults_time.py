"""Every clustering and embedding estimator with its defaults against its nearest scikit-learn
peer: wall time ratio and ARI on generated 2-D families, at 1,000, 5,000 and 20,000 points.

Pairs (ours with defaults, scikit-learn's peer with its defaults; k is the true count):

* ``SpectralClustering(k)`` / ``SpectralClustering(k, affinity="nearest_neighbors")``
* ``LaplacianEmbedding()`` / ``SpectralEmbedding()``, scored by the ARI of
  ``KMeans(k, n_init=10)`` on each embedding (not timed)
* ``KernelKMeans(k)`` / ``KMeans(k)``
* ``SoftKernelKMeans(k)`` / ``GaussianMixture(k)``
* ``KernelMDS()`` / ``KernelPCA(2, kernel="rbf")``, scored as the embeddings
* ``GPClustering()`` / ``HDBSCAN()`` (both find their own count)

Families: two concentric noisy rings (radii 1 and 2, noise 0.05), two moons, three long thin
parallel stripes, three well-separated blobs, three touching blobs, uniform noise (one class;
k = 3 is asked for, so every ARI is 0 there). Each pair runs in the same process, ours and the
peer alternating (best of 3 runs up to 1,000 points, of 2 up to 5,000, one run above), so
that the load of a shared machine falls on both. The ratio is ours / peer (below 1: ours is
faster). Prints each row as it is measured, then the table, the median and the maximum ratio
per estimator; the table is kept in ``results/defaults_time.md``.

``--budget SECONDS`` (or ``name=SECONDS`` per estimator, both sides of its pair) runs the fits
in one worker process (spawned, ours and the peer alternating in it as without a budget),
killed and replaced when a fit passes its budget: the row then shows ``>`` the budget for
that side (and the ratio as a bound), and that side is not run again for the row.

Run: ``python benchmarks/bench_defaults_time.py`` (all sizes, long: GP clustering and the
dense kernel methods at 20,000 points take minutes), with a budget, e.g.
``python benchmarks/bench_defaults_time.py --budget 120``, or a quick subset, e.g.
``python benchmarks/bench_defaults_time.py --sizes 1000 5000 --estimators spectral laplacian``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.datasets import make_blobs
from sklearn.decomposition import KernelPCA
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score
from sklearn.mixture import GaussianMixture

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_defaults_time
    from _common import machine, save, table
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table

from kernel_patterns import (
    GPClustering,
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    SoftKernelKMeans,
    SpectralClustering,
    datasets,
)

XY = tuple[np.ndarray, np.ndarray]


def rings(n: int, seed: int) -> XY:
    X, y = datasets.make_rings(n_samples=(n // 2, n - n // 2), radii=(1.0, 2.0), noise=0.05,
                               random_state=seed)
    return X, np.asarray(y)


def moons(n: int, seed: int) -> XY:
    X, y = datasets.make_two_moons(n_samples=(n // 2, n - n // 2), random_state=seed)
    return X, np.asarray(y)


def stripes(n: int, seed: int) -> XY:
    """Three parallel stripes 10 long, 1 apart, 0.05 thick."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = np.c_[rng.uniform(0.0, 10.0, n), y + rng.normal(0.0, 0.05, n)]
    return X, y


def separated_blobs(n: int, seed: int) -> XY:
    X, y = make_blobs(n, centers=[[0, 0], [10, 0], [0, 10]], cluster_std=0.5,
                      random_state=seed)
    return X, y


def touching_blobs(n: int, seed: int) -> XY:
    X, y = make_blobs(n, centers=[[0, 0], [3, 0], [1.5, 2.6]], cluster_std=1.0,
                      random_state=seed)
    return X, y


def uniform(n: int, seed: int) -> XY:
    return np.random.default_rng(seed).uniform(0.0, 1.0, (n, 2)), np.zeros(n, dtype=int)


FAMILIES: dict[str, Callable[[int, int], XY]] = {
    "rings": rings, "moons": moons, "stripes": stripes,
    "separated blobs": separated_blobs, "touching blobs": touching_blobs, "uniform": uniform,
}


def _count(y: np.ndarray) -> int:
    return max(int(np.unique(y).size), 3 if np.unique(y).size == 1 else 2)


def _embedding_ari(Z: np.ndarray, y: np.ndarray, k: int) -> float:
    labels = KMeans(k, n_init=10, random_state=0).fit_predict(np.asarray(Z, dtype=np.float64))
    return float(adjusted_rand_score(y, labels))


Fit = Callable[[np.ndarray, int], np.ndarray]

#: name -> (our label, peer label, ours, peer, is an embedding)
PAIRS: dict[str, tuple[str, str, Fit, Fit, bool]] = {
    "spectral": (
        "SpectralClustering(k)", "SpectralClustering(k, affinity='nearest_neighbors')",
        lambda X, k: SpectralClustering(k, random_state=0).fit_predict(X),
        lambda X, k: SkSpectral(k, affinity="nearest_neighbors",
                                random_state=0).fit_predict(X),
        False),
    "laplacian": (
        "LaplacianEmbedding()", "SpectralEmbedding()",
        lambda X, k: LaplacianEmbedding(random_state=0).fit_transform(X),
        lambda X, k: SpectralEmbedding(random_state=0).fit_transform(X),
        True),
    "kernel_kmeans": (
        "KernelKMeans(k)", "KMeans(k)",
        lambda X, k: KernelKMeans(k, random_state=0).fit_predict(X),
        lambda X, k: KMeans(k, random_state=0).fit_predict(X),
        False),
    "soft_kernel_kmeans": (
        "SoftKernelKMeans(k)", "GaussianMixture(k)",
        lambda X, k: SoftKernelKMeans(k, random_state=0).fit_predict(X),
        lambda X, k: GaussianMixture(k, random_state=0).fit_predict(X),
        False),
    "kernel_mds": (
        "KernelMDS()", "KernelPCA(2, kernel='rbf')",
        lambda X, k: KernelMDS(random_state=0).fit_transform(X),
        lambda X, k: KernelPCA(2, kernel="rbf", random_state=0).fit_transform(X),
        True),
    "gp": (
        "GPClustering()", "HDBSCAN()",
        lambda X, k: GPClustering(random_state=0).fit_predict(X),
        lambda X, k: HDBSCAN().fit_predict(X),
        False),
}


def _run(fit: Fit, X: np.ndarray, y: np.ndarray, k: int, embedding: bool) -> tuple[float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # disconnected graphs etc.: the same for both sides
        t0 = time.perf_counter()
        out = fit(X, k)
        dt = time.perf_counter() - t0
        ari = _embedding_ari(out, y, k) if embedding else float(adjusted_rand_score(y, out))
    return dt, ari


def _serve(conn: Any) -> None:
    """A worker process: fit and score what the parent sends until it sends None."""
    conn.send("ready")  # imported: the budget counts from the first job, not the start-up
    while (job := conn.recv()) is not None:
        name, side, X, y = job
        _, _, ours, peer, embedding = PAIRS[name]
        conn.send(_run(ours if side == "ours" else peer, X, y, _count(y), embedding))


#: seconds a worker may take beyond the budget to score its result (KMeans on the embedding)
SCORING_SLACK = 10.0


class _Worker:
    """One spawned process that runs every fit (ours and the peer, as in one process without a
    budget), killed and replaced when a fit runs past its budget."""

    def __init__(self) -> None:
        self._proc: Any = None
        self._conn: Any = None

    def run(self, name: str, side: str, X: np.ndarray, y: np.ndarray,
            budget: float) -> tuple[float, float] | None:
        """Time and ARI of one fit, or None when it did not finish within ``budget``."""
        if self._proc is None:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child = ctx.Pipe()
            self._proc = ctx.Process(target=_serve, args=(child,), daemon=True)
            self._proc.start()
            child.close()
            if not self._conn.poll(600.0) or self._conn.recv() != "ready":
                raise RuntimeError("the benchmark's worker process did not start")
        self._conn.send((name, side, X, y))
        if self._conn.poll(budget + SCORING_SLACK):
            try:
                result: tuple[float, float] = self._conn.recv()
            except EOFError:
                code = self._proc.exitcode
                self.close()
                raise RuntimeError(f"{name} ({side}) crashed the worker (exit {code})") from None
            return result
        self.close()
        return None

    def close(self) -> None:
        if self._proc is None:
            return
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join()
        self._conn.close()
        self._proc = self._conn = None


def measure_row(
    name: str, X: np.ndarray, y: np.ndarray, budget: float | None = None,
    worker: _Worker | None = None,
) -> tuple[float, float, float, float, bool, bool]:
    """Best time and ARI of ours and of the peer, alternating (ours first on even runs), and
    whether each side ran out of ``budget`` (then its time is the budget, a lower bound)."""
    _, _, ours, peer, embedding = PAIRS[name]
    k = _count(y)
    n = X.shape[0]
    repeats = 3 if n <= 1000 else 2 if n <= 5000 else 1
    times: dict[str, list[float]] = {"ours": [], "peer": []}
    ari = {"ours": float("nan"), "peer": float("nan")}
    over = {"ours": False, "peer": False}
    for r in range(repeats):
        order = [("ours", ours), ("peer", peer)]
        for side, fit in order if r % 2 == 0 else order[::-1]:
            if over[side]:
                continue
            if budget is None or worker is None:
                res: tuple[float, float] | None = _run(fit, X, y, k, embedding)
            else:
                res = worker.run(name, side, X, y, budget)
            if res is None:
                over[side] = True
                times[side].append(float(budget))  # type: ignore[arg-type]
                continue
            times[side].append(res[0])
            ari[side] = res[1]
    return (min(times["ours"]), min(times["peer"]), ari["ours"], ari["peer"],
            over["ours"], over["peer"])


def _budgets(spec: list[str], estimators: list[str]) -> dict[str, float | None]:
    """``["120", "gp=600"]`` -> a budget per estimator (None: no budget)."""
    out: dict[str, float | None] = dict.fromkeys(estimators)
    for item in spec:
        name, _, value = item.rpartition("=")
        if name and name not in PAIRS:
            raise SystemExit(f"--budget {item}: unknown estimator {name!r}")
        for e in [name] if name else estimators:
            out[e] = float(value)
    return out


def _bound(seconds: float, over: bool) -> str | float:
    return f">{seconds:.3g}" if over else seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000])
    p.add_argument("--estimators", nargs="*", default=list(PAIRS), choices=list(PAIRS))
    p.add_argument("--families", nargs="*", default=list(FAMILIES), choices=list(FAMILIES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default="defaults_time",
                   help="results/<name>.md (default: defaults_time)")
    p.add_argument("--budget", nargs="*", default=[], metavar="[NAME=]SECONDS",
                   help="stop a fit after this many seconds (all estimators, or NAME's pair)")
    args = p.parse_args()
    budgets = _budgets(args.budget, args.estimators)

    worker = _Worker() if any(b is not None for b in budgets.values()) else None
    rows: list[tuple[Any, ...]] = []
    ratios: dict[str, list[float]] = {e: [] for e in args.estimators}
    bounded: dict[str, int] = dict.fromkeys(args.estimators, 0)
    slowest: dict[tuple[str, int], tuple[float, bool]] = {}  # (seconds, stopped)
    for n in args.sizes:
        for fam in args.families:
            X, y = FAMILIES[fam](n, args.seed)
            for est in args.estimators:
                to, tp, ao, ap, over_o, over_p = measure_row(est, X, y, budgets[est], worker)
                ratio = to / tp
                if not (over_o and over_p):  # both stopped: no ratio at all
                    ratios[est].append(ratio)
                bounded[est] += over_o or over_p
                if over_o or to > slowest.get((est, n), (0.0, False))[0]:
                    slowest[est, n] = (max(to, slowest.get((est, n), (0.0, False))[0]),
                                       over_o or slowest.get((est, n), (0.0, False))[1])
                shown: str | float = (ratio if not (over_o or over_p) else
                                      "?" if over_o and over_p else
                                      f">{ratio:.3g}" if over_o else f"<{ratio:.3g}")
                row = (PAIRS[est][0], PAIRS[est][1], fam, n, _bound(to, over_o),
                       _bound(tp, over_p), shown, ao, ap)
                print(" | ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in row),
                      flush=True)
                rows.append(row)
    if worker is not None:
        worker.close()
    summary = [(PAIRS[e][0], len(r), statistics.median(r), max(r), bounded[e],
                *(_bound(*slowest[e, n]) for n in args.sizes))
               for e, r in ratios.items() if r]
    budget_note = ""
    if any(b is not None for b in budgets.values()):
        budget_note = (" A fit still running after its budget (a worker process; " + ", ".join(
            f"{e} {b:g} s" for e, b in budgets.items() if b is not None)
            + ") was stopped: its time is shown as > the budget and its ARI as nan.")
    text = "\n\n".join([
        "# Every default against its scikit-learn peer: time ratio (ours / peer) and ARI",
        f"`python benchmarks/bench_defaults_time.py --sizes {' '.join(map(str, args.sizes))}"
        + ("" if args.estimators == list(PAIRS) else
           f" --estimators {' '.join(args.estimators)}")
        + ("" if args.families == list(FAMILIES) else
           f" --families {' '.join(repr(f) for f in args.families)}")
        + (f" --budget {' '.join(args.budget)}" if args.budget else "")
        + f"` on {machine()}; seconds are the best of 3 runs (n ≤ 1,000), 2 (n ≤ 5,000) or "
        "1, ours and the peer alternating in one process. Embeddings are scored by the ARI of "
        "KMeans(k) on them." + budget_note,
        table(["ours", "peer", "family", "n", "ours s", "peer s", "ratio", "ARI ours",
               "ARI peer"], rows),
        "## Ratio per estimator",
        "Median and maximum of the ratios (a stopped side counts with its budget, a bound); "
        "the slowest of our fits over the families at each size.",
        table(["ours", "rows", "median ratio", "max ratio", "rows with a stopped side",
               *(f"slowest ours s, n = {n}" for n in args.sizes)], summary),
    ])
    save(args.name, text)


if __name__ == "__main__":
    main()
