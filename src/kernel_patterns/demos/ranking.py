"""Demo step: ν-ranking and on-line ranking on Boston housing cut into 5 equal-width ranks.

One seeded split (300 training / 206 test rows), features standardised on the training part,
RBF kernel with fixed ν and γ (the cross-validated experiment is
``benchmarks/experiment_ranking.py``).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .. import datasets, plotting
from .._mpl import pyplot
from ..metrics import (
    kendall_tau,
    mean_absolute_error,
    mean_zero_one_error,
    ordinal_concordance_index,
)
from ..rank import NuRanking, OnlineRanking

NAME = "ranking"
ORDER = 40


def run(out_dir: Path) -> dict[str, Any]:
    boston = datasets.load_boston()
    target = boston.target
    edges = np.linspace(target.min(), target.max(), 6)[1:-1]
    y = np.digitize(target, edges) + 1
    perm = np.random.default_rng(0).permutation(y.shape[0])
    tr, te = perm[:300], perm[300:]
    mu, sd = boston.data[tr].mean(axis=0), boston.data[tr].std(axis=0)
    Xtr, Xte = (boston.data[tr] - mu) / sd, (boston.data[te] - mu) / sd

    models: dict[str, NuRanking | OnlineRanking] = {
        "NuRanking": NuRanking(nu=0.4, kernel="rbf", kernel_params={"gamma": 0.05}),
        "OnlineRanking": OnlineRanking(kernel="rbf", kernel_params={"gamma": 0.05},
                                       max_iter=5, shuffle=True, random_state=0),
    }
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    out: dict[str, Any] = {"figures": ["ranking.png"], "n_train": 300, "n_test": 206}
    for ax, (name, model) in zip(axes, models.items(), strict=True):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(Xtr, y[tr])
        seconds = time.perf_counter() - t0
        pred = model.predict(Xte)
        f = model.decision_function(Xte)
        stats = {
            "mze": round(mean_zero_one_error(y[te], pred), 4),
            "mae": round(mean_absolute_error(y[te], pred), 4),
            "kendall_tau": round(kendall_tau(y[te], f), 4),
            "concordance": round(ordinal_concordance_index(y[te], f), 4),
            "fit_seconds": round(seconds, 3),
        }
        if isinstance(model, OnlineRanking):
            stats["n_updates"] = int(model.n_updates_)
        out[name] = stats
        plotting.plot_ranking(
            f, y[te], model.thresholds_, ax=ax,
            title=f"{name}: Boston test set, MZE {stats['mze']:.3f}, MAE {stats['mae']:.3f}",
        )
    plotting.save_figure(fig, out_dir / "ranking.png")
    return out
