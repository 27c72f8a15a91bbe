"""Demo step: kernel k-means and soft (geodesic) kernel k-means on the papers' data sets.

* Figure 2 / Table 1 of file 004: soft kernel k-means with the RBF kernel against soft
  geodesic kernel k-means on two moons, three moons and the "ICASSP" logo.
* Figure 6.5 of file 003: kernel k-means started from "all objects but one in one cluster" on
  a disc inside a ring, after 1, 5, 10 and 30 iterations.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .. import datasets, plotting
from .._mpl import pyplot
from ..cluster import KernelKMeans, SoftKernelKMeans
from ..kernels import RBF, GeodesicKernel
from ..metrics import clustering_accuracy

NAME = "kernel_kmeans"
ORDER = 20

#: (data, clusters, RBF kernel size σ with k = exp(−‖x − y‖² / 2σ²), neighbourhood size)
_SETS = {
    "two moons": (datasets.make_two_moons, 2, 0.32, 6),
    "three moons": (datasets.make_three_moons, 3, 0.84, 6),
    "ICASSP logo": (datasets.make_icassp_logo, 6, 0.71, 8),
}
_BETA = 10.0


def run(out_dir: Path) -> dict[str, Any]:
    plt = pyplot()
    fig, axes = plt.subplots(2, 3, figsize=(16, 8))
    summary: dict[str, Any] = {}
    for col, (title, (make, k, sigma, nb)) in enumerate(_SETS.items()):
        X, y = make(random_state=0)
        t0 = time.perf_counter()
        rbf = SoftKernelKMeans(k, kernel=RBF(1.0 / (2 * sigma**2)), beta=_BETA,
                               random_state=0).fit(X)
        t_rbf = time.perf_counter() - t0
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # disconnected neighbourhood graphs are joined
            geo = SoftKernelKMeans(k, kernel=GeodesicKernel(n_neighbors=nb), beta=_BETA,
                                   random_state=0).fit(X)
        t_geo = time.perf_counter() - t0
        a_rbf = clustering_accuracy(y, rbf.labels_)
        a_geo = clustering_accuracy(y, geo.labels_)
        plotting.plot_clusters(X, rbf.labels_, ax=axes[0, col],
                               title=f"{title}: RBF σ={sigma}, accuracy {100 * a_rbf:.1f}%")
        plotting.plot_clusters(X, geo.labels_, ax=axes[1, col],
                               title=f"{title}: geodesic k={nb}, accuracy {100 * a_geo:.1f}%")
        summary[title] = {
            "rbf_accuracy": round(a_rbf, 4),
            "geodesic_accuracy": round(a_geo, 4),
            "rbf_seconds": round(t_rbf, 3),
            "geodesic_seconds": round(t_geo, 3),
        }
    fig.suptitle(f"Soft kernel k-means (β={_BETA}): RBF kernel (top) vs geodesic kernel (bottom)")
    plotting.save_figure(fig, out_dir / "soft_geodesic_kernel_kmeans.png")

    # File 003, Figure 6.5: all but one point in one cluster, RBF kernel with γ = 1.
    X, y = datasets.make_rings(radii=(0.3, 2.0), random_state=0)
    start = np.zeros(len(X), dtype=np.intp)
    start[0] = 1  # the lone object: a point of the inner disc (point 0)
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.2))
    accs = {}
    for ax, it in zip(axes, (1, 5, 10, 30), strict=True):
        with warnings.catch_warnings():  # stopping early is the point of the figure
            warnings.simplefilter("ignore", ConvergenceWarning)
            km = KernelKMeans(2, kernel=RBF(1.0), init=start, max_iter=it).fit(X)
        accs[it] = round(clustering_accuracy(y, km.labels_), 4)
        plotting.plot_clusters(X, km.labels_, ax=ax,
                               title=f"after {it} iteration(s): inertia {km.inertia_:.1f}")
    fig.suptitle("Kernel k-means from 'N − K + 1 objects in one cluster' (file 003, Fig. 6.5)")
    plotting.save_figure(fig, out_dir / "kernel_kmeans_all_but_one.png")
    summary["all_but_one_accuracy_by_iteration"] = accs
    summary["figures"] = ["soft_geodesic_kernel_kmeans.png", "kernel_kmeans_all_but_one.png"]
    return summary
