"""``pairs.png``: the features as read, pair by pair, a colour per cluster (``cluster``).

The matrix of panels is drawn in one matplotlib Axes (each panel a square of it, each feature
scaled into its panels, the tick values written beside the outer panels) rather than one Axes
per panel: 36 Axes cost most of a second to make and draw, which the command line's start-up
cannot afford; one Axes and a few collections are drawn once, when the figure is saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

#: features drawn at most (beyond, those that separate the clusters most)
MAX_PAIRS = 6
#: points drawn at most (a uniform sample beyond)
MAX_PAIR_POINTS = 3000
#: a panel's side (1) holds the data in [_PAD, 1 - _GAP - _PAD]; _GAP between panels
_GAP, _PAD = 0.12, 0.05


def separation(X: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """How much each feature separates the clusters: the variance of the cluster means over
    the mean variance within the clusters (an F ratio; noise left out; 0 for one cluster).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [0.1, 5.0], [9.0, 1.1], [9.1, 5.1]])
    >>> separation(X, np.array([0, 0, 1, 1])).round(1).tolist()
    [8100.0, 0.0]
    """
    keep = labels >= 0
    vals = np.unique(labels[keep])
    if len(vals) < 2:
        return np.zeros(X.shape[1])
    Xk, lk = X[keep], labels[keep]
    means = np.array([Xk[lk == v].mean(axis=0) for v in vals])
    within = np.array([Xk[lk == v].var(axis=0) for v in vals]).mean(axis=0)
    return means.var(axis=0) / np.maximum(within, 1e-12 * (np.abs(means).max(axis=0) + 1))


def _order(labels: np.ndarray) -> list[Any]:
    vals = np.unique(labels)
    return [v for v in vals if v >= 0] + [v for v in vals if v < 0]


def _wrap(name: str, width: int = 18) -> str:
    """A long feature name on lines of about ``width`` characters, broken after ``_``, ``/``,
    ``-``, ``.`` or a space (``od280/od315_of_diluted_wines`` in two lines).

    Examples
    --------
    >>> print(_wrap("od280/od315_of_diluted_wines"))
    od280/od315_of_
    diluted_wines
    """
    import re

    lines, line = [], ""
    for part in re.findall(r"[^_/\-. ]+[_/\-. ]*", name) or [name]:
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
    return "\n".join([*lines, line])


def _ticks(lo: float, hi: float) -> np.ndarray:
    """Three or so round values inside [lo, hi]."""
    from matplotlib.ticker import MaxNLocator

    if hi <= lo:
        return np.array([lo])
    t = np.asarray(MaxNLocator(nbins=3).tick_values(lo, hi), dtype=np.float64)
    return t[(t >= lo) & (t <= hi)]


def pair_plot(path: Path, X: np.ndarray, names: list[str], labels: np.ndarray,
              random_state: int = 0) -> tuple[Path, str]:
    """``pairs.png``: every pair of features (at most :data:`MAX_PAIRS`: beyond, the ones that
    :func:`separation` ranks first) as read, named below and beside the panels with their
    values, a colour per cluster (:func:`~kernel_patterns.plotting.label_colors`), noise
    grey; each feature's histogram per cluster on the diagonal. Returns the file and its
    caption.

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from pathlib import Path
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path, caption = pair_plot(Path(tmp) / "pairs.png", X, ["a", "b"],
    ...                               np.repeat([0, 1], 20))
    ...     path.stat().st_size > 0, caption.split(":")[0]
    (True, 'pairs.png')
    """
    from .. import plotting

    d = X.shape[1]
    chosen = list(range(d))
    note = ""
    if d > MAX_PAIRS:
        chosen = sorted(np.argsort(-separation(X, labels), kind="stable")[:MAX_PAIRS].tolist())
        note = (f"; the {MAX_PAIRS} of the {d} features that separate the clusters most (the "
                "variance of the cluster means over the variance within them)")
    n = len(labels)
    idx = np.arange(n)
    if n > MAX_PAIR_POINTS:
        idx = np.sort(np.random.RandomState(random_state).choice(n, MAX_PAIR_POINTS,
                                                                 replace=False))
        note += f"; {MAX_PAIR_POINTS} of the {n} rows, drawn uniformly"
    fig = _draw(X[idx][:, chosen], [names[j] for j in chosen], labels[idx], _order(labels))
    out = plotting.save_figure(fig, path, dpi=100, tight=False)
    return out, (f"{path.name}: the features as read, pair by pair, a colour per cluster"
                 f"{', noise grey crosses' if np.any(labels < 0) else ''}; each feature's "
                 f"histogram per cluster on the diagonal{note}")


def _draw(A: np.ndarray, names: list[str], lab: np.ndarray, legend: list[Any]) -> Any:
    """The figure: ``A`` (rows × k features as read) in k × k panels of one Axes."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    from .. import plotting
    from .._mpl import pyplot

    k = A.shape[1]
    lo, hi = np.nanmin(A, axis=0), np.nanmax(A, axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    inner = 1 - _GAP - 2 * _PAD
    U = (A - lo) / span * inner + _PAD  # each feature in its panels' [pad, 1 - gap - pad]
    side = 1.9 if k > 3 else 2.6
    fig = pyplot().figure(figsize=(side * k + 2.4, side * k + 0.9))
    w, h = fig.get_figwidth(), fig.get_figheight()
    ax = fig.add_axes((1.1 / w, 0.8 / h, 1 - 2.5 / w, 1 - 0.9 / h))
    ax.set_xlim(-0.01, k - _GAP + 0.01)  # the outer frames' lines whole
    ax.set_ylim(-0.01, k - _GAP + 0.01)
    ax.set_axis_off()
    colors = plotting.label_colors(lab)
    noise = lab < 0
    xs, ys = [], []
    for i in range(k):  # row i (top first): feature i up; column j: feature j across
        for j in range(k):
            if i != j:
                xs.append(j + U[:, j])
                ys.append(k - 1 - i + U[:, i])
    if xs:
        X_, Y_ = np.concatenate(xs), np.concatenate(ys)
        N_ = np.tile(noise, len(xs))
        C_ = np.tile(colors, (len(xs), 1))
        ax.scatter(X_[N_], Y_[N_], s=5, c=[plotting.NOISE_COLOR], marker="x", linewidths=0.5)
        ax.scatter(X_[~N_], Y_[~N_], s=4, c=C_[~N_], linewidths=0)
    segments, seg_colors = [], []
    edges = np.linspace(0, 1, 21)
    for i in range(k):  # the diagonal: a step histogram per cluster, scaled to the panel
        counts = [(v, np.histogram(U[lab == v, i] - _PAD, bins=edges * inner)[0])
                  for v in legend if v >= 0]
        top = max((c.max() for _, c in counts if c.size), default=1) or 1
        for v, c in counts:
            x = i + _PAD + np.repeat(edges * inner, 2)[1:-1]
            y = k - 1 - i + _PAD + np.repeat(c / top * inner, 2)
            segments.append(np.c_[x, y])
            seg_colors.append(plotting.label_colors(np.array([v]))[0])
    ax.add_collection(LineCollection(segments, colors=seg_colors, linewidths=1.0))
    for i in range(k):
        for j in range(k):
            ax.add_patch(Rectangle((j, k - 1 - i), 1 - _GAP, 1 - _GAP, fill=False,
                                   linewidth=0.6, edgecolor="0.4"))
    for j in range(k):  # tick values and names: below the bottom row, left of the left column
        for t in _ticks(lo[j], hi[j]):
            pos = (t - lo[j]) / span[j] * inner + _PAD
            ax.text(j + pos, -0.03, f"{t:g}", ha="center", va="top", fontsize="x-small")
            if j:  # row j's values (row 0 holds feature 0's histogram: its values go across)
                ax.text(-0.03, k - 1 - j + pos, f"{t:g}", ha="right", va="center",
                        fontsize="x-small")
        name = _wrap(names[j])
        ax.text(j + (1 - _GAP) / 2, -0.2, name, ha="center", va="top")
        ax.text(-0.3, k - 1 - j + (1 - _GAP) / 2,
                name if j else f"{name}\n(histograms)", ha="center", va="bottom",
                rotation=90, rotation_mode="anchor", multialignment="center")
    handles = [Line2D([], [], ls="none", marker="x" if v < 0 else "o",
                      color=plotting.label_colors(np.array([v]))[0],
                      label="noise" if v < 0 else str(v)) for v in legend[:20]]
    fig.legend(handles=handles, title="cluster", loc="upper left",
               bbox_to_anchor=(1 - 1.3 / w, 1 - 0.1 / h), fontsize="small", frameon=False)
    return fig
