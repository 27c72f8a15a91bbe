"""Drawing of the GP result objects (matplotlib, imported lazily): the variance landscape,
the saddle-level dendrogram, the condensed tree and the count's ladder.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._mpl import axes
from ..._palette import NOISE_COLOR, cluster_colors, label_colors
from ..._validation import FloatArray, check_matrix
from ._condensed import CondensedTree


# What each drawing reads of its result object (``GPLandscape``, ``GPHierarchy``,
# ``GPCountTrace``): this module does not import the result types, which import it.
class _Landscape(Protocol):
    @property
    def input_equilibria(self) -> FloatArray: ...
    @property
    def level(self) -> float: ...
    @property
    def labels(self) -> NDArray[np.intp]: ...
    def variance(self, X: ArrayLike) -> FloatArray: ...
    def predict(self, X: ArrayLike) -> NDArray[np.intp]: ...


class _Hierarchy(Protocol):
    @property
    def linkage(self) -> FloatArray: ...
    @property
    def level(self) -> float: ...
    @property
    def equilibrium_labels(self) -> NDArray[np.intp] | None: ...
    @property
    def equilibrium_variance(self) -> FloatArray: ...


class _CountTrace(Protocol):
    @property
    def length_scales(self) -> FloatArray: ...
    @property
    def n_modes(self) -> NDArray[np.intp]: ...
    @property
    def agreement(self) -> FloatArray: ...
    @property
    def reading(self) -> str: ...
    @property
    def kept(self) -> int: ...
    @property
    def n_clusters(self) -> int: ...


def plot_landscape(
    land: _Landscape,
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
    """Filled contours of σ² on a grid around the points, the level contour, SEPs, points."""
    S = np.asarray(land.input_equilibria)  # the plot is in the input's units
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
    V = land.variance(np.c_[GX.ravel(), GY.ravel()]).reshape(GX.shape)
    r = float(land.level if level is None else level)
    ax = axes(ax)
    cs = ax.contourf(GX, GY, V, levels=30, cmap="Greys", alpha=0.6)
    ax.figure.colorbar(cs, ax=ax, fraction=0.046, label="σ²(x)")
    if V.min() < r < V.max():
        ax.contour(GX, GY, V, levels=[r], colors="k", linewidths=1.5)
    if X is not None:
        if labels is None:
            labels = land.labels if pts.shape[0] == land.labels.shape[0] else land.predict(pts)
        if cmap == "tab10":  # the default: the library's colour of every cluster, noise grey
            ax.scatter(pts[:, 0], pts[:, 1], c=label_colors(np.asarray(labels)), s=12,
                       zorder=3)
        else:
            _, codes = np.unique(np.asarray(labels), return_inverse=True)
            ax.scatter(pts[:, 0], pts[:, 1], c=codes, cmap=cmap, s=12, vmin=0,
                       vmax=max(9, int(codes.max())), zorder=3)
    ax.scatter(S[:, 0], S[:, 1], marker="x", c="r", s=50, linewidths=2, zorder=4)
    ax.set_aspect("equal", adjustable="datalim")
    if title:
        ax.set_title(title)
    return ax


def plot_hierarchy(tree: _Hierarchy, *, ax: Any = None, title: str | None = None) -> Any:
    """Dendrogram of the SEP groups merging at their saddle levels, the level dashed."""
    from scipy.cluster.hierarchy import dendrogram

    Z = np.asarray(tree.linkage)
    level = float(tree.level)
    ax = axes(ax)
    if Z.shape[0] == 0:
        ax.text(0.5, 0.5, "one equilibrium point: no hierarchy", ha="center",
                transform=ax.transAxes)
    else:
        colour = _link_colours(Z, tree.equilibrium_labels, level)
        drawn = dendrogram(Z, ax=ax, no_labels=Z.shape[0] > 40,
                           link_color_func=lambda k: colour[k])
        labels = tree.equilibrium_labels
        lo = min(float(Z[:, 2].min()), float(np.min(tree.equilibrium_variance)))
        if labels is not None:  # every leaf marked in its cluster's colour
            leaves = np.asarray(drawn["leaves"])
            ax.scatter(10 * np.arange(leaves.size) + 5, np.full(leaves.size, lo),
                       c=[colour[j] for j in leaves], s=12, zorder=3, clip_on=False)
        k = "" if labels is None else f": {int(labels.max()) + 1} clusters"
        ax.axhline(level, ls="--", c="k", lw=1, label=f"level {level:.4g}{k}")
        ax.legend(loc="best", fontsize="small")
        hi = max(float(Z[:, 2].max()), level)
        ax.set_ylim(lo - 0.05 * (hi - lo + 1e-12), hi + 0.05 * (hi - lo + 1e-12))
    ax.set_xlabel("stable equilibrium points")
    ax.set_ylabel("merge level σ²")
    if title:
        ax.set_title(title)
    return ax


def _link_colours(Z: FloatArray, labels: NDArray[np.intp] | None,
                  level: float) -> list[str]:
    """The colour of every node of the linkage ``Z`` (leaves, then merges): a merge at or
    below ``level`` inside one cluster of ``labels`` takes that cluster's colour (the
    library's palette), inside noise grey; every other merge black."""
    from matplotlib.colors import to_hex

    p = Z.shape[0] + 1
    node = np.full(2 * p - 1, -2, dtype=np.intp)  # -2: a merge of two clusters
    if labels is not None:
        node[:p] = labels
    for r in range(p - 1):
        a, b = node[int(Z[r, 0])], node[int(Z[r, 1])]
        node[p + r] = a if a == b else -2
    palette = _palette(int(labels.max()) + 1 if labels is not None and labels.size else 1)
    grey = to_hex(NOISE_COLOR)
    out = []
    for j in range(2 * p - 1):
        high = j >= p and Z[j - p, 2] > level
        c = int(node[j])
        out.append("k" if high or c == -2 else grey if c < 0 else palette[c % len(palette)])
    return out


def plot_count_trace(trace: _CountTrace, *, ax: Any = None, title: str | None = None) -> Any:
    """Modes against length scale (log), each step labelled with the agreement (ARI) of the
    two readings, the landscape kept circled."""
    ax = axes(ax)
    ell = np.asarray(trace.length_scales)
    ax.plot(ell, trace.n_modes, "o-", c="k", ms=5)
    ax.set_xscale("log")
    # plain numbers at the length scales read (the default log ticks are slow mathtext)
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ax.xaxis.set_major_locator(FixedLocator(ell.tolist()))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.3g}"))
    for j in np.flatnonzero(~np.isnan(trace.agreement)):
        if j + 1 < ell.size:  # the agreement of rung j with rung j + 1, between them
            ax.annotate(f"{trace.agreement[j]:.2f}",
                        (np.sqrt(ell[j] * ell[j + 1]),
                         0.5 * (trace.n_modes[j] + trace.n_modes[j + 1])),
                        ha="center", va="bottom", fontsize="small", color="tab:blue")
    kept = trace.kept
    ax.scatter(ell[kept], trace.n_modes[kept], s=160, facecolors="none", edgecolors="r",
               linewidths=2, zorder=3, label=f"landscape kept: {trace.reading}")
    if trace.n_clusters >= 0:
        ax.scatter(ell[kept], trace.n_clusters, s=140, marker="*", c="r", zorder=4,
                   label=f"the fit: {trace.n_clusters} cluster"
                         f"{'' if trace.n_clusters == 1 else 's'}")
    ax.set_xlabel("length scale")
    ax.set_ylabel("modes (basins of ≥ min_cluster_size points), clusters")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend(loc="upper right")
    ax.set_title(title if title is not None else
                 "GP count: modes per length scale (blue: agreement with the next)")
    return ax


def plot_condensed_tree(tree: CondensedTree, labels: NDArray[np.intp] | None, level: float,
                        *, ax: Any = None, title: str | None = None) -> Any:
    """The condensed tree as an icicle: every cluster a bar from the level where it parts
    from its sibling down to where it splits or ends, as wide as its points; the fitted
    clusters (alive at ``level``) filled in their colour and outlined; the level dashed."""
    from matplotlib.patches import Rectangle

    ax = axes(ax)
    colours = _palette(int(labels.max()) + 1 if labels is not None and labels.size else 1)
    top = float(tree.birth.max()) if tree.birth.size else float(level)
    bottom = float(tree.death.min()) if tree.death.size else float(level)
    pad = 0.05 * (top - bottom) if top > bottom else 0.05 * abs(top) + 1e-12
    for j in range(tree.size.size):
        high = tree.birth[j] + (pad if tree.parent[j] < 0 else 0.0)
        c = -1 if labels is None else int(labels[tree.sep[j]])
        face = colours[c % len(colours)] if tree.selected[j] and c >= 0 else "0.85"
        ax.add_patch(Rectangle((tree.left[j], tree.death[j]), tree.size[j],
                               high - tree.death[j], facecolor=face,
                               edgecolor="r" if tree.selected[j] else "0.4",
                               lw=2 if tree.selected[j] else 0.5))
    ax.axhline(level, ls="--", c="k", lw=1, label=f"level {level:.4g}: "
               f"{int(tree.selected.sum())} cluster{'' if tree.selected.sum() == 1 else 's'}")
    width = float(tree.size[0]) if tree.size.size else 1.0
    ax.set_xlim(-0.01 * width, 1.01 * width)
    ax.set_ylim(bottom - pad, top + 2 * pad)
    ax.set_xlabel("points (each cluster as wide as its points)")
    ax.set_ylabel("level σ² (lower: denser)")
    ax.legend(loc="upper right", fontsize="small")
    ax.set_title(title if title is not None else
                 "GP clusters: the condensed tree (the fitted ones outlined)")
    return ax


def _palette(n: int = 30) -> list[str]:
    """The library's cluster colours (:mod:`kernel_patterns._palette`) as hex strings: the
    colour of cluster c is entry c, as in every other figure."""
    from matplotlib.colors import to_hex

    return [to_hex(c) for c in cluster_colors(max(n, 1))]
