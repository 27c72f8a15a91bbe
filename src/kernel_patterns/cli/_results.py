"""Results in the user's units (``kernel-patterns cluster``): the input rows with their
cluster (``clustered.csv``), each cluster's size and the median and IQR of every feature as
read (``profile.csv``), a pair plot of the features by name (``pairs.png``) and, with
``--label-column``, the agreement with the labels (ARI and a contingency table).

Everything here reads the features as the file holds them (before ``--scale``), and never
modifies the table it is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ._report import ReportSection, ReportTable

#: features drawn in the pair plot at most (beyond, those that separate the clusters most)
MAX_PAIRS = 6
#: points drawn in the pair plot at most (a uniform sample beyond)
MAX_PAIR_POINTS = 3000
#: features shown in the report's profile table at most (profile.csv holds them all)
MAX_PROFILE_FEATURES = 12


def _free_name(name: str, taken: Any) -> str:
    """``name``, or ``name_1``, ``name_2``, ... when the table already has a column so named."""
    taken = {str(t) for t in taken}
    out, i = name, 0
    while out in taken:
        i += 1
        out = f"{name}_{i}"
    return out


def clustered_frame(frame: Any, labels: np.ndarray, est: Any) -> Any:
    """The input rows (``frame``, as read) with a ``cluster`` column and, when the fitted
    ``est`` has them, HDBSCAN-style ``probability`` (``probabilities_``) and
    ``outlier_score`` (``outlier_scores_``) columns; a name the input already uses gets a
    suffix (``cluster_1``).

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows used, every column as read; not modified.
    labels : ndarray of shape (n_rows,)
        The fitted labels (-1: noise).
    est : fitted estimator

    Returns
    -------
    clustered : pandas.DataFrame

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> df = pd.DataFrame({"x": [0.0, 5.0], "cluster": ["a", "b"]})
    >>> list(clustered_frame(df, np.array([0, 1]), object()).columns)
    ['x', 'cluster', 'cluster_1']
    """
    out = frame.reset_index(drop=True).copy()
    out[_free_name("cluster", out.columns)] = np.asarray(labels)
    for attr, name in (("probabilities_", "probability"), ("outlier_scores_", "outlier_score")):
        values = getattr(est, attr, None)
        if values is not None and np.shape(values) == (len(out),):
            out[_free_name(name, out.columns)] = np.asarray(values, dtype=np.float64)
    return out


def _order(labels: np.ndarray) -> list[Any]:
    """Cluster labels in order, noise (-1) last."""
    vals = np.unique(labels)
    return [v for v in vals if v >= 0] + [v for v in vals if v < 0]


def cluster_profile(X: np.ndarray, names: list[str], labels: np.ndarray) -> Any:
    """Each cluster's size, share and the median and IQR (75th minus 25th percentile) of every
    feature, in the units of ``X`` (the features as read); noise last, then all rows.

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_features)
    names : list of str
        The features' names.
    labels : ndarray of shape (n_rows,)

    Returns
    -------
    profile : pandas.DataFrame
        Columns ``cluster``, ``size``, ``share``, then ``<feature> median`` and
        ``<feature> IQR`` per feature.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [2.0], [3.0], [10.0], [12.0]])
    >>> p = cluster_profile(X, ["w"], np.array([0, 0, 0, 1, 1]))
    >>> p[["cluster", "size", "w median", "w IQR"]].values.tolist()
    [['0', 3, 2.0, 1.0], ['1', 2, 11.0, 1.0], ['all', 5, 3.0, 8.0]]
    """
    import pandas as pd

    rows = []
    groups = [(str(v) if v >= 0 else "noise", labels == v) for v in _order(labels)]
    for name, mask in [*groups, ("all", np.ones(len(labels), dtype=bool))]:
        q1, med, q3 = np.percentile(X[mask], [25, 50, 75], axis=0)
        row: dict[str, Any] = {"cluster": name, "size": int(mask.sum()),
                               "share": round(float(mask.mean()), 4)}
        for j, f in enumerate(names):
            row[f"{f} median"] = _round(med[j])
            row[f"{f} IQR"] = _round(q3[j] - q1[j])
        rows.append(row)
    return pd.DataFrame(rows)


def _round(x: float) -> float:
    """``x`` to 6 significant digits (no float noise such as 0.7099999999999991 in a CSV)."""
    return float(f"{x:.6g}")


def profile_section(profile: Any, names: list[str]) -> ReportSection:
    """The report's profile: a row per cluster, its size and "median (IQR)" per feature (the
    first :data:`MAX_PROFILE_FEATURES`; profile.csv has every one).

    Examples
    --------
    >>> import numpy as np
    >>> p = cluster_profile(np.array([[1.0], [3.0], [10.0]]), ["w"], np.array([0, 0, 1]))
    >>> profile_section(p, ["w"]).tables[0].rows
    [['0', 2, '2 (1)'], ['1', 1, '10 (0)'], ['all', 3, '3 (4.5)']]
    """
    shown = names[:MAX_PROFILE_FEATURES]
    rows = [[r["cluster"], int(r["size"]),
             *[f"{r[f + ' median']:.4g} ({r[f + ' IQR']:.3g})" for f in shown]]
            for r in profile.to_dict("records")]
    caption = "Each cluster's size and every feature's median (IQR) in the units of the file"
    if len(names) > len(shown):
        caption += f"; the first {len(shown)} of {len(names)} features (profile.csv has all)"
    return ReportSection("Clusters in the file's units", tables=[
        ReportTable(["cluster", "size", *shown], rows, caption=caption)])


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


def pair_plot(path: Path, X: np.ndarray, names: list[str], labels: np.ndarray,
              random_state: int = 0) -> tuple[Path, str]:
    """``pairs.png``: every pair of features (at most :data:`MAX_PAIRS`: beyond, the ones that
    :func:`separation` ranks first) as read, axes named, a colour per cluster
    (:func:`~kernel_patterns.plotting.label_colors`), noise grey; each feature's histogram per
    cluster on the diagonal. Returns the file and its caption.

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
    from .._mpl import pyplot

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
    A, lab = X[idx][:, chosen], labels[idx]
    colors = plotting.label_colors(lab)
    k = len(chosen)
    side = 1.9 if k > 3 else 2.6
    fig = pyplot().figure(figsize=(side * k + 1.6, side * k + 0.3))
    # laid out by hand (no tight_layout, no tight crop): the figure is drawn once, when saved
    left, right, bottom, top = 0.9 / fig.get_figwidth(), 1 - 1.4 / fig.get_figwidth(), \
        0.6 / fig.get_figheight(), 1 - 0.2 / fig.get_figheight()
    axes = fig.subplots(k, k, squeeze=False, gridspec_kw={
        "left": left, "right": right, "bottom": bottom, "top": top, "wspace": 0.08,
        "hspace": 0.08})
    noise = lab < 0
    order = [v for v in _order(lab) if v >= 0]
    for i in range(k):
        for j in range(k):
            ax = axes[i, j]
            if i == j:
                for v in order:
                    ax.hist(A[lab == v, i], bins=20, histtype="step",
                            color=plotting.label_colors(np.array([v]))[0])
                ax.set_yticks([])
            else:
                ax.scatter(A[noise, j], A[noise, i], s=4, c=[plotting.NOISE_COLOR],
                           marker="x", linewidths=0.5)
                ax.scatter(A[~noise, j], A[~noise, i], s=4, c=colors[~noise])
            # a column shows one feature across, a row one feature up (the same points: the
            # same limits); inner tick labels are left out
            ax.locator_params(nbins=3)
            ax.tick_params(labelsize="small", length=2)
            if i == k - 1:
                ax.set_xlabel(names[chosen[j]])
            else:
                ax.tick_params(labelbottom=False)
            if j == 0:
                ax.set_ylabel(names[chosen[i]] if i else f"{names[chosen[0]]}\n(histograms)")
            elif not (i == 0 and j == 1):
                ax.tick_params(labelleft=False)
    values = _order(labels)
    handles = [_handle(plotting.label_colors(np.array([v]))[0], "noise" if v < 0 else str(v))
               for v in values[:20]]
    fig.legend(handles=handles, title="cluster", loc="upper left",
               bbox_to_anchor=(right + 0.1 / fig.get_figwidth(), top), fontsize="small",
               frameon=False)
    out = plotting.save_figure(fig, path, dpi=100, tight=False)
    return out, (f"{path.name}: the features as read, pair by pair, a colour per cluster"
                 f"{', noise grey crosses' if np.any(labels < 0) else ''}; each feature's "
                 f"histogram per cluster on the diagonal{note}")


def _handle(color: Any, name: str) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([], [], ls="none", marker="o", color=color, label=name)


def agreement(truth: np.ndarray, labels: np.ndarray) -> tuple[float, Any]:
    """The adjusted Rand index of ``labels`` against ``truth`` and their contingency table
    (rows: the truth's values, columns: the clusters, noise last).

    Examples
    --------
    >>> import numpy as np
    >>> ari, table = agreement(np.array(["a", "a", "b"]), np.array([0, 0, 1]))
    >>> round(ari, 2), table.values.tolist()
    (1.0, [[2, 0], [0, 1]])
    """
    import pandas as pd
    from sklearn.metrics import adjusted_rand_score

    table = pd.crosstab(pd.Series(truth, name="truth"), pd.Series(labels, name="cluster"))
    table = table[_order(np.asarray(table.columns))]
    table.columns = ["noise" if c < 0 else str(c) for c in table.columns]
    return float(adjusted_rand_score(truth, labels)), table


def agreement_text(name: str, ari: float, table: Any) -> str:
    """What the terminal prints: the ARI line and the contingency table.

    Examples
    --------
    >>> import numpy as np
    >>> print(agreement_text("y", *agreement(np.array([1, 1, 2]), np.array([0, 0, 1]))))
    agreement with --label-column 'y': adjusted Rand index 1.000; rows: its values, columns: the clusters
         0  1
    y=1  2  0
    y=2  0  1
    """  # noqa: E501
    shown = table.copy()
    shown.index = [f"{name}={v}" for v in shown.index]
    return (f"agreement with --label-column '{name}': adjusted Rand index {ari:.3f}; rows: its "
            f"values, columns: the clusters\n{shown.to_string()}")


def agreement_section(name: str, ari: float, table: Any) -> ReportSection:
    """The report's agreement section: the ARI and the contingency table.

    Examples
    --------
    >>> import numpy as np
    >>> section = agreement_section("y", *agreement(np.array([1, 1, 2]), np.array([0, 0, 1])))
    >>> section.tables[0].columns[1:], section.tables[0].rows[-1]
    (['0', '1', 'all'], ['all', 2, 1, 3])
    """
    rows = [[str(v), *[int(x) for x in table.loc[v]], int(table.loc[v].sum())]
            for v in table.index]
    rows.append(["all", *[int(x) for x in table.sum(axis=0)], int(table.values.sum())])
    return ReportSection(
        f"Agreement with '{name}'",
        text=f"Adjusted Rand index {ari:.3f} (1: the same partition; 0: as by chance).",
        tables=[ReportTable([f"{name} \\ cluster", *table.columns, "all"], rows,
                            caption="Contingency table: rows of each value in each cluster")])
