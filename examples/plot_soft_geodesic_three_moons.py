"""
Soft geodesic kernel k-means on three moons
===========================================

Kim, Shim & Choi's soft geodesic kernel k-means: the kernel is built from geodesic distances
along a k-nearest-neighbour graph (made positive semi-definite by the Cailliez constant), and
each point belongs to every cluster with a responsibility ∝ exp(−β·distance). Along the graph
the moons are far apart even where they are close in the plane. The stiffness β decides how
soft the memberships are; ``beta="auto"`` (the default) scales it to the kernel's spread.
"""

# %%
import matplotlib.pyplot as plt

from kernel_patterns import SoftKernelKMeans, datasets, metrics
from kernel_patterns.kernels import GeodesicKernel

X, y = datasets.make_three_moons(300, random_state=0)
fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
for ax, beta in zip(axes, (0.5, "auto", 50.0), strict=True):
    est = SoftKernelKMeans(3, kernel=GeodesicKernel(n_neighbors=10), beta=beta,
                           random_state=0).fit(X)
    certainty = est.responsibilities_.max(axis=1)
    ax.scatter(X[:, 0], X[:, 1], c=est.labels_, s=25 * certainty, cmap="tab10")
    acc = metrics.clustering_accuracy(y, est.labels_)
    name = f"auto (β_ = {est.beta_:.3g})" if beta == "auto" else f"{beta}"
    ax.set_title(f"β = {name}: accuracy {acc:.2f}\nmean max responsibility "
                 f"{certainty.mean():.2f}", size=9)
    ax.set_aspect("equal")
fig.tight_layout()
