"""Metrics against hand-counted contingency tables."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kernel_patterns import metrics

# Reference r (rows) × found cluster c (cols), counted by hand:
#            c=a  c=b  c=c
#   r=0       4    1    0      n_0 = 5
#   r=1       0    3    3      n_1 = 6
#   r=2       0    0    4      n_2 = 4
TRUE = [0] * 5 + [1] * 6 + [2] * 4
PRED = ["a"] * 4 + ["b"] + ["b"] * 3 + ["c"] * 3 + ["c"] * 4


def test_contingency_table_by_hand() -> None:
    np.testing.assert_array_equal(
        metrics.contingency_table(TRUE, PRED), [[4, 1, 0], [0, 3, 3], [0, 0, 4]]
    )


def test_reference_error_by_hand() -> None:
    # Σ_r max_c n_rc = 4 + 3 + 4 = 11 of 15
    assert metrics.reference_error(TRUE, PRED) == pytest.approx(1 - 11 / 15)


def test_cluster_error_by_hand() -> None:
    # Σ_c max_r n_rc = 4 + 3 + 4 = 11 of 15 (column maxima 4, 3, 4)
    assert metrics.cluster_error(TRUE, PRED) == pytest.approx(1 - 11 / 15)


def test_f_score_by_hand() -> None:
    # n_c = (4, 4, 7); F_rc = 2 n_rc / (n_r + n_c)
    f0 = max(2 * 4 / (5 + 4), 2 * 1 / (5 + 4))
    f1 = max(2 * 3 / (6 + 4), 2 * 3 / (6 + 7))
    f2 = 2 * 4 / (4 + 7)
    expected = 5 / 15 * f0 + 6 / 15 * f1 + 4 / 15 * f2
    assert metrics.f_score(TRUE, PRED) == pytest.approx(expected)


def test_f_score_uses_eq_5_2_recall_and_precision() -> None:
    n = metrics.contingency_table(TRUE, PRED).astype(float)
    R = n / n.sum(axis=0)  # recall n_rc / n_c
    P = n / n.sum(axis=1, keepdims=True)  # precision n_rc / n_r
    with np.errstate(invalid="ignore"):
        F = np.nan_to_num(2 * R * P / (R + P))
    expected = np.sum(n.sum(axis=1) / n.sum() * F.max(axis=1))
    assert metrics.f_score(TRUE, PRED) == pytest.approx(expected)


def test_clustering_accuracy_by_hand() -> None:
    # best one-to-one matching 0→a (4), 1→b (3), 2→c (4): 11 of 15
    assert metrics.clustering_accuracy(TRUE, PRED) == pytest.approx(11 / 15)


def test_clustering_accuracy_is_the_optimal_not_the_greedy_matching() -> None:
    # table [[3, 2], [2, 0]]: greedy takes (0,0)=3 and is left with (1,1)=0 → 3/7;
    # the optimal matching (0,1)+(1,0) = 4 → 4/7
    t = [0, 0, 0, 0, 0, 1, 1]
    p = [0, 0, 0, 1, 1, 0, 0]
    np.testing.assert_array_equal(metrics.contingency_table(t, p), [[3, 2], [2, 0]])
    assert metrics.clustering_accuracy(t, p) == pytest.approx(4 / 7)


def test_perfect_and_permuted_labels() -> None:
    t = [0, 0, 1, 1, 2]
    p = [5, 5, 9, 9, 7]
    assert metrics.reference_error(t, p) == 0.0
    assert metrics.cluster_error(t, p) == 0.0
    assert metrics.f_score(t, p) == pytest.approx(1.0)
    assert metrics.clustering_accuracy(t, p) == 1.0


def test_ranking_errors_by_hand() -> None:
    y = [1, 2, 3, 4, 5]
    yhat = [1, 3, 3, 2, 5]
    assert metrics.mean_zero_one_error(y, yhat) == pytest.approx(2 / 5)
    assert metrics.mean_absolute_error(y, yhat) == pytest.approx((0 + 1 + 0 + 2 + 0) / 5)


@pytest.mark.parametrize(
    "fn",
    [
        metrics.reference_error,
        metrics.cluster_error,
        metrics.f_score,
        metrics.clustering_accuracy,
    ],
)
def test_clustering_metric_errors(fn) -> None:
    with pytest.raises(ValueError, match="labels_true and labels_pred must have the same length"):
        fn([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="labels_pred contains NaN"):
        fn([0, 1], [0.0, np.nan])
    with pytest.raises(ValueError, match="labels_true is empty"):
        fn([], [])
    with pytest.raises(ValueError, match="labels_true must be 1-D"):
        fn(np.zeros((2, 2)), [0, 1])


@pytest.mark.parametrize("fn", [metrics.mean_zero_one_error, metrics.mean_absolute_error])
def test_ranking_metric_errors(fn) -> None:
    with pytest.raises(ValueError, match="y_true and y_pred must have the same length"):
        fn([1, 2], [1])
    with pytest.raises(ValueError, match="y_pred contains infinity"):
        fn([1.0, 2.0], [1.0, np.inf])
    with pytest.raises(ValueError, match="must hold numeric ranks"):
        metrics.mean_absolute_error(["a", "b"], ["a", "a"])


@pytest.mark.parametrize("fn", [metrics.contingency_table, metrics.reference_error,
                                metrics.cluster_error, metrics.f_score,
                                metrics.clustering_accuracy])
def test_labels_of_types_that_do_not_sort_together_are_named(fn) -> None:
    # scikit-learn's cluster metrics refuse them too (numpy's '<' TypeError); here the
    # argument is named. A plain list becomes strings and works.
    mixed = np.array([1, "a", 2, "a"], dtype=object)
    with pytest.raises(TypeError, match=r"labels_true mixes labels of types int, str"):
        fn(mixed, [0, 0, 1, 1])
    with pytest.raises(TypeError, match=r"labels_pred mixes labels of types int, str.*"
                                        r"np\.asarray\(labels_pred, dtype=str\)"):
        fn([0, 0, 1, 1], mixed)
    fn([1, "a", 2, "a"], [0, 0, 1, 1])


ORDER = ["low", "mid", "high"]


@pytest.mark.parametrize(("fn", "expected"), [
    (metrics.mean_absolute_error, 3 / 4),
    (metrics.kendall_tau, None),
    (metrics.ordinal_concordance_index, None),
])
def test_ordered_categoricals_are_ranks_in_category_order(fn, expected) -> None:
    pd = pytest.importorskip("pandas")
    true = pd.Categorical(["low", "high", "mid", "low"], categories=ORDER, ordered=True)
    pred = ["low", "mid", "mid", "high"]  # a ranker's predict: labels, ranks 0 1 1 2
    ranks_true, ranks_pred = [0, 2, 1, 0], [0, 1, 1, 2]
    want = fn(ranks_true, ranks_pred) if expected is None else expected
    assert fn(true, pred) == pytest.approx(want)  # not the alphabetical order
    assert fn(pd.Series(true), pd.Categorical(pred, categories=ORDER, ordered=True)) \
        == pytest.approx(want)
    labels = ["low", "high", "mid", "low"]  # the order from y_pred's categories
    assert fn(labels, pd.Series(pd.Categorical(pred, categories=ORDER, ordered=True))) \
        == pytest.approx(want)
    with pytest.raises(ValueError, match=r"y_pred holds values that are not categories of "
                                         r"the ranks \['low', 'mid', 'high'\]: 'top'"):
        fn(true, ["low", "top", "mid", "low"])
    with pytest.raises(ValueError, match="y_true is an unordered categorical"):
        fn(pd.Categorical(["low", "mid"]), [0, 1])
    with pytest.raises(ValueError, match="different categories"):
        fn(true, pd.Categorical(pred, categories=ORDER[::-1], ordered=True))
    with pytest.raises(ValueError, match="y_true contains missing values"):
        fn(pd.Categorical(["low", None, "mid"], categories=ORDER, ordered=True), [0, 1, 2])


def test_order_metrics_read_scores_next_to_an_ordered_categorical() -> None:
    pd = pytest.importorskip("pandas")
    true = pd.Categorical(["low", "high", "mid", "low"], categories=ORDER, ordered=True)
    f = [0.1, 0.9, 0.5, 0.2]  # scores f(x): only their order counts
    assert metrics.kendall_tau(true, f) == pytest.approx(metrics.kendall_tau([0, 2, 1, 0], f))
    assert metrics.ordinal_concordance_index(true, f) == 1.0
    with pytest.raises(ValueError, match="not categories of the ranks"):
        metrics.mean_absolute_error(true, f)  # the MAE needs ranks, not scores


def test_kendall_tau_where_it_is_undefined_is_an_error() -> None:
    for y_true, y_pred, name in (([1, 1, 1], [1, 2, 3], "y_true holds a single rank"),
                                 ([2], [2], "y_true holds a single rank"),
                                 ([1, 2, 3], [5.0, 5.0, 5.0], "y_pred holds a single value")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no scipy warning, no NaN
            with pytest.raises(ValueError, match=name + ": Kendall's tau-b is undefined"):
                metrics.kendall_tau(y_true, y_pred)
