"""Figures of GP variance clustering: the variance landscape (Figures 4 and 5 of Kim & Lee 2007)
and the dendrogram of the saddle-level hierarchy (errata 3, the crabs experiment).

Both draw from the result objects (:class:`~kernel_patterns.cluster.gp.GPLandscape`,
:class:`~kernel_patterns.cluster.gp.GPHierarchy`), never from estimator internals.
"""

from __future__ import annotations

from typing import Any

from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from ..cluster import GPClustering
from ..cluster.gp import GPHierarchy, GPLandscape


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
    model : GPClustering or GPLandscape
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
        Axes title (none by default).
    cmap : str, default="tab10"
        Matplotlib colour map of the clusters.

    Returns
    -------
    ax : matplotlib Axes
        The axes with the contour map.

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
    return _landscape(model).plot(X, labels, ax=ax, level=level, resolution=resolution,
                                  margin=margin, title=title, cmap=cmap)


def plot_hierarchy(model: Any, *, ax: Any = None, title: str | None = None) -> Any:
    """Dendrogram of ``model.hierarchy_``: SEP groups merging at their saddle levels, with the
    model's level drawn as a dashed line (clusters are the branches it cuts).

    ``model`` is a fitted :class:`~kernel_patterns.GPClustering`, its ``landscape_`` or a
    :class:`~kernel_patterns.cluster.gp.GPHierarchy`.

    Parameters
    ----------
    model : GPClustering, GPLandscape or GPHierarchy
        Fitted.
    ax : matplotlib Axes, default=None
        Where to draw (default: a new figure).
    title : str, default=None
        Axes title above the dendrogram.

    Returns
    -------
    ax : matplotlib Axes
        The axes with the dendrogram.

    Examples
    --------
    >>> from kernel_patterns import GPClustering, datasets, plotting
    >>> X, _ = datasets.make_two_moons((30, 30), random_state=0)
    >>> ax = plotting.plot_hierarchy(GPClustering(n_clusters=2, random_state=0).fit(X))
    >>> ax.get_ylabel()
    'merge level σ²'
    """
    tree = model if isinstance(model, GPHierarchy) else _landscape(model).hierarchy
    return tree.plot(ax=ax, title=title)


def _landscape(model: Any) -> GPLandscape:
    """The result object of a fitted :class:`GPClustering` (or the object itself)."""
    if isinstance(model, GPLandscape):
        return model
    if not isinstance(model, GPClustering):
        raise TypeError(
            f"model must be a fitted GPClustering or a GPLandscape; got {type(model).__name__}."
        )
    check_is_fitted(model)
    return model.landscape_
