"""
Comparing every clustering estimator on the same data
=====================================================

In the spirit of scikit-learn's "Comparing different clustering algorithms on toy datasets":
each row is a data set, each column an estimator, ours and scikit-learn's side by side, with
the wall time of the fit in the corner. Every estimator keeps its defaults except the number of
clusters where it needs one (GP clustering finds it). The data sets are small (300 points) so
that the whole grid runs in a few seconds.
"""

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.datasets import make_blobs
from sklearn.preprocessing import StandardScaler

from kernel_patterns import (
    GPClustering,
    KernelKMeans,
    SoftKernelKMeans,
    SpectralClustering,
    datasets,
)
from kernel_patterns.kernels import GeodesicKernel

data = {
    "two moons": datasets.make_two_moons((150, 150), random_state=0),
    "rings": datasets.make_rings((100, 200), random_state=0),
    "three moons": datasets.make_three_moons(300, random_state=0),
    "blobs": make_blobs(300, centers=3, cluster_std=[1.0, 2.0, 0.5], random_state=0),
}


def estimators(k):
    return {
        "GPClustering": GPClustering(random_state=0),
        "KernelKMeans": KernelKMeans(k, random_state=0),
        "SoftKernelKMeans\n(geodesic)": SoftKernelKMeans(
            k, kernel=GeodesicKernel(n_neighbors=10), random_state=0),
        "SpectralClustering": SpectralClustering(k, random_state=0),
        "sklearn KMeans": KMeans(k, n_init=10, random_state=0),
        "sklearn Spectral": SkSpectral(k, affinity="nearest_neighbors", random_state=0),
        "sklearn HDBSCAN": HDBSCAN(min_cluster_size=15),
    }


names = list(estimators(2))
fig, axes = plt.subplots(len(data), len(names), figsize=(2.1 * len(names), 2.1 * len(data)))
for i, (dname, (X, y)) in enumerate(data.items()):
    X = StandardScaler().fit_transform(X)
    k = int(np.unique(y).size)
    for j, (name, est) in enumerate(estimators(k).items()):
        t0 = time.perf_counter()
        labels = est.fit_predict(X)
        dt = time.perf_counter() - t0
        ax = axes[i, j]
        # one colour per cluster, grey for noise (-1)
        colors = np.where(labels[:, None] < 0, 0.6, plt.cm.tab10(np.asarray(labels) % 10))
        ax.scatter(X[:, 0], X[:, 1], c=colors, s=4)
        ax.text(0.98, 0.02, f"{dt:.2f}s", transform=ax.transAxes, ha="right", size=8)
        ax.set_xticks([])
        ax.set_yticks([])
        if i == 0:
            ax.set_title(name, size=8)
        if j == 0:
            ax.set_ylabel(dname, size=9)
fig.tight_layout()
