"""The kernel GPClustering uses when none is given, and the length scale of any kernel."""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors

from ..._validation import FloatArray
from ...kernels import RBF, GPCovariance, Kernel

#: kernel=None: the length scale is this quantile of the distance to the k-th neighbour.
AUTO_QUANTILE = 0.9
AUTO_NEIGHBOR = 5


def auto_length_scale(X: FloatArray) -> float:
    """The data-driven length scale ℓ₀ of :func:`default_kernel`, in the units of ``X``.

    The 90th percentile of the distance from each point to its 5th nearest neighbour. Where
    copies make that 0, the 90th percentile of the distance from each distinct point to the
    nearest other one; 1 when every point is the same.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training points (at least 2).

    Returns
    -------
    float
        ℓ₀, in the units of ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import auto_length_scale
    >>> auto_length_scale(np.arange(10.0).reshape(-1, 1))  # 5th neighbour 5 apart
    5.0
    """
    ell = _neighbour_quantile(X, AUTO_NEIGHBOR)
    if ell > 0:
        return ell
    distinct = np.unique(X, axis=0)
    return _neighbour_quantile(distinct, 1) if distinct.shape[0] > 1 else 1.0


def _neighbour_quantile(X: FloatArray, neighbour: int) -> float:
    """The ``AUTO_QUANTILE`` quantile of the distance to the ``neighbour``-th neighbour."""
    k = min(neighbour, X.shape[0] - 1)
    dist = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)[0][:, k]
    return float(np.quantile(dist, AUTO_QUANTILE))


def default_kernel(X: FloatArray, factor: float = 1.0) -> GPCovariance:
    """The GP covariance chosen from the data when ``kernel=None``.

    ``GPCovariance(v0=1, v1=10, v2=1, l=1/ℓ²)`` with ``ℓ = factor ×``
    :func:`auto_length_scale` (eq. 2.7 with errata 4). The kernel is isotropic in the units of
    ``X``: features are not rescaled one by one.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Validated training points.
    factor : float, default=1.0
        Multiplies the data-driven length scale (the rungs of the length-scale ladder).

    Returns
    -------
    GPCovariance
        ``GPCovariance(v0=1, v1=10, v2=1, l=1/ℓ²)`` with a scalar ``l``.

    Examples
    --------
    >>> from kernel_patterns import datasets
    >>> X, _ = datasets.make_rings(random_state=0)
    >>> k = default_kernel(datasets.scale_unit_interval(X))
    >>> k.v0, k.v1, k.v2, round(float(k.l))
    (1.0, 10.0, 1.0, 283)
    """
    return kernel_at(factor * auto_length_scale(X))


def kernel_at(length_scale: float) -> GPCovariance:
    """``GPCovariance(v0=1, v1=10, v2=1, l=1/ℓ²)`` at the length scale ℓ; a ``ValueError``
    asking to rescale ``X`` where ``1/ℓ²`` overflows.
    """
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        l = float(1.0 / np.float64(length_scale) ** 2)
    if not np.isfinite(l):
        raise ValueError(
            f"The data-driven length scale of X is {length_scale:.3g}: the points are too "
            "close together for float64 (1/length² overflows). Rescale X (e.g. standardise "
            "it with sklearn.preprocessing.StandardScaler).")
    return GPCovariance(v0=1.0, v1=10.0, v2=1.0, l=l)


def kernel_length_scale(kernel: Kernel, X: FloatArray) -> float:
    """The length scale (units of ``X``) of steps, merge radii and the convergence test.

    GPCovariance: the smallest ``1/√l_m``; RBF: ``1/√(2γ)`` (γ from ``X`` if data-driven); any
    other differentiable kernel: 5 % of the largest feature range."""
    if isinstance(kernel, GPCovariance):
        return float(np.min(kernel.length_scale()))
    if isinstance(kernel, RBF):
        return float(1.0 / np.sqrt(2.0 * kernel.with_data_scale(X)._gamma()))
    span = float(np.max(np.ptp(X, axis=0)))
    return 0.05 * span if span > 0 else 1.0
