"""
Kernel k-means: initialisations and restarts
============================================

Kernel k-means (the book's Algorithm 8.22; Rogers & Girolami §6.2.3) moves each point to the
cluster whose feature-space mean is nearest, which lowers the within-cluster sum of squares in
feature space (eq. 8.12, ``inertia_``) on every pass, down to a local minimum. Where it ends
depends on where it starts: the four ``init`` rules, each restarted 20 times on three moons.
``n_init`` keeps the best of its restarts, which is why it is worth its cost.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from kernel_patterns import KernelKMeans, datasets, metrics

X, y = datasets.make_three_moons(300, random_state=0)
X = datasets.scale_unit_interval(X)
inits = ["random", "kmeans", "n-k+1", "k-means++"]
inertia, accuracy = {}, {}
for init in inits:
    runs = [KernelKMeans(3, kernel_params={"gamma": 40}, init=init, n_init=1,
                         random_state=seed).fit(X) for seed in range(20)]
    inertia[init] = [r.inertia_ for r in runs]
    accuracy[init] = [metrics.clustering_accuracy(y, r.labels_) for r in runs]

fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
axes[0].boxplot([inertia[i] for i in inits], tick_labels=inits)
axes[0].set_ylabel("inertia_ (eq. 8.12), 20 single starts")
axes[1].boxplot([accuracy[i] for i in inits], tick_labels=inits)
axes[1].set_ylabel("accuracy against the moons")
fig.tight_layout()
for i in inits:
    print(f"{i:10s} best inertia {min(inertia[i]):.3f}, median accuracy "
          f"{np.median(accuracy[i]):.2f}")

# %%
# ``n_init=10`` (the default ``"auto"``) keeps the lowest inertia of ten k-means++ starts.
best = KernelKMeans(3, kernel_params={"gamma": 40}, random_state=0).fit(X)
ax = plt.figure(figsize=(4.5, 3.5)).gca()
ax.scatter(X[:, 0], X[:, 1], c=best.labels_, s=8, cmap="tab10")
ax.set_title(f"n_init=10: inertia {best.inertia_:.3f}, accuracy "
             f"{metrics.clustering_accuracy(y, best.labels_):.2f}")
