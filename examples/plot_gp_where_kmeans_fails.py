"""
GP variance clustering where k-means fails
==========================================

Two concentric rings: no straight boundary separates them, so k-means (and kernel k-means
with a poorly chosen width) cuts both rings in half. GP variance clustering (Kim & Lee 2007)
fits a Gaussian process to the points and reads the clusters off its predictive variance: the
variance is low where the data are, so the basins of low variance, separated by ridges of
high variance, are the clusters. It finds their number by itself.
"""

# %%
import matplotlib.pyplot as plt
from sklearn.cluster import KMeans

from kernel_patterns import GPClustering, datasets, metrics
from kernel_patterns.kernels import GPCovariance

X, y = datasets.make_rings((100, 200), random_state=0)
X = datasets.scale_unit_interval(X)

km = KMeans(2, n_init=10, random_state=0).fit(X)
gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=400)).fit(X)
print(f"k-means accuracy {metrics.clustering_accuracy(y, km.labels_):.2f}; "
      f"GP: {gp.n_clusters_} clusters, accuracy {metrics.clustering_accuracy(y, gp.labels_):.2f}")

# %%
# The variance landscape: the black contour is the level r* (eq. 4.1); the red crosses are
# the stable equilibrium points (SEPs), the local minima of the variance every point flows to.
fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
axes[0].scatter(X[:, 0], X[:, 1], c=km.labels_, s=10, cmap="tab10")
axes[0].set_title("scikit-learn KMeans(2)")
axes[0].set_aspect("equal")
gp.landscape_.plot(X, gp.labels_, ax=axes[1], title="GPClustering: variance landscape")
fig.tight_layout()
