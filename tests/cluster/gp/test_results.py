"""The solver gp_landscape and its result objects GPLandscape / GPHierarchy."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster
from sklearn.metrics import adjusted_rand_score

from kernel_patterns import GPClustering, datasets, plotting
from kernel_patterns.cluster.gp import GPHierarchy, GPLandscape, gp_landscape
from kernel_patterns.kernels import CallableKernel, GPCovariance, Precomputed

KERNEL = GPCovariance(v0=1, v1=10, v2=1, l=400)


@pytest.fixture(scope="module")
def rings() -> tuple[np.ndarray, np.ndarray]:
    X, y = datasets.make_rings(random_state=0)
    return datasets.scale_unit_interval(X), y


@pytest.fixture(scope="module")
def fitted(rings) -> tuple[GPClustering, GPLandscape]:
    X, _ = rings
    return GPClustering(KERNEL).fit(X), gp_landscape(X, KERNEL)


def test_solver_equals_the_estimator(rings, fitted) -> None:
    _, y = rings
    est, land = fitted
    assert isinstance(est.landscape_, GPLandscape)
    assert np.array_equal(land.labels, est.labels_)
    assert np.array_equal(land.equilibria, est.equilibria_)
    assert np.array_equal(land.hierarchy.linkage, est.hierarchy_)
    assert land.level == est.level_ and land.max_variance == est.max_variance_
    assert land.n_clusters == est.n_clusters_ == 2
    assert adjusted_rand_score(y, land.labels) == 1.0
    Xnew, _ = datasets.make_rings((30, 30), random_state=1)
    Xnew = datasets.scale_unit_interval(Xnew)
    assert np.array_equal(land.predict(Xnew), est.predict(Xnew))
    assert np.array_equal(land.variance(Xnew), est.variance(Xnew))
    assert np.array_equal(land.gradient(Xnew[:3]), est.variance_gradient(Xnew[:3]))


def test_solver_does_not_keep_or_modify_the_callers_array(rings) -> None:
    X = rings[0].copy()
    land = gp_landscape(X, KERNEL)
    before = land.variance(X[:5])
    X[:] = 0.0
    assert np.array_equal(land.variance(rings[0][:5]), before)


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


def test_solver_validates_its_input(rings) -> None:
    X, _ = rings
    with pytest.raises(ValueError, match="give level or n_clusters, not both"):
        gp_landscape(X, KERNEL, level=0.5, n_clusters=2)
    with pytest.raises(ValueError, match="should be >= n_clusters=100001"):
        gp_landscape(X, KERNEL, n_clusters=100001)
    with pytest.raises(ValueError, match="needs a differentiable kernel"):
        gp_landscape(X, CallableKernel(lambda a, b: a @ b.T))
    with pytest.raises(ValueError, match="precomputed' is not supported"):
        gp_landscape(X, Precomputed())
    with pytest.raises(ValueError, match="X has 1 sample"):
        gp_landscape(X[:1], KERNEL)
    with pytest.raises(ValueError, match="contains NaN"):
        gp_landscape(np.array([[0.0, np.nan], [1.0, 1.0]]), KERNEL)
    with pytest.raises(ValueError, match="'tol' parameter"):
        gp_landscape(X, KERNEL, tol=-1.0)
