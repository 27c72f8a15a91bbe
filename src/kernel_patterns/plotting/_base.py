"""Shared plotting helpers and the basic cluster and kernel-matrix figures."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._mpl import axes as _axes
from .._mpl import pyplot
from .._validation import check_labels, check_matrix
from ..io import atomic_path


def save_figure(fig_or_ax: Any, path: str | os.PathLike[str], dpi: int = 120) -> Path:
    """Save a figure (or the figure of an axes) to ``path`` atomically and close it.

    The PNG is written to a temporary file in the same folder, then renamed, so a reader never
    sees a half-written file.
    """
    fig = getattr(fig_or_ax, "figure", fig_or_ax)
    target = Path(path)
    with atomic_path(target, prefix="tmp") as tmp:
        fig.savefig(tmp, dpi=dpi, bbox_inches="tight")
    pyplot().close(fig)
    return target


def plot_clusters(
    X: ArrayLike,
    labels: ArrayLike | None = None,
    *,
    ax: Any = None,
    centers: ArrayLike | None = None,
    title: str | None = None,
    s: float = 14.0,
    cmap: str = "tab10",
) -> Any:
    """Scatter 2-D points coloured by cluster label, optionally with centres as crosses.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    labels : array-like of shape (n_samples,), default=None
    ax : matplotlib Axes, default=None
    centers : array-like of shape (n_centers, 2), default=None
        Drawn as black crosses (e.g. stable equilibrium points).
    title : str, default=None

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from kernel_patterns import datasets, plotting
    >>> X, y = datasets.make_two_moons(random_state=0)
    >>> ax = plotting.plot_clusters(X, y, title="two moons")
    >>> ax.get_title()
    'two moons'
    """
    A = check_matrix(X, "X")
    if A.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to plot; got {A.shape[1]} (embed it first).")
    ax = _axes(ax)
    if labels is None:
        ax.scatter(A[:, 0], A[:, 1], s=s, c="0.3")
    else:
        lab = check_labels(labels, "labels")
        if lab.shape[0] != A.shape[0]:
            raise ValueError(f"labels has {lab.shape[0]} entries but X has {A.shape[0]} rows.")
        _, codes = np.unique(lab, return_inverse=True)
        ax.scatter(A[:, 0], A[:, 1], s=s, c=codes, cmap=cmap, vmin=0, vmax=max(9, codes.max()))
    if centers is not None:
        C = check_matrix(centers, "centers")
        ax.scatter(C[:, 0], C[:, 1], marker="x", c="k", s=60, linewidths=2)
    if title:
        ax.set_title(title)
    ax.set_aspect("equal", adjustable="datalim")
    return ax


def plot_kernel_matrix(
    K: ArrayLike, labels: ArrayLike | None = None, *, ax: Any = None, title: str | None = None
) -> Any:
    """Heat map of a kernel matrix, rows and columns sorted by label when labels are given.

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns import plotting
    >>> ax = plotting.plot_kernel_matrix(np.eye(3), labels=[1, 0, 1])
    >>> ax.images[0].get_array().shape
    (3, 3)
    """
    M = check_matrix(K, "K")
    if labels is not None:
        order = np.argsort(check_labels(labels, "labels"), kind="stable")
        M = M[np.ix_(order, order)]
    ax = _axes(ax)
    im = ax.imshow(M, cmap="viridis", interpolation="nearest")
    ax.figure.colorbar(im, ax=ax, fraction=0.046)
    if title:
        ax.set_title(title)
    return ax
