"""
On-line ranking on a stream
===========================

``OnlineRanking`` (the book's Algorithm 8.14) is a perceptron for ranks: each new example is
ranked with the current function, and only a mistake changes it. ``partial_fit`` takes the data
as it comes; the held-out error falls as batches arrive, and ``n_updates_`` (the mistakes, k of
Theorem 8.15) grows ever more slowly. The data: Boston housing, its median value cut into
three ranks.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from kernel_patterns import OnlineRanking, datasets, metrics

X, medv = datasets.load_boston(return_X_y=True)
X = StandardScaler().fit_transform(X)
y = np.digitize(medv, np.quantile(medv, [1 / 3, 2 / 3])) + 1
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=0)

ranker = OnlineRanking(kernel_params={"gamma": 0.05})
seen, mze, updates = [], [], []
for start in range(0, len(X_tr), 25):
    ranker.partial_fit(X_tr[start:start + 25], y_tr[start:start + 25], classes=[1, 2, 3])
    seen.append(ranker.n_seen_)
    mze.append(metrics.mean_zero_one_error(y_te, ranker.predict(X_te)))
    updates.append(ranker.n_updates_)

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(seen, mze, "o-", label="held-out MZE")
ax.set_xlabel("training examples seen")
ax.set_ylabel("mean zero-one error")
ax2 = ax.twinx()
ax2.plot(seen, updates, "s--", color="C1", label="n_updates_ (mistakes)")
ax2.set_ylabel("updates")
fig.legend(loc="upper center", ncols=2, fontsize=8)
fig.tight_layout()
