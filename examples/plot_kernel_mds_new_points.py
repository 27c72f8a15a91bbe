"""
Kernel MDS of new points
========================

``KernelMDS`` (the book's Algorithm 8.29) places the points by the top eigenvectors of the
centred kernel matrix: the picture of the data in the kernel's feature space. ``transform``
projects points it has never seen into the same coordinates (Nyström's formula), so an
embedding fitted once can place new data.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from kernel_patterns import KernelMDS, datasets
from kernel_patterns.kernels import RBF

X, y = datasets.make_rings((100, 200), random_state=0)
X_new, y_new = datasets.make_rings((30, 60), random_state=1)
mds = KernelMDS(n_components=2, kernel=RBF(2.0)).fit(X)
Z, Z_new = mds.embedding_, mds.transform(X_new)
print("the training points' transform equals their embedding:",
      np.allclose(mds.transform(X), Z, atol=1e-6))

fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
axes[0].scatter(X[:, 0], X[:, 1], c=y, s=8, cmap="coolwarm")
axes[0].scatter(X_new[:, 0], X_new[:, 1], c=y_new, s=40, marker="*", cmap="coolwarm",
                edgecolors="k", linewidths=0.4)
axes[0].set_title("data (stars: new points)")
axes[1].scatter(Z[:, 0], Z[:, 1], c=y, s=8, cmap="coolwarm")
axes[1].scatter(Z_new[:, 0], Z_new[:, 1], c=y_new, s=40, marker="*", cmap="coolwarm",
                edgecolors="k", linewidths=0.4)
axes[1].set_title("KernelMDS(kernel=RBF(2)): transform(new points)")
fig.tight_layout()
