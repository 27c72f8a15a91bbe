"""
Laplacian embedding and kernel MDS
==================================

Two pictures of the same kernel. Kernel MDS (Algorithm 8.29) keeps the largest variance in
feature space, so it shows distances; the Laplacian embedding (Computation 8.30, Theorem 8.32)
keeps the eigenvectors of smallest non-zero Laplacian eigenvalue, so points strongly linked by
the kernel land together, and well separated clusters collapse towards points. The
eigenvalue spectrum (right) tells how many clusters the graph holds.
"""

# %%
import matplotlib.pyplot as plt

from kernel_patterns import KernelMDS, LaplacianEmbedding, datasets, plotting
from kernel_patterns.kernels import RBF

X, y = datasets.make_three_moons(300, random_state=0)
X = datasets.scale_unit_interval(X)
kernel = RBF(60)
mds = KernelMDS(2, kernel=kernel).fit(X)
lap = LaplacianEmbedding(2, kernel=kernel).fit(X)

fig, axes = plt.subplots(1, 3, figsize=(13, 4))
plotting.plot_embedding(mds.embedding_, y, ax=axes[0], title="KernelMDS(2, RBF(60))")
plotting.plot_embedding(lap.embedding_, y, ax=axes[1],
                        title="LaplacianEmbedding(2, RBF(60))")
lap8 = LaplacianEmbedding(8, kernel=kernel).fit(X)
plotting.plot_spectrum(lap8.eigenvalues_, n_selected=2, ax=axes[2],
                       title="Laplacian eigenvalues")
fig.tight_layout()
