"""Results in the user's units (``kernel-patterns cluster``): the input rows with their
cluster (``clustered.csv``), each cluster's size and the median and IQR of every feature as
read (``profile.csv``), a pair plot of the features by name (``pairs.png``) and, with
``--label-column``, the agreement with the labels (ARI and a contingency table). The pair
plot is :mod:`._pairs`'s.

Everything here reads the features as the file holds them (before ``--scale``), and never
modifies the table it is given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._report import ReportSection, ReportTable

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
