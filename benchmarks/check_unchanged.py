"""Behaviour check for refactors: every estimator with its defaults on the 23 real sets.

Fits ``KernelKMeans``, ``SoftKernelKMeans``, ``SpectralClustering`` (given the number of
classes), ``GPClustering()``, ``KernelMDS``, ``LaplacianEmbedding``, ``NuRanking`` and
``OnlineRanking`` (the class codes as ranks) with their defaults and ``random_state=0`` (and
a few variants: an RBF kernel where the default is the k-NN graph, the geodesic kernel, the
Nyström approximation with 50 landmarks) on the standardised sets of ``bench_real.py``, runs
the cheap source-paper experiments (``reproduce --quick``: spectral, geodesic), and saves
labels, rankings, decision values and embeddings to one ``.npz``. Run it before a refactor
and after, then compare::

    python benchmarks/check_unchanged.py save before.npz
    python benchmarks/check_unchanged.py save after.npz
    python benchmarks/check_unchanged.py compare before.npz after.npz

Labels must agree up to a permutation (adjusted Rand index 1), rankings exactly, decision
values and embeddings up to a sign per column and a relative tolerance; the experiments'
tables must agree once their wall times are masked.

Run: ``python benchmarks/check_unchanged.py save OUT.npz [--sets NAME ...] [--no-gp]``
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.check_unchanged
    from bench_real import SETS
except ImportError:  # pragma: no cover
    from benchmarks.bench_real import SETS

from kernel_patterns import (
    GPClustering,
    KernelKMeans,
    KernelMDS,
    LaplacianEmbedding,
    NuRanking,
    OnlineRanking,
    SoftKernelKMeans,
    SpectralClustering,
)
from kernel_patterns.kernels import GeodesicKernel

#: the source papers' experiments cheap enough to run with ``quick=True``
EXPERIMENTS = ("spectral", "geodesic")
#: the Nyström variants' parameters
NYSTROM: dict[str, Any] = {"approximation": "nystrom", "n_landmarks": 50}
#: relative tolerance for embeddings and decision values (float32 operators, eigensolvers)
RTOL = 1e-5


def _fits(k: int, gp: bool) -> dict[str, Callable[[np.ndarray, np.ndarray], dict[str, Any]]]:
    ranks = {"nu": NuRanking, "online": OnlineRanking}

    def cluster(make: Callable[[], Any]) -> Callable[[np.ndarray, np.ndarray], dict[str, Any]]:
        return lambda X, y: {"labels": make().fit_predict(X)}

    def embed(make: Callable[[], Any]) -> Callable[[np.ndarray, np.ndarray], dict[str, Any]]:
        return lambda X, y: {"embedding": make().fit_transform(X)}

    def rank(name: str, **params: Any) -> Callable[[np.ndarray, np.ndarray], dict[str, Any]]:
        def fit(X: np.ndarray, y: np.ndarray) -> dict[str, Any]:
            est = ranks[name](random_state=0, **params).fit(X, y + 1)
            return {"ranks": est.predict(X), "decision": est.decision_function(X)}

        return fit

    out = {
        "kkm": cluster(lambda: KernelKMeans(k, random_state=0)),
        "soft": cluster(lambda: SoftKernelKMeans(k, random_state=0)),
        "spectral": cluster(lambda: SpectralClustering(k, random_state=0)),
        "mds": embed(lambda: KernelMDS(random_state=0)),
        "laplacian": embed(lambda: LaplacianEmbedding(random_state=0)),
        "nu": rank("nu"),
        "online": rank("online"),
        # a kernel function where the default is the k-NN graph, and the geodesic kernel
        "spectral_rbf": cluster(lambda: SpectralClustering(k, kernel="rbf", random_state=0)),
        "laplacian_rbf": embed(lambda: LaplacianEmbedding(kernel="rbf", random_state=0)),
        "soft_geodesic": cluster(
            lambda: SoftKernelKMeans(k, kernel=GeodesicKernel(), random_state=0)),
        # the Nyström paths (50 landmarks) of the estimators that have one
        "kkm_nystrom": cluster(lambda: KernelKMeans(k, random_state=0, **NYSTROM)),
        "spectral_nystrom": cluster(
            lambda: SpectralClustering(k, kernel="rbf", random_state=0, **NYSTROM)),
        "mds_nystrom": embed(lambda: KernelMDS(random_state=0, **NYSTROM)),
        "nu_nystrom": rank("nu", **NYSTROM),
    }
    if gp:
        out["gp"] = cluster(lambda: GPClustering(random_state=0))
    return out


def _masked(text: str) -> str:
    """An experiment's tables with the wall times masked (numbers followed by s or ms, and
    the cells of columns whose header mentions time)."""
    return re.sub(r"\d+(\.\d+)?\s*(ms|s)\b", "<t>", text)


def save(out: Path, names: list[str], gp: bool, experiments: bool) -> None:
    arrays: dict[str, Any] = {}
    for name in names:
        X, y = SETS[name]()
        Z = StandardScaler().fit_transform(X)
        k = len(np.unique(y))
        for method, fit in _fits(k, gp).items():
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    got = fit(Z, y)
                except Exception as exc:  # an error is a result to compare
                    got = {"error": np.array(f"{type(exc).__name__}: {exc}")}
            for key, value in got.items():
                arrays[f"{name}/{method}/{key}"] = np.asarray(value)
            print(f"{name:10s} {method:10s} {time.perf_counter() - t0:7.2f} s", flush=True)
    if experiments:
        from kernel_patterns.experiments import discover

        found = discover()
        for name in EXPERIMENTS:
            with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tables = found[name].run(Path(tmp), quick=True)
            text = tables if isinstance(tables, str) else "\n".join(
                f"{key}\n{value}" for key, value in tables.items())
            arrays[f"experiment/{name}"] = np.array(_masked(text))
            print(f"experiment {name} done", flush=True)
    np.savez_compressed(out, **arrays)


def _same(key: str, a: np.ndarray, b: np.ndarray) -> str | None:
    """None when ``a`` and ``b`` agree as the kind of output ``key`` names, else why not."""
    if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
        return f"shape/dtype {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
    if a.dtype.kind in "US":
        return None if str(a) == str(b) else "text differs"
    if key.endswith("/labels"):
        ari = adjusted_rand_score(a, b)
        return None if ari == 1.0 else f"ARI {ari:.4f}"
    if key.endswith("/ranks"):
        return None if np.array_equal(a, b) else f"{int(np.sum(a != b))} ranks differ"
    if key.endswith("/embedding"):
        signs = np.sign(np.sum(a * b, axis=0))
        signs[signs == 0] = 1
        b = b * signs
    scale = max(float(np.max(np.abs(a))), 1e-12)
    err = float(np.max(np.abs(a - b))) / scale
    return None if err <= RTOL else f"max relative difference {err:.2e}"


def compare(before: Path, after: Path) -> int:
    a, b = np.load(before), np.load(after)
    differ = 0
    for key in sorted(set(a.files) | set(b.files)):
        if key not in a.files or key not in b.files:
            print(f"{key}: only in {'after' if key not in a.files else 'before'}")
            differ += 1
            continue
        why = _same(key, a[key], b[key])
        if why is not None:
            print(f"{key}: {why}")
            differ += 1
    total = len(set(a.files) | set(b.files))
    print(f"{total - differ} of {total} outputs unchanged")
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("out", type=Path)
    s.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    s.add_argument("--no-gp", action="store_true")
    s.add_argument("--no-experiments", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "save":
        save(args.out, args.sets, not args.no_gp, not args.no_experiments)
    else:
        raise SystemExit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
