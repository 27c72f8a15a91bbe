"""Figures for rankers: the embedding f(x) with the rank thresholds b_y (Definition 8.4)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._mpl import axes as _axes
from .._validation import check_labels


def plot_ranking(
    scores: ArrayLike,
    y: ArrayLike,
    thresholds: ArrayLike,
    x: ArrayLike | None = None,
    *,
    ax: Any = None,
    title: str | None = None,
    xlabel: str | None = None,
    random_state: int = 0,
) -> Any:
    """Plot f(x) of a ranker with its thresholds as horizontal lines.

    Parameters
    ----------
    scores : array-like of shape (n,)
        f(x), e.g. ``model.decision_function(X)``.
    y : array-like of shape (n,)
        True ranks (colours the points; the order of ``np.unique(y)`` is the rank order).
    thresholds : array-like of shape (n_ranks - 1,)
        ``model.thresholds_``.
    x : array-like of shape (n,), default=None
        A 1-D view of the points (a feature or an embedding coordinate) for the horizontal
        axis; by default the points are spread by their true rank (a strip plot), so a good
        ranker shows each rank's strip between its two thresholds.
    ax : matplotlib Axes, default=None
    title, xlabel : str, default=None
    random_state : int, default=0
        Seed of the horizontal jitter of the strip plot.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from kernel_patterns.plotting import plot_ranking
    >>> ax = plot_ranking([0.1, 0.5, 0.9], [1, 2, 3], [0.3, 0.7])
    >>> len(ax.lines)
    2
    """
    f = np.asarray(scores, dtype=np.float64).ravel()
    labels = check_labels(y, "y")
    b = np.asarray(thresholds, dtype=np.float64).ravel()
    if f.shape[0] != labels.shape[0]:
        raise ValueError(f"scores and y differ in length: {f.shape[0]} and {labels.shape[0]}.")
    classes, ranks = np.unique(labels, return_inverse=True)
    ax = _axes(ax)
    if x is None:
        jitter = np.random.default_rng(random_state).uniform(-0.3, 0.3, size=f.shape[0])
        xs = ranks + jitter
        ax.set_xticks(range(classes.shape[0]))
        ax.set_xticklabels([str(c) for c in classes])
        ax.set_xlabel(xlabel or "true rank")
    else:
        xs = np.asarray(x, dtype=np.float64).ravel()
        if xs.shape[0] != f.shape[0]:
            raise ValueError(f"x and scores differ in length: {xs.shape[0]} and {f.shape[0]}.")
        ax.set_xlabel(xlabel or "x")
    sc = ax.scatter(xs, f, c=ranks, cmap="viridis", s=12, vmin=0,
                    vmax=max(classes.shape[0] - 1, 1))
    for k, level in enumerate(b):
        ax.axhline(level, color="crimson", lw=0.9, ls="--",
                   label="thresholds $b_y$" if k == 0 else None)
    ax.set_ylabel("f(x)")
    if b.size:
        ax.legend(loc="upper left", fontsize=8)
    if x is not None:
        cbar = ax.figure.colorbar(sc, ax=ax, ticks=range(classes.shape[0]))
        cbar.ax.set_yticklabels([str(c) for c in classes])
        cbar.set_label("true rank")
    if title:
        ax.set_title(title)
    return ax
