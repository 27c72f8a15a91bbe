"""``feature_transform``: the "auto" rule against always and never, on every real set.

``feature_transform="auto"`` Gaussianises the features (standardise, then Yeo-Johnson) only
when the median feature's excess kurtosis is above ``TAIL_KURTOSIS`` (1.0). This runs
GPClustering(), KernelKMeans(k) and SpectralClustering(k) with the defaults and each of
"auto", "yeo-johnson" (always) and None (never) on the standardised sets of
``bench_real.py`` and gives the adjusted Rand index against the classes. The rule was set on
the first ten sets; the last six were run only after it was.

Run: ``python benchmarks/bench_feature_transform.py [--sets NAME ...]``
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_feature_transform
    from _common import machine, save, table
    from bench_real import SETS
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_real import SETS

from kernel_patterns import GPClustering, KernelKMeans, SpectralClustering
from kernel_patterns.cluster.gp import TAIL_KURTOSIS, median_excess_kurtosis

SETTINGS = {"auto": "auto", "always": "yeo-johnson", "never": None}


def _estimator(name: str, k: int, transform: str | None) -> Any:
    if name == "GPClustering()":
        return GPClustering(feature_transform=transform, random_state=0)
    if name == "KernelKMeans(k)":
        return KernelKMeans(k, feature_transform=transform, random_state=0)
    return SpectralClustering(k, feature_transform=transform, random_state=0)


def run(names: list[str]) -> str:
    methods = ["GPClustering()", "KernelKMeans(k)", "SpectralClustering(k)"]
    rows = []
    for name in names:
        X, y = SETS[name]()
        Z = StandardScaler().fit_transform(X)
        k = len(np.unique(y))
        kurt = median_excess_kurtosis(Z)
        row: list[object] = [f"{name} {Z.shape[0]}×{Z.shape[1]}", f"{kurt:.2f}"]
        for method in methods:
            cells = []
            for setting in SETTINGS.values():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    pred = _estimator(method, k, setting).fit_predict(Z)
                cells.append(f"{adjusted_rand_score(y, pred):.2f}")
            row.append(" / ".join(cells))
            print(f"{name:9s} {method:22s} auto / always / never: {row[-1]}", flush=True)
        rows.append(row)
    headers = ["data", "median excess kurtosis",
               *(f"{m}: auto / always / never" for m in methods)]
    return "\n".join([
        "# feature_transform: the 'auto' rule against always and never", "",
        f"ARI against the classes, standardised features, defaults otherwise; 'auto' "
        f"Gaussianises when the median excess kurtosis is above {TAIL_KURTOSIS:g}. "
        "`python benchmarks/bench_feature_transform.py`; " f"{machine()}.", "",
        table(headers, rows),
    ])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    save("feature_transform", run(ap.parse_args().sets))


if __name__ == "__main__":
    main()
