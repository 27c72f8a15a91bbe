"""
Real data with the defaults: wine and digits
============================================

Every clustering estimator with its defaults on two standardised real data sets, next to
scikit-learn's ``KMeans`` and ``SpectralClustering``, scored by the adjusted Rand index
against the classes. GP clustering is not given the count; the others get the number of
classes. The digits are subsampled to 600 images to keep the example fast.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.cluster import KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.datasets import load_digits
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

from kernel_patterns import (
    GPClustering,
    KernelKMeans,
    SoftKernelKMeans,
    SpectralClustering,
    datasets,
)

wine = datasets.load_wine()
digits = load_digits()
rng = np.random.default_rng(0)
keep = rng.choice(len(digits.target), 600, replace=False)
sets = {"wine": (wine.data, wine.target), "digits (600)": (digits.data[keep],
                                                           digits.target[keep])}

scores: dict[str, list[float]] = {}
for X, y in sets.values():
    X = StandardScaler().fit_transform(X)
    k = int(np.unique(y).size)
    ests = {
        "GPClustering": GPClustering(random_state=0),
        "KernelKMeans": KernelKMeans(k, random_state=0),
        "SoftKernelKMeans": SoftKernelKMeans(k, random_state=0),
        "SpectralClustering": SpectralClustering(k, random_state=0),
        "sklearn KMeans": KMeans(k, n_init=10, random_state=0),
        "sklearn Spectral": SkSpectral(k, affinity="nearest_neighbors", random_state=0),
    }
    for ename, est in ests.items():
        scores.setdefault(ename, []).append(adjusted_rand_score(y, est.fit_predict(X)))

# %%
fig, ax = plt.subplots(figsize=(8, 3.5))
width = 0.13
for i, (ename, s) in enumerate(scores.items()):
    ax.bar(np.arange(len(sets)) + (i - 2.5) * width, s, width, label=ename)
ax.set_xticks(range(len(sets)), list(sets))
ax.set_ylabel("adjusted Rand index")
ax.legend(fontsize=7, ncols=2)
fig.tight_layout()
for ename, s in scores.items():
    print(f"{ename:20s}", "  ".join(f"{v:.3f}" for v in s))
