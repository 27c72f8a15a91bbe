"""Embedding figures: 2-D / 3-D scatter of an embedding, and an eigenvalue spectrum with its gap."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._mpl import axes as _axes
from .._validation import check_labels, check_matrix
from ._colors import label_colors


def plot_embedding(
    Z: ArrayLike,
    labels: ArrayLike | None = None,
    *,
    ranks: ArrayLike | None = None,
    ax: Any = None,
    title: str | None = None,
    axis_labels: tuple[str, ...] | None = None,
    s: float = 16.0,
    cmap: str | None = None,
) -> Any:
    """Scatter an embedding in 2-D or 3-D, coloured by labels (categories) or ranks (ordered).

    Parameters
    ----------
    Z : array-like of shape (n_samples, 2) or (n_samples, 3)
        E.g. ``KernelMDS().fit_transform(X)`` or ``LaplacianEmbedding().embedding_``.
    labels : array-like of shape (n_samples,), default=None
        Categories, drawn with a qualitative colour map and a legend.
    ranks : array-like of shape (n_samples,), default=None
        Ordered values (ranks, scores), drawn with a sequential colour map and a colour bar.
        Give ``labels`` or ``ranks``, not both.
    ax : matplotlib Axes, default=None
        For 3-D data, a 3-D axes (``projection="3d"``); a new one when None.
    title : str, default=None
        Axes title above the embedding.
    axis_labels : tuple of str, default=None
        Axis names (e.g. ``("MDS 1 (41%)", "MDS 2 (22%)")``).
    s : float, default=16
        Marker size.
    cmap : str, default=None
        For labels the cluster palette (:func:`~kernel_patterns.plotting.label_colors`), for
        ranks "viridis"

    Returns
    -------
    ax : matplotlib Axes
        The axes with the embedding (3-D axes for three columns).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns import plotting
    >>> Z = np.random.default_rng(0).normal(size=(30, 3))
    >>> ax = plotting.plot_embedding(Z, labels=np.arange(30) % 3, title="3-D")
    >>> ax.name
    '3d'
    >>> ax = plotting.plot_embedding(Z[:, :2], ranks=np.arange(30))
    >>> len(ax.collections)
    1
    """
    A = check_matrix(Z, "Z")
    dim = A.shape[1]
    if dim not in (2, 3):
        raise ValueError(f"Z must have 2 or 3 columns to plot; got {dim}.")
    if labels is not None and ranks is not None:
        raise ValueError("give labels or ranks, not both.")
    ax = _axes(ax, projection="3d" if dim == 3 else None)
    if dim == 3 and getattr(ax, "name", "") != "3d":
        raise ValueError("a 3-D embedding needs a 3-D axes (projection='3d').")
    cols = [A[:, j] for j in range(dim)]
    if labels is not None:
        lab = check_labels(labels, "labels")
        if lab.shape[0] != A.shape[0]:
            raise ValueError(f"labels has {lab.shape[0]} entries but Z has {A.shape[0]} rows.")
        classes, codes = np.unique(lab, return_inverse=True)
        if cmap is None:  # the cluster palette: distinct past 30 labels, noise grey
            colors = [tuple(c) for c in label_colors(classes)]
        else:
            import matplotlib as mpl

            cm = mpl.colormaps[cmap]
            colors = [cm(c % cm.N) for c in range(len(classes))]
        for c, name in enumerate(classes):
            m = codes == c
            ax.scatter(*[x[m] for x in cols], s=s, color=colors[c], label=str(name))
        ax.legend(fontsize="small", markerscale=1.5, loc="best")
    elif ranks is not None:
        r = check_labels(ranks, "ranks")
        if r.shape[0] != A.shape[0]:
            raise ValueError(f"ranks has {r.shape[0]} entries but Z has {A.shape[0]} rows.")
        sc = ax.scatter(*cols, s=s, c=np.asarray(r, dtype=np.float64), cmap=cmap or "viridis")
        ax.figure.colorbar(sc, ax=ax, fraction=0.046, label="rank")
    else:
        ax.scatter(*cols, s=s, c="0.3")
    names = axis_labels or tuple(f"component {j + 1}" for j in range(dim))
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if dim == 3:
        ax.set_zlabel(names[2])
    if title:
        ax.set_title(title)
    return ax


def plot_spectrum(
    eigenvalues: ArrayLike,
    *,
    n_selected: int | None = None,
    ascending: bool | None = None,
    ax: Any = None,
    title: str | None = None,
) -> Any:
    """Plot eigenvalues in order and mark the largest gap (or the gap after ``n_selected``).

    For a spectral method the gap between the k-th and (k+1)-th eigenvalue says how well k
    clusters (or k dimensions) are determined (Theorem 8.32: the embedding is unique up to
    rotation when λ_{k+1} < λ_{k+2}).

    Parameters
    ----------
    eigenvalues : array-like of shape (n,)
    n_selected : int, default=None
        Mark the gap after this many eigenvalues; default: the largest gap.
    ascending : bool, default=None
        Sort order (None: keep the given order).
    ax : matplotlib Axes, default=None
    title : str, default=None
        Axes title above the eigenvalues.

    Returns
    -------
    ax : matplotlib Axes (``ax.gap_index_`` holds the marked gap, 1-based: after that many)

    Examples
    --------
    >>> from kernel_patterns import plotting
    >>> ax = plotting.plot_spectrum([1.0, 0.99, 0.98, 0.4, 0.3])
    >>> ax.gap_index_
    3
    """
    w = check_labels(eigenvalues, "eigenvalues").astype(np.float64)
    if ascending is not None:
        w = np.sort(w) if ascending else np.sort(w)[::-1]
    if w.size < 2:
        raise ValueError("a spectrum needs at least 2 eigenvalues.")
    gaps = np.abs(np.diff(w))
    if n_selected is None:
        k = int(np.argmax(gaps)) + 1
    else:
        if not 1 <= n_selected < w.size:
            raise ValueError(f"n_selected must be in [1, {w.size - 1}]; got {n_selected}.")
        k = int(n_selected)
    ax = _axes(ax)
    idx = np.arange(1, w.size + 1)
    ax.plot(idx, w, "o-", c="0.3", ms=4)
    ax.plot(idx[:k], w[:k], "o", c="tab:red", ms=6, label=f"first {k}")
    ax.axvline(k + 0.5, color="tab:red", ls="--", lw=1)
    ax.annotate(f"gap {gaps[k - 1]:.3g}", xy=(k + 0.5, 0.5 * (w[k - 1] + w[k])),
                xytext=(6, 0), textcoords="offset points", color="tab:red", fontsize="small")
    ax.set_xlabel("index")
    ax.set_ylabel("eigenvalue")
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    ax.gap_index_ = k
    return ax
