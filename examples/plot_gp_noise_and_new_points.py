"""
GP clustering with noise, and new points
========================================

Scattered points between the clusters flow to small basins of their own. ``min_cluster_size``
(default 5) labels a basin that holds fewer training points as noise, ``-1``, as HDBSCAN does.
``predict`` labels new points by the same segment checks and a short flow (Corollary 1 of the
paper): here every point of a grid, which draws the clusters' domains.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from kernel_patterns import GPClustering, datasets
from kernel_patterns.kernels import GPCovariance

X, y = datasets.make_two_moons(random_state=0)
rng = np.random.default_rng(0)
X = np.vstack([X, rng.uniform(X.min(0), X.max(0), size=(20, 2))])
X = datasets.scale_unit_interval(X)
kernel = GPCovariance(v0=1, v1=10, v2=1, l=400)

fig, axes = plt.subplots(1, 3, figsize=(13, 4))
for ax, size in zip(axes[:2], (1, 5), strict=True):
    gp = GPClustering(kernel, min_cluster_size=size).fit(X)
    noise = gp.labels_ == -1
    ax.scatter(*X[~noise].T, c=gp.labels_[~noise], s=8, cmap="tab10")
    ax.scatter(*X[noise].T, c="k", marker="x", s=20, label="noise (-1)")
    ax.set_title(f"min_cluster_size={size}: {gp.n_clusters_} clusters, {noise.sum()} noise",
                 size=9)
    ax.legend(loc="lower left", fontsize=7)

g = np.linspace(0, 1, 60)
G = np.c_[np.repeat(g, g.size), np.tile(g, g.size)]
pred = gp.predict(G)
axes[2].scatter(*G.T, c=pred, s=4, cmap="tab10", alpha=0.4)
axes[2].scatter(*X.T, c="k", s=3)
axes[2].set_title("predict on a 60 × 60 grid", size=9)
fig.tight_layout()
