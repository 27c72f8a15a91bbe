"""
How good is a clustering? The spectral lower bound
==================================================

Proposition 8.28 of the book: no partition into k clusters can have a feature-space sum of
squares (``inertia_`` of kernel k-means) below the sum of the eigenvalues of K beyond the k
largest. The gap between kernel k-means' inertia and that bound is a certificate: a small gap
says no other partition is much better.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from kernel_patterns import KernelKMeans, datasets, metrics
from kernel_patterns.kernels import RBF

X, y = datasets.make_icassp_logo(random_state=0)
X = datasets.scale_unit_interval(X)
kernel = RBF(50)
K = kernel(X)
ks = range(2, 11)
inertia = [KernelKMeans(k, kernel=kernel, random_state=0).fit(X).inertia_ for k in ks]
bound = [metrics.spectral_lower_bound(K, k) for k in ks]

fig, axes = plt.subplots(1, 2, figsize=(11, 4))
axes[0].plot(ks, inertia, "o-", label="KernelKMeans inertia_")
axes[0].plot(ks, bound, "s--", label="spectral_lower_bound (Prop. 8.28)")
axes[0].set_xlabel("n_clusters")
axes[0].set_ylabel("sum of squares in feature space")
axes[0].legend()
km = KernelKMeans(6, kernel=kernel, random_state=0).fit(X)
axes[1].scatter(X[:, 0], X[:, 1], c=km.labels_, s=8, cmap="tab10")
axes[1].set_title(f"the ICASSP logo, k = 6: inertia {km.inertia_:.1f}, "
                  f"bound {metrics.spectral_lower_bound(K, 6):.1f}")
axes[1].set_aspect("equal")
fig.tight_layout()
print("gap ratio per k:", np.round(np.array(inertia) / np.array(bound), 2))
