"""GPClustering's default reading of the landscape, on ridge shapes, blobs and real data.

With ``kernel=None`` and neither ``level`` nor ``n_clusters``, GPClustering chooses between
the paper's *support* (components of the level set at r*) and the *modes* (a cluster per
basin of real size) by whether the modes stay the same clusters when the length scale grows
by √2 (``auto_partition`` in ``cluster/gp/_readings.py``). This script shows, per set, the
paper's support reading at the data-driven length scale (``GPClustering(default_kernel(X))``),
the default (``GPClustering()``) and HDBSCAN's default beside them: ARI against the
generating labels or classes, clusters found, seconds. Nothing is tuned per set; the 2-D
shapes are scaled to [0, 1] as in the papers, the real sets standardised.

Run: ``python benchmarks/bench_gp_default.py`` (about a minute).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn import datasets as skd
from sklearn.cluster import HDBSCAN
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_gp_default
    from _common import machine, save, table
    from bench_real import SETS as REAL
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_real import SETS as REAL

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import default_kernel

XY = tuple[np.ndarray, np.ndarray]


def _unit(make: Callable[..., XY], **kw: Any) -> Callable[[], XY]:
    def load() -> XY:
        X, y = make(**kw)
        return datasets.scale_unit_interval(X), np.asarray(y)
    return load


def _spirals() -> XY:
    rng = np.random.default_rng(0)
    t = np.sqrt(rng.uniform(0.05, 1, 300)) * 3 * np.pi
    arm = np.c_[t * np.cos(t), t * np.sin(t)]
    X = np.vstack([arm, -arm]) + rng.normal(0, 0.3, (600, 2))
    return datasets.scale_unit_interval(X), np.repeat([0, 1], 300)


def _standardised(load: Callable[[], XY]) -> Callable[[], XY]:
    def go() -> XY:
        X, y = load()
        return StandardScaler().fit_transform(X), np.asarray(y)
    return go


SHAPES: dict[str, Callable[[], XY]] = {
    "rings (paper)": _unit(datasets.make_rings, random_state=0),
    "two moons (paper)": _unit(datasets.make_two_moons, random_state=0),
    "three moons (paper)": _unit(datasets.make_three_moons, random_state=0),
    "ICASSP logo (paper)": _unit(datasets.make_icassp_logo, random_state=0),
    "two spirals": _spirals,
    "sklearn moons": _unit(skd.make_moons, n_samples=500, noise=0.08, random_state=0),
    "sklearn circles": _unit(skd.make_circles, n_samples=500, factor=0.5, noise=0.05,
                             random_state=0),
    # noisier and larger (inducing points past 1,000): the support at r* is one piece
    "sklearn moons, noise 0.1": _unit(skd.make_moons, n_samples=1000, noise=0.1,
                                      random_state=0),
    "sklearn moons, noise 0.1, inducing": _unit(skd.make_moons, n_samples=3000, noise=0.1,
                                                random_state=0),
}
BLOBS: dict[str, Callable[[], XY]] = {
    "touching blobs 2-D": lambda: skd.make_blobs(600, centers=3, cluster_std=1.5,
                                                 random_state=3),
    "blobs 8-D": lambda: skd.make_blobs(600, n_features=8, centers=4, cluster_std=2.0,
                                        random_state=1),
    "Gaussians 5-D (paper)": lambda: datasets.make_gaussians(5, random_state=0),
    "Gaussians 10-D (paper)": lambda: datasets.make_gaussians(10, random_state=0),
    "Gaussians 20-D (paper)": lambda: datasets.make_gaussians(20, random_state=0),
}


def _reading(gp: Any) -> str:
    """The reading GPClustering() kept, from its ``count_trace_``: which one, at which
    multiple of ℓ₀, and the modes of every length scale read (the kept one in bold)."""
    trace = gp.count_trace_
    names = {0.5: "ℓ₀/2", 0.71: "ℓ₀/√2", 1.0: "ℓ₀", 1.41: "√2ℓ₀", 2.0: "2ℓ₀", 2.83: "2√2ℓ₀"}
    at = names.get(round(trace.factor, 2), f"{trace.factor:.2f}ℓ₀")
    modes = " ".join(f"**{n}**" if j == trace.kept else str(n)
                     for j, n in enumerate(trace.n_modes))
    return f"{trace.reading} at {at}; modes {modes}"


def _cell(est: Any, X: np.ndarray, y: np.ndarray) -> tuple[float, str]:
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = est.fit_predict(X)
    secs = time.perf_counter() - t0
    ari = float(adjusted_rand_score(y, pred))
    return ari, f"{ari:.2f} ({len(np.unique(pred[pred >= 0]))}, {secs:.1f} s)"


def run() -> str:
    rows = []
    sets = {**SHAPES, **BLOBS, **{k: _standardised(v) for k, v in REAL.items()}}
    for name, load in sets.items():
        X, y = load()
        X = np.asarray(X, dtype=float)
        gp = GPClustering(random_state=0)
        cells = [_cell(GPClustering(default_kernel(X), random_state=0), X, y)[1],
                 _cell(gp, X, y)[1], _reading(gp), _cell(HDBSCAN(), X, y)[1]]
        kind = "ridge" if name in SHAPES else "blobs" if name in BLOBS else "real"
        rows.append([f"{name} {X.shape[0]}×{X.shape[1]}", kind, *cells])
        print(" | ".join(rows[-1]), flush=True)
    headers = ["data", "kind", "support at ℓ₀ (paper's cut)", "GPClustering() (default rule)",
               "reading kept (count_trace_)", "HDBSCAN()"]
    return "\n".join([
        "# GPClustering's default rule: support or modes", "",
        "ARI against the generating labels / classes (clusters found, seconds). The reading "
        "kept and the modes of every length scale read, shortest first (the kept one in "
        "bold), are GPClustering()'s `count_trace_`. "
        "`python benchmarks/bench_gp_default.py`; " f"{machine()}.", "",
        table(headers, rows),
    ])


if __name__ == "__main__":
    save("gp_default_rule", run())
