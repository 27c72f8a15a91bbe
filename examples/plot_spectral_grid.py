"""
The 4 × 4 spectral grid: matrices × assignment rules
====================================================

``SpectralClustering`` offers the four matrices of the book's §8.2.3 (the kernel matrix K, the
random walk D⁻¹K, the normalised D^-½ K D^-½ and the Laplacian D − K) and four ways to turn
their eigenvectors into labels (re-clustering them with k-means, the largest eigenvector entry,
the column-pivoted QR, and the sign threshold of Remark 8.23). Here on two moons with an RBF
kernel; each panel gives the accuracy.
"""

# %%
import matplotlib.pyplot as plt

from kernel_patterns import SpectralClustering, datasets, metrics
from kernel_patterns.kernels import RBF

X, y = datasets.make_two_moons(random_state=0)
X = datasets.scale_unit_interval(X)
matrices = ["K", "random_walk", "normalized", "laplacian"]
rules = ["recluster", "eigenvector", "qr", "threshold"]
fig, axes = plt.subplots(4, 4, figsize=(10, 10))
for i, matrix in enumerate(matrices):
    for j, assign in enumerate(rules):
        sc = SpectralClustering(2, kernel=RBF(60), matrix=matrix, assign=assign,
                                random_state=0).fit(X)
        ax = axes[i, j]
        ax.scatter(X[:, 0], X[:, 1], c=sc.labels_, s=5, cmap="tab10")
        ax.set_title(f"{matrix} × {assign}\naccuracy "
                     f"{metrics.clustering_accuracy(y, sc.labels_):.2f}", size=8)
        ax.set_xticks([])
        ax.set_yticks([])
fig.tight_layout()
