"""What ``kernel-patterns cluster`` reports and draws for a method: one adapter per method.

The command (``_cluster``) runs every method the same way and asks the method's
:class:`ClusterMethod` what is particular to it: the fitted attributes worth reporting, extra
columns of ``labels.csv``, points to mark on the cluster figure, extra figures and report
sections, and why the clusters are as many as they are. The adapters are registered beside the
method table (``_cluster.METHODS``); adding a method means adding a row there, with this class
or a subclass (GP clustering's is in ``_cluster_gp``), never editing the command.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._report import ReportSection


@dataclass(frozen=True)
class ClusterMethod:
    """The cluster command's view of one clustering estimator.

    Parameters
    ----------
    estimator : type
        The estimator class the command builds (``common.build_estimator``).
    report : tuple of str, default=()
        Fitted attributes (numbers) written to ``summary.json`` and the report's Result
        table, under their names without the trailing underscore.
    soft : bool, default=False
        Whether ``labels.csv`` gets a column ``p_k`` per cluster from
        ``responsibilities_``.

    Examples
    --------
    >>> from kernel_patterns import KernelKMeans
    >>> m = ClusterMethod(KernelKMeans, report=("inertia_", "n_iter_"))
    >>> m.count_reason(KernelKMeans(3), 3, None)[:40]
    "KernelKMeans's default n_clusters=3 (as "
    """

    estimator: type[Any]
    report: tuple[str, ...] = ()
    soft: bool = False
    #: keys of the result kept out of the Result table (they have a section of their own)
    details: tuple[str, ...] = ()

    def columns(self, est: Any) -> dict[str, np.ndarray]:
        """Columns of ``labels.csv`` beside the label (the responsibilities of soft methods)."""
        if not self.soft:
            return {}
        resp = est.responsibilities_
        return {f"p_{k}": resp[:, k] for k in range(resp.shape[1])}

    def result(self, est: Any) -> dict[str, Any]:
        """The fitted numbers for ``summary.json`` (``report``)."""
        return {attr.rstrip("_"): float(getattr(est, attr)) for attr in self.report}

    def centers(self, est: Any) -> np.ndarray | None:
        """Points marked on the cluster figure when it shows the features themselves."""
        return None

    def figures(self, tmp: Path, X: np.ndarray, labels: np.ndarray,
                est: Any) -> dict[Path, str]:
        """Figures beyond the clusters (each with its caption)."""
        return {}

    def sections(self, result: dict[str, Any], figs: dict[Path, str]) -> list[ReportSection]:
        """Report sections beyond the result, the scores and the cluster sizes."""
        return []

    def count_reason(self, est: Any, k: int, n_clusters: int | None) -> str:
        """Why the fitted ``est`` gave ``k`` clusters, in the words of the command line.

        Parameters
        ----------
        est : fitted clustering estimator
            The estimator the command ran.
        k : int
            Clusters in its labels (noise not counted).
        n_clusters : int or None
            ``--n-clusters``, when given.

        Returns
        -------
        reason : str
            One clause, e.g. "KernelKMeans's default n_clusters=8 (...)".
        """
        asked = int(est.get_params()["n_clusters"])
        if n_clusters is not None:
            why = f"--n-clusters {asked}"
        else:
            why = (f"{type(est).__name__}'s default n_clusters={asked} (as scikit-learn's; "
                   "--n-clusters sets it; --method gp finds the count)")
        if k != asked:
            why += f"; {k} of them are not empty"
        return why
