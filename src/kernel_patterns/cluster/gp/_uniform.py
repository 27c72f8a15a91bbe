"""Whether data are uniform on their bounding box: Hopkins' test, which gates the floor rule
of :func:`~._cuts.data_level_components`.

Hopkins' test (Hopkins & Skellam, Annals of Botany 1954) compares the distances ``u`` from
``m`` points drawn uniformly on the box to their nearest data point with the distances
``w`` from ``m`` data points to their nearest other one. The statistic is
``H = Σ u / (Σ u + Σ w)`` (about 1/2 for uniform data, near 1 for gathered data); the
p-value is the one-sided Mann-Whitney test of ``u`` against ``w``. Arrays in, arrays out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import mannwhitneyu
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_random_state

from ..._validation import FloatArray

#: probes of Hopkins' test: a tenth of the points (Hopkins' rule), between these bounds
MIN_PROBES, MAX_PROBES = 10, 200


@dataclass(frozen=True)
class HopkinsTest:
    """What :func:`hopkins_test` returns: Hopkins' ``statistic`` H in [0, 1] (about 1/2 for
    uniform data, near 1 when they gather), the one-sided Mann-Whitney ``pvalue`` and
    ``n_probes`` m."""

    statistic: float
    pvalue: float
    n_probes: int


def hopkins_test(X: FloatArray, random_state: Any = None) -> HopkinsTest:
    """Hopkins' test of the hypothesis that ``X`` (at least two rows) is uniform on its box.

    m probes (a tenth of the rows, ``MIN_PROBES`` to ``MAX_PROBES``) drawn uniformly on the box and
    m rows drawn without replacement; distances to the nearest (other) row of ``X``."""
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    if n < 2:
        raise ValueError(f"hopkins_test needs at least 2 rows; got {n}.")
    rng = check_random_state(random_state)
    m = min(n - 1, max(MIN_PROBES, min(n // 10, MAX_PROBES)))
    probes = rng.uniform(X.min(axis=0), X.max(axis=0), size=(m, d))
    rows = rng.choice(n, m, replace=False)
    nn = NearestNeighbors(n_neighbors=2).fit(X)
    u = nn.kneighbors(probes, n_neighbors=1)[0][:, 0]
    w = nn.kneighbors(X[rows], n_neighbors=2)[0][:, 1]
    total = u.sum() + w.sum()
    H = float(u.sum() / total) if total > 0 else 0.5
    pvalue = float(mannwhitneyu(u, w, alternative="greater").pvalue)
    return HopkinsTest(statistic=H, pvalue=pvalue, n_probes=int(m))
