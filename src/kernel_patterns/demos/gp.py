"""Demo step: GP variance clustering of the rings (Figure 4 of Kim & Lee 2007), the two moons
(Figure 5) and the crabs hierarchy (Figure 6, as a dendrogram)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.decomposition import PCA

from .. import datasets, metrics, plotting
from .._mpl import pyplot
from .._optional import MissingDependencyError
from ..cluster import GPClustering
from ..kernels import GPCovariance

NAME = "gp_clustering"
ORDER = 10


def _scores(y: Any, labels: Any) -> dict[str, float]:
    return {
        "RE": round(metrics.reference_error(y, labels), 4),
        "CE": round(metrics.cluster_error(y, labels), 4),
        "FScore": round(metrics.f_score(y, labels), 4),
    }


def run(out_dir: Path) -> dict[str, Any]:
    plt = pyplot()
    summary: dict[str, Any] = {}
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), constrained_layout=True)
    for ax, (name, (X, y), l) in zip(
        axes,
        [
            ("rings", datasets.make_rings(random_state=0), 400.0),
            ("two moons", datasets.make_two_moons((208, 192), random_state=1), 200.0),
        ],
        strict=True,
    ):
        X = datasets.scale_unit_interval(X)
        t0 = time.perf_counter()
        gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=l)).fit(X)
        seconds = time.perf_counter() - t0
        plotting.plot_variance_landscape(
            gp, X, ax=ax, title=f"{name}: {gp.n_clusters_} clusters, {len(gp.equilibria_)} SEPs"
        )
        summary[name] = {
            "n_samples": int(X.shape[0]),
            "n_clusters": gp.n_clusters_,
            "n_equilibria": len(gp.equilibria_),
            "level": round(gp.level_, 5),
            "fit_seconds": round(seconds, 3),
            **_scores(y, gp.labels_),
        }
    plotting.save_figure(fig, out_dir / "gp_landscapes.png")
    summary["figures"] = ["gp_landscapes.png"]
    try:
        crabs = datasets.load_crabs()
    except MissingDependencyError as exc:  # the R data sets are the optional "data" extra
        summary["crabs"] = {"skipped": str(exc)}
        return summary
    Z = PCA(n_components=3).fit_transform(np.log(np.asarray(crabs.data, dtype=float)))
    X = datasets.scale_unit_interval(Z[:, 1:3])
    gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=20.0), n_clusters=4).fit(X)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), constrained_layout=True)
    plotting.plot_variance_landscape(gp, X, ax=axes[0], title="crabs (PC 2 and 3), 4 clusters")
    plotting.plot_hierarchy(gp, ax=axes[1], title="crabs: merge levels of the 4 basins")
    plotting.save_figure(fig, out_dir / "gp_crabs.png")
    heights = np.sort(gp.hierarchy_[:, 2])
    summary["crabs"] = {
        "n_equilibria": len(gp.equilibria_),
        "merge_levels": [round(float(h), 5) for h in heights],
        "clusters_by_level": {
            f"<{heights[0]:.4f}": 4,
            **{f">={h:.4f}": int(np.unique(gp.labels_at(level=float(h))).size) for h in heights},
        },
        **_scores(crabs.target, gp.labels_),
    }
    summary["figures"].append("gp_crabs.png")
    return summary
