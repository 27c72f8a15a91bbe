"""The fitted tree: every view of one GP fit (labels_, labels_at, the hierarchy) agrees."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import cophenet
from sklearn.datasets import load_breast_cancer, load_digits, load_wine, make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp import components_at
from kernel_patterns.cluster.gp._graph import single_linkage
from kernel_patterns.cluster.gp._tree import fitted_tree, level_for_count, replay_merges


def _random_tree(p: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A saddle-like linkage of p SEPs: single linkage of random weights on the complete
    graph, with the MST edges that made it."""
    rng = np.random.default_rng(seed)
    I, J = np.triu_indices(p, 1)
    Z, edges = single_linkage(p, I.astype(np.intp), J.astype(np.intp), rng.random(I.size))
    return Z, edges


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    return adjusted_rand_score(a, b) == 1.0 if np.unique(a).size > 1 else np.unique(b).size == 1


@settings(max_examples=60, deadline=None, derandomize=True)
@given(p=st.integers(2, 25), seed=st.integers(0, 10**6), n_groups=st.integers(1, 6),
       level=st.floats(0.0, 1.0))
def test_fitted_tree_cut_at_its_level_is_the_groups(p, seed, n_groups, level) -> None:
    """Whatever groups the fit chose, the fitted tree cut at its level gives them; inside a
    group the merges are those of the saddle tree (the same cophenetic heights), and the
    level is the given one unless a merge inside a group lies above it."""
    Z, edges = _random_tree(p, seed)
    groups = np.random.default_rng(seed + 1).integers(0, n_groups, p)
    tree, top = fitted_tree(Z, edges, groups, level)
    assert top >= level
    assert _same_partition(components_at(tree, p, top), groups)
    assert np.all(np.diff(tree[:, 2]) >= 0)  # a valid linkage: heights never fall
    before, after = cophenet(Z), cophenet(tree)
    I, J = np.triu_indices(p, 1)
    inside = groups[I] == groups[J]
    assert np.allclose(after[inside], before[inside])
    assert np.all(after[~inside] > top)


def test_fitted_tree_keeps_a_tree_that_is_already_a_cut() -> None:
    """Groups that are the cut at the level: the tree and the level are unchanged."""
    Z, edges = _random_tree(12, 3)
    level = float(np.median(Z[:, 2]))
    groups = components_at(Z, 12, level)
    tree, top = fitted_tree(Z, edges, groups, level)
    assert top == level
    assert np.allclose(cophenet(tree), cophenet(Z))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(p=st.integers(2, 20), seed=st.integers(0, 10**6), least=st.integers(1, 30))
def test_replay_merges_counts_as_a_cut_at_every_state(p, seed, least) -> None:
    """The count after r merges equals that of the cut between the r-th and (r+1)-th
    merge heights, counted by brute force."""
    Z, _ = _random_tree(p, seed)
    sizes = np.random.default_rng(seed).integers(1, 20, p).astype(float)
    counts = replay_merges(Z, sizes, least)
    for r in range(p):
        level = Z[r - 1, 2] if r else -1.0
        groups = components_at(Z, p, level)
        assert counts[r] == np.sum(np.bincount(groups, weights=sizes) >= least)


def test_level_for_count_is_nearest_the_fit_and_says_what_there_is() -> None:
    Z = np.array([[0.0, 1.0, 0.5, 2.0], [2.0, 3.0, 0.9, 3.0]])
    sizes = np.array([3.0, 3.0, 8.0])
    assert level_for_count(Z, sizes, 5, 1, level=1.0) == 1.0  # the fit's own cut
    assert level_for_count(Z, sizes, 5, 2, level=1.0) == pytest.approx(0.7)
    with pytest.raises(ValueError, match="n_clusters=3 clusters of at least min_cluster_"
                                         "size=5 points; its cuts give 1, 2"):
        level_for_count(Z, sizes, 5, 3, level=1.0)


def _check_views(gp: GPClustering) -> None:
    """labels_at(level=level_) is labels_, labels_at(n_clusters=n_clusters_) too, and no cut
    for another count makes a group below min_cluster_size a cluster."""
    assert np.array_equal(gp.labels_at(level=gp.level_), gp.labels_)
    if gp.n_clusters_ >= 1:
        assert np.array_equal(gp.labels_at(n_clusters=gp.n_clusters_), gp.labels_)
    for k in range(1, gp.n_clusters_ + 3):
        try:
            lab = gp.labels_at(n_clusters=k)
        except ValueError as err:
            assert "its cuts give" in str(err)
            continue
        sizes = np.bincount(lab[lab >= 0])
        assert sizes.size == k
        assert sizes.min() >= gp.min_cluster_size


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), centers=st.integers(1, 5), n=st.integers(40, 200),
       std=st.floats(0.3, 2.0))
def test_views_of_a_fit_agree_on_mixtures(seed, centers, n, std) -> None:
    """On any Gaussian mixture, GPClustering()'s labels, its cuts and its hierarchy agree
    (``_check_views``), and ``GPClustering(n_clusters=k)`` for the count it found is it."""
    X, _ = make_blobs(n, centers=centers, cluster_std=std, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        gp = GPClustering(random_state=0).fit(X)
        _check_views(gp)
        if gp.n_clusters_ >= 1:
            given = GPClustering(n_clusters=gp.n_clusters_, random_state=0).fit(X)
            assert np.array_equal(given.labels_, gp.labels_)


def _sets() -> dict[str, np.ndarray]:
    from sklearn import datasets as skd

    out = {"wine": load_wine().data, "cancer": load_breast_cancer().data}
    out["digits"] = load_digits().data
    rng = np.random.RandomState(170)
    blobs, _ = make_blobs(1500, random_state=8)
    aniso, _ = make_blobs(1500, random_state=170)
    out.update({
        "circles": skd.make_circles(1500, factor=0.5, noise=0.05, random_state=30)[0],
        "moons": skd.make_moons(1500, noise=0.05, random_state=30)[0],
        "varied": make_blobs(1500, cluster_std=[1.0, 2.5, 0.5], random_state=170)[0],
        "aniso": aniso @ np.array([[0.6, -0.6], [-0.4, 0.8]]),
        "blobs": blobs,
        "no structure": rng.rand(1500, 2),
    })
    return {k: StandardScaler().fit_transform(v) for k, v in out.items()}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["wine", "cancer", "digits", "circles", "moons", "varied",
                                  "aniso", "blobs", "no structure"])
def test_views_agree_on_the_sets_of_issue_61(name) -> None:
    """The sets where the views disagreed before the fitted tree (issue 61, item 2)."""
    X = _sets()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        gp = GPClustering(random_state=0).fit(X)
    _check_views(gp)


def test_one_gaussian_is_one_cluster_without_a_warning() -> None:
    """One cluster where a landscape read has one mode is not in doubt: no warning (issue
    61: a single 3-D Gaussian was one cluster with a warning to shorten the length scale)."""
    X = np.random.default_rng(0).normal(size=(300, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gp = GPClustering(random_state=0).fit(X)
    assert gp.n_clusters_ == 1
    assert gp.count_trace_.reason.startswith("1 cluster: the support of the variance")


def test_probabilities_and_outlier_scores() -> None:
    """In [0, 1]; noise has probability 0; a point deep in its cluster (at its peak) scores
    above a point at its edge, and is less of an outlier."""
    X, _ = make_blobs(300, centers=[[0, 0], [6, 0]], cluster_std=1.0, random_state=0)
    X = np.r_[X, [[3.0, 12.0]]]  # one lonely point: noise
    gp = GPClustering(random_state=0).fit(X)
    prob, out = gp.probabilities_, gp.outlier_scores_
    assert prob.shape == out.shape == (301,)
    assert prob.min() >= 0 and prob.max() <= 1 and out.min() >= 0 and out.max() <= 1
    assert gp.labels_[-1] == -1 and prob[-1] == 0 and out[-1] == 1
    for c in range(gp.n_clusters_):
        members = np.flatnonzero(gp.labels_ == c)
        centre = members[np.argmin(np.linalg.norm(X[members] - X[members].mean(0), axis=1))]
        edge = members[np.argmax(np.linalg.norm(X[members] - X[members].mean(0), axis=1))]
        assert prob[centre] > prob[edge] and out[centre] < out[edge]


@pytest.mark.slow
def test_the_count_moves_little_with_the_seed() -> None:
    """31 Gaussian blobs of 100 points (3,100 points: the inducing path, whose subsample and
    inducing points the seed draws): over three seeds the count moves by at most one
    cluster and the ARI by at most 0.05 (issue 61)."""
    X, y = make_blobs(n_samples=[100] * 31, cluster_std=1.0, center_box=(-40, 40),
                      random_state=1)
    X = StandardScaler().fit_transform(X)
    counts, scores = [], []
    for seed in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            gp = GPClustering(random_state=seed).fit(X)
        _check_views(gp)
        counts.append(gp.n_clusters_)
        scores.append(adjusted_rand_score(y, gp.labels_))
    assert max(counts) - min(counts) <= 1
    assert max(scores) - min(scores) <= 0.05


def test_the_reason_says_how_deep_the_deepest_split_not_made_is() -> None:
    """Three blobs read by the excess of mass: the reason names the count, the reading and
    how deep (in noise units) the deepest split inside a fitted cluster is."""
    X, _ = make_blobs(300, centers=3, cluster_std=0.6, random_state=0)
    gp = GPClustering(random_state=0).fit(X)
    trace = gp.count_trace_
    assert trace.reading == "excess of mass" and trace.n_clusters == gp.n_clusters_ == 3
    assert 0 < trace.deepest_split < 2
    assert trace.reason.startswith("3 clusters: the clusters of greatest excess of mass")
    assert f"deepest split inside a cluster is {trace.deepest_split:.1f} noise units" in (
        trace.reason)


def test_the_trace_names_the_step_of_the_rule_that_decided() -> None:
    """``count_trace_.step`` is one of the rule's steps (``DECISIONS``, in its order), and
    the reason is that step's sentence: the excess of mass for three blobs, the support in
    one piece for one Gaussian, the modes below the support for 7 blobs in 9-D."""
    from sklearn.preprocessing import StandardScaler

    from kernel_patterns.cluster.gp._trace import DECISIONS

    cases = [
        (make_blobs(300, centers=3, cluster_std=0.6, random_state=0)[0], "mass", 3),
        (np.random.default_rng(0).normal(size=(300, 3)), "one", 1),
        (StandardScaler().fit_transform(make_blobs(200, n_features=9, centers=7,
                                                   cluster_std=2.5, random_state=2)[0]),
         "modes below the support", 7),
    ]
    for X, step, k in cases:
        trace = GPClustering(random_state=0).fit(X).count_trace_
        assert trace.step == step and trace.n_clusters == k
        head = DECISIONS[step].split("{")[0]
        assert trace.reason.startswith(f"{k} cluster{'s' if k > 1 else ''}: {head}")
    for template in DECISIONS.values():  # every step's sentence formats
        assert "{" not in template.format(ell="1.2", a="0.95", k=3, n=7)


def test_n_clusters_is_the_count_rule_where_it_finds_that_count() -> None:
    """``GPClustering(n_clusters=k)`` with ``kernel=None`` is ``GPClustering()`` where the
    count rule finds k itself, and ``labels_at(n_clusters=k)`` of either is those labels
    (issue 61: on penguins the two had disagreed); where it does not, the length scale is
    searched and k clusters come back."""
    X, _ = make_blobs(400, centers=[[0, 0], [5, 0], [0, 5]], cluster_std=1.0, random_state=3)
    auto = GPClustering(random_state=0).fit(X)
    k = auto.n_clusters_
    given = GPClustering(n_clusters=k, random_state=0).fit(X)
    assert k == 3 and np.array_equal(given.labels_, auto.labels_)
    assert np.array_equal(auto.labels_at(n_clusters=k), given.labels_)
    assert np.array_equal(given.labels_at(n_clusters=k), given.labels_)
    more = GPClustering(n_clusters=k + 1, random_state=0).fit(X)  # the search
    assert more.n_clusters_ == k + 1
