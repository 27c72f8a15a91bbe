"""Cluster colours that stay distinct past ten clusters, and grey for noise.

The first are matplotlib's ``tab10`` without its grey (so a figure of a few clusters looks as it
always did, and no cluster looks like noise), the next ``tab20``'s light shades without
grey, and beyond those a Glasbey-style palette: each next
colour is the candidate farthest (in an approximately perceptual RGB distance) from every
colour already taken, on a fixed grid without greys, so the palette is the same on every run.
A cluster's colour depends on its label only: the same in every figure.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike

#: the colour of noise (label -1): a mid grey, no cluster's
NOISE_COLOR = (0.55, 0.55, 0.55, 1.0)

_TAB10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
          "#bcbd22", "#17becf"]
_TAB20_LIGHT = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2",
                "#dbdb8d"]  # not its light cyan, too near its light blue


def _rgb(hex_color: str) -> tuple[float, float, float]:
    return tuple(int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The "redmean" weighted RGB distance (a cheap stand-in for a perceptual one)."""
    r = (a[..., 0] + b[..., 0]) / 2
    d = a - b
    return np.sqrt((2 + r) * d[..., 0] ** 2 + 4 * d[..., 1] ** 2 + (3 - r) * d[..., 2] ** 2)


@functools.lru_cache(maxsize=8)
def _palette(n: int) -> np.ndarray:
    base = np.array([_rgb(c) for c in _TAB10 + _TAB20_LIGHT])
    if n <= len(base):
        return base[:n]
    levels = np.linspace(0.0, 1.0, 11)
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 3)
    spread = grid.max(axis=1) - grid.min(axis=1)
    grid = grid[(spread > 0.25) & (grid.sum(axis=1) > 0.4) & (grid.sum(axis=1) < 2.6)]
    chosen = [*base, np.array(NOISE_COLOR[:3])]  # far from noise's grey too
    nearest = np.min([_distance(grid, c) for c in chosen], axis=0)
    out = list(base)
    while len(out) < n:
        i = int(np.argmax(nearest))
        out.append(grid[i])
        nearest = np.minimum(nearest, _distance(grid, grid[i]))
    return np.array(out)


def cluster_colors(n: int) -> np.ndarray:
    """``n`` distinct RGBA colours for clusters 0..n-1 (tab10, tab20's light shades, both
    without grey, then a Glasbey-style palette); none is the noise grey.

    Parameters
    ----------
    n : int
        How many colours.

    Returns
    -------
    colors : ndarray of shape (n, 4)

    Examples
    --------
    >>> from kernel_patterns.plotting import cluster_colors
    >>> c = cluster_colors(30)
    >>> c.shape, len({tuple(row) for row in c.round(3)})
    ((30, 4), 30)
    """
    if n < 0:
        raise ValueError(f"n must be >= 0; got {n}")
    rgb = _palette(int(n)) if n else np.zeros((0, 3))
    return np.c_[rgb, np.ones(len(rgb))]


def label_colors(labels: ArrayLike) -> np.ndarray:
    """The colour of each label: cluster ``k`` (a whole number >= 0) gets
    ``cluster_colors(k + 1)[k]``, the same in every figure; -1 (noise) the grey
    :data:`NOISE_COLOR`; other labels (text, say) the colours of their rank among the
    distinct values.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)

    Returns
    -------
    colors : ndarray of shape (n_samples, 4)

    Examples
    --------
    >>> from kernel_patterns.plotting import label_colors
    >>> label_colors([0, 1, -1])[:, :3].round(2).tolist()
    [[0.12, 0.47, 0.71], [1.0, 0.5, 0.05], [0.55, 0.55, 0.55]]
    """
    lab = np.asarray(labels)
    if lab.dtype.kind in "iu" or (lab.dtype.kind == "f" and np.all(lab == np.round(lab))):
        idx = lab.astype(np.int64)
        if idx.size and idx.min() >= -1:
            out = np.tile(np.array(NOISE_COLOR), (len(idx), 1))
            keep = idx >= 0
            if keep.any():
                out[keep] = cluster_colors(int(idx.max()) + 1)[idx[keep]]
            return out
    _, codes = np.unique(lab, return_inverse=True)
    return cluster_colors(int(codes.max()) + 1 if codes.size else 0)[codes]
