"""
ν-ranking on an ordinal data set, with held-out scores
======================================================

``NuRanking`` (the book's Algorithm 8.9) learns one score f(x) and ``|Y|`` − 1 ordered thresholds;
a point's rank is the first threshold its score stays under. The relative CPU performance
table (MASS ``cpus``, shipped by the ``data`` extra), its performance cut into four ranks of
equal width on the log scale. Training errors say little: the held-out mean zero-one error
(MZE) and mean absolute error (MAE) on a quarter of the machines kept aside say how it ranks
new ones. A small ν fits the training ranks closely and ranks new machines worse; the default
``nu="auto"`` chooses ν (with the kernel width and the threshold rule) by a cross-validation
inside ``fit`` and records its choice in ``nu_``.
"""

# %%
import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from kernel_patterns import NuRanking, OnlineRanking, datasets, metrics, plotting

X, perf = datasets.load_cpus(return_X_y=True)
X = StandardScaler().fit_transform(np.log1p(X))
edges = np.linspace(np.log(perf).min(), np.log(perf).max(), 5)[1:-1]
y = np.digitize(np.log(perf), edges) + 1  # ranks 1..4
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)

for est in (NuRanking(nu=0.1), NuRanking(nu=0.5), NuRanking(), OnlineRanking(random_state=0)):
    est.fit(X_tr, y_tr)
    print(f"{est!r:32s} train MZE {metrics.mean_zero_one_error(y_tr, est.predict(X_tr)):.3f}"
          f"  held-out MZE {metrics.mean_zero_one_error(y_te, est.predict(X_te)):.3f}"
          f"  MAE {metrics.mean_absolute_error(y_te, est.predict(X_te)):.3f}")

# %%
# The held-out machines' scores f(x) by true rank, with the learnt thresholds.
nu = NuRanking().fit(X_tr, y_tr)
ax = plotting.plot_ranking(nu.decision_function(X_te), y_te, nu.thresholds_,
                           title=f"NuRanking(): ν chosen {nu.nu_:.2f}; held-out scores")
ax.figure.set_size_inches(7, 3.5)
ax.figure.tight_layout()
