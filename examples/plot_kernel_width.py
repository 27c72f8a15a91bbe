"""
Choosing the kernel width
=========================

An RBF kernel k(x, z) = exp(−γ‖x − z‖²) sees structure at the scale 1/√γ. Too small a γ and
kernel k-means is plain k-means (straight boundaries); too large and every point is alone in
feature space. ``gamma="scale"`` (the default, 1 / (n_features · X.var()) of the training
data, as scikit-learn's SVC) is a safe start, recorded in the fitted ``kernel_``; the
kernel matrices below show what each γ makes of the two moons (points sorted by moon).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from kernel_patterns import KernelKMeans, datasets, metrics, plotting
from kernel_patterns.kernels import RBF

X, y = datasets.make_two_moons(random_state=0)
X = datasets.scale_unit_interval(X)
order = np.argsort(y, kind="stable")
gammas = ["scale", 3.0, 30.0, 300.0]
fig, axes = plt.subplots(2, len(gammas), figsize=(12, 6))
for j, gamma in enumerate(gammas):
    km = KernelKMeans(2, kernel=RBF(gamma), random_state=0).fit(X)
    acc = metrics.clustering_accuracy(y, km.labels_)
    axes[0, j].scatter(X[:, 0], X[:, 1], c=km.labels_, s=8, cmap="tab10")
    axes[0, j].set_title(f"{km.kernel_!r}\naccuracy {acc:.2f}", size=9)
    plotting.plot_kernel_matrix(km.kernel_(X[order]), ax=axes[1, j], title="K, sorted")
fig.tight_layout()
