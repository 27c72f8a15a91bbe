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
    """What :func:`hopkins_test` returns (its fields, also its attributes).

    Parameters
    ----------
    statistic : float
        Hopkins' H, in [0, 1]: about 1/2 for data uniform on their box, near 1 when they
        gather.
    pvalue : float
        The one-sided Mann-Whitney p-value of the probes' distances against the data
        points' (small: the data are not uniform on their box).
    n_probes : int
        ``m``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._uniform import hopkins_test
    >>> X = np.random.RandomState(1).uniform(size=(500, 3))
    >>> test = hopkins_test(X, random_state=0)
    >>> test.n_probes, bool(0.4 < test.statistic < 0.6)
    (50, True)
    """

    statistic: float
    pvalue: float
    n_probes: int


def hopkins_test(X: FloatArray, random_state: Any = None) -> HopkinsTest:
    """Hopkins' test of the hypothesis that ``X`` is uniform on its bounding box.

    ``m`` (a tenth of the points, from ``MIN_PROBES`` to ``MAX_PROBES``, at most all of them)
    points drawn uniformly on the box of ``X`` and ``m`` rows of ``X`` drawn without
    replacement; distances to the nearest row of ``X`` (another row, for the rows drawn).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The data (finite, at least two rows).
    random_state : int, RandomState instance or None, default=None
        The probes and the rows drawn.

    Returns
    -------
    HopkinsTest

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp._uniform import hopkins_test
    >>> rng = np.random.RandomState(1)
    >>> bool(hopkins_test(rng.uniform(size=(1000, 5)), random_state=0).pvalue > 0.05)
    True
    >>> blobs = np.r_[rng.normal(0, 0.1, (500, 5)), rng.normal(1, 0.1, (500, 5))]
    >>> bool(hopkins_test(blobs, random_state=0).pvalue < 1e-6)
    True
    """
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
