"""The level chosen from the data (``level=None``): data_level_components and what it gives."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp._cuts import data_level_components
from kernel_patterns.kernels import GPCovariance

# four SEPs, merged 0-1 at 1.0, 2-3 at 2.0, {0,1}-{2,3} at 3.0 (scipy linkage + MST edges)
Z = np.array([[0, 1, 1.0, 2], [2, 3, 2.0, 2], [4, 5, 3.0, 4]], dtype=float)
EDGES = np.array([[0, 1], [2, 3], [1, 2]])


def _groups(level, sizes, point_variance, m=5):
    basins = np.repeat(np.arange(4), sizes)
    return data_level_components(Z, EDGES, level, basins, np.asarray(point_variance, float), m)


def test_merges_up_to_the_level_as_the_paper() -> None:
    sizes = [10, 10, 10, 10]
    v = np.full(40, 0.5)  # every saddle above the lowest point: the paper's cut
    assert _groups(3.5, sizes, v).tolist() == [0, 0, 0, 0]
    assert _groups(2.5, sizes, v).tolist() == [0, 0, 1, 1]
    assert _groups(1.5, sizes, v).tolist() == [0, 0, 1, 2]


def test_saddles_below_every_point_keep_the_basins_apart() -> None:
    v = np.full(40, 2.5)  # saddles 1.0 and 2.0 are below every training point
    got = _groups(3.5, [10, 10, 10, 10], v)
    # 0-1 (1.0) and 2-3 (2.0) stay apart; the 3.0 saddle is above the points: 1 joins 2
    assert got.tolist() == [0, 1, 1, 2]


def test_the_floor_rule_can_be_turned_off() -> None:
    v = np.full(40, 2.5)  # as above, without the rule: the paper's cut at 3.5
    basins = np.repeat(np.arange(4), 10)
    got = data_level_components(Z, EDGES, 3.5, basins, v, 5, below_points=False)
    assert got.tolist() == [0, 0, 0, 0]


def test_small_basins_merge_into_their_neighbour() -> None:
    v = np.full(23, 2.5)
    got = _groups(2.5, [10, 2, 10, 1], v)  # SEPs 1 and 3 hold fewer than 5 points
    assert got.tolist() == [0, 0, 1, 1]


def test_high_dimensional_touching_clusters_are_found() -> None:
    # 20-D blobs: every point is far from the minima, the paper's cut at r* joins them all
    X, y = make_blobs(300, n_features=20, centers=3, cluster_std=4.0, random_state=0)
    X = StandardScaler().fit_transform(X)
    gp = GPClustering().fit(X)
    assert gp.n_clusters_ == 3
    assert adjusted_rand_score(y, gp.labels_) > 0.95
    with pytest.warns(UserWarning, match="one cluster"):
        paper = GPClustering(gp.kernel_, level=gp.max_variance_).fit(X)  # the cut at r*
    assert paper.n_clusters_ == 1


def test_outliers_are_noise() -> None:
    X, y = datasets.make_rings(random_state=0)
    X = datasets.scale_unit_interval(X)
    far = np.array([[3.0, 3.0], [-2.0, 2.5], [2.5, -2.0]])
    gp = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=400)).fit(np.vstack([X, far]))
    assert gp.n_clusters_ == 2
    assert (gp.labels_[-3:] == -1).all()
    assert adjusted_rand_score(y, gp.labels_[:-3]) == 1.0
    assert gp.landscape_.n_noise == 3
    # min_cluster_size=1: every basin counts, the outliers are clusters of their own
    raw = GPClustering(GPCovariance(v0=1, v1=10, v2=1, l=400), min_cluster_size=1)
    assert raw.fit(np.vstack([X, far])).n_clusters_ == 5


def test_one_cluster_is_named_with_what_to_change() -> None:
    # uniform: one cluster from no stable reading (every landscape read has several modes)
    X = np.random.default_rng(0).uniform(size=(300, 2))
    with pytest.warns(UserWarning, match="one cluster.*length scale.*min_cluster_size"):
        gp = GPClustering().fit(X)
    assert gp.n_clusters_ == 1


def test_predict_after_a_scaler_spreads_new_points() -> None:
    # regression: after StandardScaler every held-out penguin went to cluster 0
    X, y = load_iris(return_X_y=True)
    Xtr, Xte, _, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    pipe = make_pipeline(StandardScaler(), GPClustering()).fit(Xtr)
    pred = pipe.predict(Xte)
    assert len(np.unique(pred[pred >= 0])) >= 2
    assert adjusted_rand_score(yte, pred) > 0.4
    # a training point predicted is its own label
    gp = pipe[-1]
    Ztr = pipe[0].transform(Xtr)
    assert (gp.predict(Ztr[:20]) == gp.labels_[:20]).mean() >= 0.9


def _threshold_clustering(Z, edges, basins, births, min_size, k):
    """ToMATo's own second pass (Chazal et al. 2013, alg. 1): merge the younger root into the
    elder unless both hold ``min_size`` points and the younger has lived ≥ τ, with τ the
    (k−1)-th largest persistence: an independent computation of the same partition."""
    from kernel_patterns.cluster.gp._cuts import group_persistence

    tau = group_persistence(Z, edges, basins, births, min_size)[k - 2]
    parent = np.arange(Z.shape[0] + 1)
    size = np.bincount(basins, minlength=parent.size)

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for r in range(Z.shape[0]):
        a, b = find(edges[r, 0]), find(edges[r, 1])
        if births[b] < births[a]:
            a, b = b, a
        if min(size[a], size[b]) >= min_size and Z[r, 2] - births[b] >= tau:
            continue
        parent[b] = a
        size[a] += size[b]
    return np.array([find(i) for i in range(parent.size)])


def test_persistent_components_equal_the_threshold_clustering() -> None:
    from kernel_patterns.cluster.gp._cuts import group_persistence, persistent_components

    checked = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        p = int(rng.integers(3, 30))
        births = rng.uniform(0, 1, p)
        edges = np.array([[rng.integers(0, i), i] for i in range(1, p)])  # a random tree
        h = np.maximum(births[edges[:, 0]], births[edges[:, 1]]) + rng.exponential(0.3, p - 1)
        order = np.argsort(h)
        edges, h = edges[order], h[order]
        Z = np.c_[np.zeros((p - 1, 2)), h, np.zeros(p - 1)]
        basins = rng.integers(0, p, 8 * p)
        for k in range(2, 6):
            if group_persistence(Z, edges, basins, births, 5).size < k - 1:
                continue
            groups, n_big, _ = persistent_components(Z, edges, basins, k, 5, births)
            expected = _threshold_clustering(Z, edges, basins, births, 5, k)
            assert adjusted_rand_score(expected, groups) == 1.0
            assert n_big == k
            checked += 1
    assert checked > 50


def test_persistent_components_keep_deep_groups_a_level_cut_splits() -> None:
    from kernel_patterns.cluster.gp._cuts import count_components, persistent_components

    # {0, 1, 2} and {3, 4, 5} join at 0.9; the shallow SEPs 2 and 5 open into them at 1.1
    Z = np.array([[0, 1, 0.5, 2], [3, 4, 0.5, 2], [6, 7, 0.9, 4], [2, 8, 1.1, 5],
                  [5, 9, 1.1, 6]])
    edges = np.array([[0, 1], [3, 4], [1, 3], [2, 0], [5, 3]])
    basins = np.repeat(np.arange(6), 10)
    births = np.array([0.0, 0.1, 1.05, 0.2, 0.3, 1.08])
    groups, n_big, level = persistent_components(Z, edges, basins, 2, 5, births)
    np.testing.assert_array_equal(groups, [0, 0, 0, 1, 1, 1])
    assert (n_big, level) == (2, 1.1)
    cut, _, _ = count_components(Z, edges, basins, 2, 5, births)
    np.testing.assert_array_equal(cut, [0, 0, 0, 0, 0, 1])  # the level cut splits off SEP 5
    # one cluster: nothing kept apart; more than the hierarchy holds: every group
    assert persistent_components(Z, edges, basins, 1, 5, births)[1] == 1
    assert persistent_components(Z, edges, basins, 9, 5, births)[1] == 6
    # a SEP under min_cluster_size merges without a record: never a cluster of its own
    small = np.r_[np.repeat(np.arange(5), 10), [5]]
    groups, n_big, _ = persistent_components(Z, edges, small, 6, 5, births)
    assert n_big == 5 and groups[5] != -1  # SEP 5 (one point) merged without a record


def test_persistence_in_the_effective_count_keeps_a_dense_split() -> None:
    """With the kernel's noise v2, a group's persistence is its peak's prominence in
    Poisson standard deviations of the effective count λ = v2 / (σ² − v2): a dense pair
    split by a shallow saddle (σ² 1.02 against 1.03, λ 50 against 33) outlasts a sparse
    group deep in σ² (born at 1.5, λ 2, joined at 3.0, λ 0.5), which persists longest in
    σ²."""
    from kernel_patterns.cluster.gp._cuts import effective_count, group_persistence
    from kernel_patterns.cluster.gp._cuts import persistent_components as persistent

    Z = np.array([[0, 1, 1.03, 2], [2, 3, 3.0, 3]])
    edges = np.array([[0, 1], [1, 2]])
    basins = np.repeat(np.arange(3), 10)
    births = np.array([1.01, 1.02, 1.5])
    np.testing.assert_allclose(group_persistence(Z, edges, basins, births, 5), [1.5, 0.01])
    lam = effective_count(np.array([1.02, 1.03, 1.5, 3.0]), 1.0)
    z = [(lam[0] - lam[1]) / np.sqrt(lam[0]), (lam[2] - lam[3]) / np.sqrt(lam[2])]
    np.testing.assert_allclose(group_persistence(Z, edges, basins, births, 5, noise=1.0), z)
    assert persistent(Z, edges, basins, 2, 5, births)[0].tolist() == [0, 0, 1]
    assert persistent(Z, edges, basins, 2, 5, births, noise=1.0)[0].tolist() == [0, 1, 1]
    # a kernel without noise (an RBF): λ is not defined, the depth in σ² is read
    assert persistent(Z, edges, basins, 2, 5, births, noise=0.0)[0].tolist() == [0, 0, 1]


def test_n_clusters_keeps_a_dense_blob_beside_a_sparse_one() -> None:
    """The front page's blobs (deviations 1, 2 and 0.5): the most persistent groups in σ²
    were pieces of the sparse blob's edge (ARI 0.03 given k = 3); in the effective count
    the dense blob is one of the three."""
    X, y = make_blobs(300, centers=3, cluster_std=[1.0, 2.0, 0.5], random_state=0)
    gp = GPClustering(n_clusters=3, random_state=0).fit(StandardScaler().fit_transform(X))
    assert gp.n_clusters_ == 3 and adjusted_rand_score(y, gp.labels_) > 0.4
    dense = np.bincount(gp.labels_[(y == 2) & (gp.labels_ >= 0)]).max()
    assert dense >= 0.8 * np.sum(y == 2)


def test_n_clusters_on_circles_gives_the_rings_not_arcs() -> None:
    from sklearn.datasets import make_circles

    X, y = make_circles(500, factor=0.5, noise=0.05, random_state=0)
    X = datasets.scale_unit_interval(X)
    gp = GPClustering(n_clusters=2).fit(X)
    # a cut of the hierarchy at one level split both rings (ARI 0.01)
    assert adjusted_rand_score(y, gp.labels_) == 1.0
