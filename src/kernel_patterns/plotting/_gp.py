"""Figures of GP variance clustering: the variance landscape (Figures 4 and 5 of Kim & Lee 2007)
and the dendrogram of the saddle-level hierarchy (errata 3, the crabs experiment)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_matrix
from ._base import _axes


def plot_variance_landscape(
    model: Any,
    X: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    *,
    ax: Any = None,
    level: float | None = None,
    resolution: int = 150,
    margin: float = 0.1,
    title: str | None = None,
    cmap: str = "tab10",
) -> Any:
    """The variance σ² of a fitted 2-D :class:`~kernel_patterns.GPClustering` as a filled
    contour map, the level contour σ² = r (the cluster boundaries, solid black), the stable
    equilibrium points as crosses and the points coloured by cluster.

    Parameters
    ----------
    model : GPClustering
        Fitted on 2-D data.
    X : array-like of shape (n_samples, 2), default=None
        Points to draw (default: none). With ``labels=None`` they are coloured by
        ``model.predict(X)``, or by ``model.labels_`` when X has as many rows as the training set.
    labels : array-like of shape (n_samples,), default=None
    ax : matplotlib Axes, default=None
    level : float, default=None
        Contour to draw (default ``model.level_``).
    resolution : int, default=150
        Grid points per axis.
    margin : float, default=0.1
        Extra room around the points, as a fraction of their range.
    title : str, default=None

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from kernel_patterns import GPClustering, datasets, plotting
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X, _ = datasets.make_rings((40, 60), random_state=0)
    >>> X = datasets.scale_unit_interval(X)
    >>> gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=100)).fit(X)
    >>> ax = plotting.plot_variance_landscape(gp, X, resolution=30, title="rings")
    >>> ax.get_title()
    'rings'
    """
    S = np.asarray(model.equilibria_)
    if S.shape[1] != 2:
        raise ValueError(f"the model must be fitted on 2-D data; it has {S.shape[1]} features.")
    pts = S if X is None else check_matrix(X, "X")
    if pts.shape[1] != 2:
        raise ValueError(f"X must have 2 columns; got {pts.shape[1]}.")
    lo, hi = np.vstack([pts, S]).min(axis=0), np.vstack([pts, S]).max(axis=0)
    pad = margin * np.where(hi > lo, hi - lo, 1.0)
    gx = np.linspace(lo[0] - pad[0], hi[0] + pad[0], resolution)
    gy = np.linspace(lo[1] - pad[1], hi[1] + pad[1], resolution)
    GX, GY = np.meshgrid(gx, gy)
    V = model.variance(np.c_[GX.ravel(), GY.ravel()]).reshape(GX.shape)
    r = float(model.level_ if level is None else level)
    ax = _axes(ax)
    cs = ax.contourf(GX, GY, V, levels=30, cmap="Greys", alpha=0.6)
    ax.figure.colorbar(cs, ax=ax, fraction=0.046, label="σ²(x)")
    if V.min() < r < V.max():
        ax.contour(GX, GY, V, levels=[r], colors="k", linewidths=1.5)
    if X is not None:
        if labels is None:
            labels = model.labels_ if pts.shape[0] == model.labels_.shape[0] else model.predict(pts)
        _, codes = np.unique(np.asarray(labels), return_inverse=True)
        ax.scatter(pts[:, 0], pts[:, 1], c=codes, cmap=cmap, s=12, vmin=0,
                   vmax=max(9, int(codes.max())), zorder=3)
    ax.scatter(S[:, 0], S[:, 1], marker="x", c="r", s=50, linewidths=2, zorder=4)
    ax.set_aspect("equal", adjustable="datalim")
    if title:
        ax.set_title(title)
    return ax


def plot_hierarchy(model: Any, *, ax: Any = None, title: str | None = None) -> Any:
    """Dendrogram of ``model.hierarchy_``: SEP groups merging at their saddle levels, with the
    model's level drawn as a dashed line (clusters are the branches it cuts).

    Examples
    --------
    >>> from kernel_patterns import GPClustering, datasets, plotting
    >>> from kernel_patterns.kernels import GPCovariance
    >>> X, _ = datasets.make_rings((40, 60), random_state=0)
    >>> X = datasets.scale_unit_interval(X)
    >>> gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=100)).fit(X)
    >>> ax = plotting.plot_hierarchy(gp)
    >>> ax.get_ylabel()
    'merge level σ²'
    """
    from scipy.cluster.hierarchy import dendrogram

    Z = np.asarray(model.hierarchy_)
    ax = _axes(ax)
    if Z.shape[0] == 0:
        ax.text(0.5, 0.5, "one equilibrium point: no hierarchy", ha="center",
                transform=ax.transAxes)
    else:
        dendrogram(Z, ax=ax, color_threshold=float(model.level_), no_labels=Z.shape[0] > 40)
        ax.axhline(float(model.level_), ls="--", c="k", lw=1)
        lo = float(Z[:, 2].min())
        hi = max(float(Z[:, 2].max()), float(model.level_))
        ax.set_ylim(lo - 0.05 * (hi - lo + 1e-12), hi + 0.05 * (hi - lo + 1e-12))
    ax.set_xlabel("stable equilibrium points")
    ax.set_ylabel("merge level σ²")
    if title:
        ax.set_title(title)
    return ax
