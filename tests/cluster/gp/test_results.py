"""The result objects of gp_landscape: GPLandscape and GPHierarchy (cuts, tables, plots)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import plotting
from kernel_patterns.cluster.gp import GPHierarchy


def test_labels_at_matches_the_estimator_and_scipy(fitted) -> None:
    est, land = fitted
    tree = land.hierarchy
    assert isinstance(tree, GPHierarchy)
    assert tree.n_equilibria == land.equilibria.shape[0]
    for k in range(1, tree.n_equilibria + 1):
        try:
            a = land.labels_at(n_clusters=k)
        except ValueError:
            continue
        assert np.array_equal(a, est.labels_at(n_clusters=k))
        assert int(a.max()) + 1 == k
    # a cut of the linkage between heights equals scipy's fcluster at that height
    Z = tree.linkage
    if Z.shape[0]:
        h = float(np.median(Z[:, 2]))
        ours = tree.cut(level=h)
        theirs = fcluster(Z, t=h, criterion="distance")
        assert adjusted_rand_score(theirs, ours) == 1.0


def test_cut_arguments_are_checked(fitted) -> None:
    _, land = fitted
    with pytest.raises(ValueError, match="exactly one of level and n_clusters"):
        land.hierarchy.cut()
    with pytest.raises(ValueError, match="exactly one of level and n_clusters"):
        land.labels_at(level=0.5, n_clusters=2)
    with pytest.raises(TypeError, match="n_clusters must be an integer"):
        land.labels_at(n_clusters=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level must be a finite number > 0"):
        land.labels_at(level=-1.0)
    with pytest.raises(ValueError, match="X has 3 features, but the landscape has 2"):
        land.predict(np.zeros((2, 3)))


def test_to_pandas_tables(fitted) -> None:
    _, land = fitted
    seps = land.to_pandas()
    assert list(seps.columns) == ["x0", "x1", "variance", "label", "size"]
    assert len(seps) == land.equilibria.shape[0]
    assert int(seps["size"].sum()) == land.labels.shape[0]
    assert np.array_equal(seps["label"].to_numpy(), land.equilibrium_labels)
    merges = land.hierarchy.to_pandas()
    assert len(merges) == land.equilibria.shape[0] - 1
    assert np.all(np.diff(merges["level"].to_numpy()) >= 0)  # monotone (errata 3)


def test_plots_draw_from_the_objects(rings, fitted) -> None:
    X, _ = rings
    _, land = fitted
    ax = land.plot(X, resolution=20, title="rings")
    assert ax.get_title() == "rings" and len(ax.collections) >= 2
    ax = land.hierarchy.plot(title="tree")
    assert ax.get_ylabel() == "merge level σ²" and ax.get_title() == "tree"
    # the plotting functions take the estimator, the landscape or the hierarchy
    assert plotting.plot_hierarchy(land.hierarchy).get_xlabel() == "stable equilibrium points"
    assert plotting.plot_variance_landscape(land, resolution=10) is not None
    with pytest.raises(TypeError, match="fitted GPClustering or a GPLandscape"):
        plotting.plot_variance_landscape(object())


def test_condensed_tree_marks_the_fitted_clusters(fitted) -> None:
    """The condensed tree of a fit: the clusters alive at the level are the fitted ones,
    each at least min_cluster_size wide, the root as wide as the data."""
    _, land = fitted
    tree = land.condensed_tree()
    assert tree.parent[0] == -1 and tree.size[0] == land.labels.size
    assert int(tree.selected.sum()) == land.n_clusters
    assert (tree.size[tree.selected] >= land.min_cluster_size).all()
    picked = {int(land.equilibrium_labels[s]) for s in tree.sep[tree.selected]}
    assert picked == set(range(land.n_clusters))
    assert (tree.death <= tree.birth).all()
    ax = land.plot_condensed_tree()
    assert ax.get_ylabel() == "level σ² (lower: denser)"
