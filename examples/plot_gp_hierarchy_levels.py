"""
Choosing the level from the GP hierarchy
========================================

Every pair of basins of the variance merges at a *saddle level*: the lowest variance level at
which a path between their SEPs stays below the level (erratum 3 of the source texts: the
count of clusters can only fall as the level rises). ``GPClustering`` keeps those levels as a
scipy linkage matrix, ``hierarchy_`` (with the clusters it chose written in: its cut at
``level_`` is ``labels_``); ``labels_at`` cuts it again without refitting, basins of fewer
than ``min_cluster_size`` points as noise.

The Leptograpsus crabs (Figure 6 of the GP clustering paper): four groups, species × sex.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.decomposition import PCA

from kernel_patterns import GPClustering, datasets, metrics
from kernel_patterns.kernels import GPCovariance

crabs = datasets.load_crabs()
# The paper clusters the 2nd and 3rd principal components of the log measurements,
# scaled to [0, 1].
Z = PCA(3).fit_transform(np.log(crabs.data))[:, 1:3]
X = datasets.scale_unit_interval(Z)
gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=20)).fit(X)
# At the level chosen by default the crabs' basins all join (a warning says so): the four
# groups overlap too much for one level set to split them. The hierarchy still holds them.
print(f"{gp.n_clusters_} cluster(s) at the default level {gp.level_:.4f}, "
      f"{len(gp.equilibria_)} basins")

# %%
# The dendrogram of the SEPs: the heights are the merge (saddle) levels.
fig, ax = plt.subplots(figsize=(7, 3.5))
gp.landscape_.hierarchy.plot(ax=ax, title="saddle levels of the crabs' SEPs")
fig.tight_layout()

# %%
# Cutting at two, three and four clusters: the partition of the points changes, the fit not.
fig, axes = plt.subplots(1, 3, figsize=(12, 4))
for ax, k in zip(axes, (2, 3, 4), strict=True):
    labels = gp.labels_at(n_clusters=k)
    f = metrics.f_score(crabs.target, labels)
    ax.scatter(X[:, 0], X[:, 1], c=labels, s=12, cmap="tab10")
    ax.set_title(f"labels_at(n_clusters={k}): FScore {f:.2f}")
    ax.set_aspect("equal")
fig.tight_layout()
print("clusters per level:", [int(np.unique(gp.labels_at(level=r)).size)
                              for r in np.linspace(gp.level_ * 0.5, gp.level_, 4)])
