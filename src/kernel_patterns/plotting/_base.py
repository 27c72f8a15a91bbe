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
from ._colors import NOISE_COLOR, label_colors


def save_figure(fig_or_ax: Any, path: str | os.PathLike[str], dpi: int = 120,
                tight: bool = True) -> Path:
    """Save a figure (or the figure of an axes) to ``path`` atomically and close it.

    The PNG is written to a temporary file in the same folder, then renamed, so a reader never
    sees a half-written file.

    Parameters
    ----------
    fig_or_ax : matplotlib Figure or Axes
        What to save (an Axes saves its whole figure).
    path : str or os.PathLike
        Where to write the PNG.
    dpi : int, default=120
        Resolution.
    tight : bool, default=True
        Crop to what is drawn (``bbox_inches="tight"``: one more layout pass); False for a
        figure laid out already, drawn once.

    Returns
    -------
    path : pathlib.Path
        The file written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from kernel_patterns import plotting
    >>> ax = plotting.plot_clusters([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = plotting.save_figure(ax, Path(tmp) / "clusters.png")
    ...     path.name, path.stat().st_size > 0
    ('clusters.png', True)
    """
    fig = getattr(fig_or_ax, "figure", fig_or_ax)
    target = Path(path)
    with atomic_path(target, prefix="tmp") as tmp:
        fig.savefig(tmp, dpi=dpi, bbox_inches="tight" if tight else None)
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
    cmap: str | None = None,
    legend: bool = False,
    legend_title: str | None = None,
) -> Any:
    """Scatter 2-D points coloured by cluster label, optionally with centres as crosses.

    Points labelled -1 (noise, as :class:`~kernel_patterns.GPClustering` marks them) are drawn
    as grey crosses, apart from the clusters' colours.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    labels : array-like of shape (n_samples,), default=None
    ax : matplotlib Axes, default=None
    centers : array-like of shape (n_centers, 2), default=None
        Drawn as black crosses (e.g. stable equilibrium points).
    title : str, default=None
        Axes title above the scatter.
    s : float, default=14.0
        Marker size.
    cmap : str, default=None
        Matplotlib colour map of the clusters; default the cluster palette
        (:func:`~kernel_patterns.plotting.label_colors`: distinct past 30 clusters, the same
        colour for a cluster in every figure).
    legend : bool, default=False
        Add a legend beside the axes, one entry per label with its number of points (at most
        20 entries; more labels are summed up in a last entry).
    legend_title : str, default=None

    Returns
    -------
    ax : matplotlib Axes
        The axes with the scatter.

    Examples
    --------
    >>> from kernel_patterns import datasets, plotting
    >>> X, y = datasets.make_two_moons(random_state=0)
    >>> ax = plotting.plot_clusters(X, y, title="two moons", legend=True)
    >>> ax.get_title(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('two moons', ['0 (104)', '1 (96)'])
    """
    A = check_matrix(X, "X")
    if A.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to plot; got {A.shape[1]} (embed it first).")
    ax = _axes(ax)
    entries: list[tuple[str, Any, str, int]] = []  # marker, colour, name, points
    if labels is None:
        ax.scatter(A[:, 0], A[:, 1], s=s, c="0.3")
    else:
        lab = check_labels(labels, "labels")
        if lab.shape[0] != A.shape[0]:
            raise ValueError(f"labels has {lab.shape[0]} entries but X has {A.shape[0]} rows.")
        noise = _is_noise(lab)
        values, codes, counts = np.unique(lab[~noise], return_inverse=True, return_counts=True)
        if values.size and cmap is None:
            colors = label_colors(values)
            ax.scatter(A[~noise, 0], A[~noise, 1], s=s, c=colors[codes])
            entries = [("o", tuple(colors[i]), str(v), int(n))
                       for i, (v, n) in enumerate(zip(values, counts, strict=True))]
        elif values.size:
            sc = ax.scatter(A[~noise, 0], A[~noise, 1], s=s, c=codes, cmap=cmap, vmin=0,
                            vmax=max(9, len(values) - 1))
            entries = [("o", sc.cmap(sc.norm(i)), str(v), int(n))
                       for i, (v, n) in enumerate(zip(values, counts, strict=True))]
        if noise.any():
            ax.scatter(A[noise, 0], A[noise, 1], s=s * 1.5, marker="x", c=[NOISE_COLOR],
                       linewidths=1)
            entries.append(("x", NOISE_COLOR, "noise", int(noise.sum())))
    if centers is not None:
        C = check_matrix(centers, "centers")
        ax.scatter(C[:, 0], C[:, 1], marker="x", c="k", s=60, linewidths=2)
    if legend and entries:
        if len(entries) > 20:
            rest = entries[19:]
            entries = [*entries[:19], ("o", "w", f"{len(rest)} more", sum(e[3] for e in rest))]
        ax.legend(handles=[_handle(*e) for e in entries], title=legend_title,
                  loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                  frameon=False)
    if title:
        ax.set_title(title)
    ax.set_aspect("equal", adjustable="datalim")
    return ax


def _is_noise(labels: np.ndarray) -> np.ndarray:
    """Entries equal to -1 (numbers only: a text label "-1" is a name)."""
    if labels.dtype.kind in "iuf":
        return np.asarray(labels == -1)
    return np.zeros(labels.shape, dtype=bool)


def _handle(marker: str, color: Any, name: str, n_points: int) -> Any:
    """A legend entry: a marker of ``color`` with no line, labelled "name (n_points)"."""
    from matplotlib.lines import Line2D

    return Line2D([], [], ls="none", marker=marker, color=color, label=f"{name} ({n_points})",
                  markeredgecolor="0.3" if isinstance(color, str) and color == "w" else color)


def plot_kernel_matrix(
    K: ArrayLike, labels: ArrayLike | None = None, *, ax: Any = None, title: str | None = None
) -> Any:
    """Heat map of a kernel matrix, rows and columns sorted by label when labels are given.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        The kernel matrix.
    labels : array-like of shape (n_samples,), default=None
        Sort rows and columns by these labels (stable), so that clusters show as blocks.
    ax : matplotlib Axes, default=None
        Where to draw (default: a new figure).
    title : str, default=None
        Axes title above the matrix.

    Returns
    -------
    ax : matplotlib Axes
        The axes with the heat map.

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
