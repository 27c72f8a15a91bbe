"""
A run on a Dask cluster
=======================

``kernel_patterns.distributed`` moves the same solvers to a Dask cluster. Here a
``LocalCluster`` in this process (``processes=False``, to keep the example light; a real
cluster takes a scheduler address instead): ``nystrom_kmeans`` on 200,000 moons generated on
the workers, whose data, features and labels stay there.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from distributed import Client, LocalCluster
from kernel_patterns import KernelKMeans, datasets, metrics
from kernel_patterns.distributed import dask_backend, make_moons, nystrom_kmeans

with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                  dashboard_address=None) as cluster, Client(cluster) as client:
    # 1. the usual estimator, its kernel row blocks on the workers
    X, y = datasets.make_two_moons((500, 500), random_state=0)
    with dask_backend(client):
        km = KernelKMeans(2, kernel_params={"gamma": 5.0}, random_state=0).fit(X)
    print("exact KernelKMeans on the cluster, accuracy",
          round(metrics.clustering_accuracy(y, km.labels_), 3))

    # 2. Nyström kernel k-means of points that live on the workers
    Xd, yd = make_moons(200_000, chunks=50_000, random_state=0)
    res = nystrom_kmeans(Xd, 2, kernel_params={"gamma": 8.0}, n_landmarks=100,
                         random_state=0, client=client)
    Xs, ys, labels = (a[:4000].compute() for a in (Xd, yd, res.labels))

print("Nyström on the workers, accuracy on the first 4,000 points",
      round(metrics.clustering_accuracy(ys, labels), 3))
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
axes[0].scatter(X[:, 0], X[:, 1], c=km.labels_, s=4, cmap="tab10")
axes[0].set_title("dask_backend: exact KernelKMeans")
axes[1].scatter(Xs[:, 0], Xs[:, 1], c=np.asarray(labels), s=2, cmap="tab10")
axes[1].set_title("nystrom_kmeans: 200,000 points (4,000 shown)")
fig.tight_layout()
