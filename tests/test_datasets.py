"""Data sets: sizes from the papers, reproducibility, loaders and scaling."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import datasets


@pytest.mark.parametrize(
    ("make", "counts"),
    [
        (datasets.make_two_moons, [104, 96]),
        (datasets.make_three_moons, [100, 100, 100]),
        (datasets.make_icassp_logo, [35, 35, 56, 41, 53, 60]),
        (datasets.make_rings, [100, 200]),
    ],
)
def test_generated_sets_have_the_papers_sizes_and_are_reproducible(make, counts) -> None:
    X, y = make(random_state=3)
    assert X.shape == (sum(counts), 2)
    assert np.bincount(y).tolist() == counts
    X2, y2 = make(random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = make(random_state=4)
    assert not np.array_equal(X, X3)


def test_icassp_letters_are_separate_side_by_side_clouds() -> None:
    X, y = datasets.make_icassp_logo(random_state=0)
    centres = np.array([X[y == k, 0].mean() for k in range(6)])
    assert np.all(np.diff(centres) > 0.5)  # I, C, A, S, S, P from left to right
    assert X[:, 1].min() > -0.2 and X[:, 1].max() < 1.2


@pytest.mark.parametrize(("d", "mean"), [(5, 7.0), (10, 7.0), (20, 5.0)])
def test_gaussian_sets_of_the_gp_paper(d, mean) -> None:
    X, y = datasets.make_gaussians(d, n_per_cluster=400, random_state=0)
    assert X.shape == (2000, d)
    for k in range(5):
        m = X[y == k].mean(axis=0)
        expected = np.zeros(d)
        expected[k] = mean
        np.testing.assert_allclose(m, expected, atol=0.2)
        assert X[y == k].var(axis=0).mean() == pytest.approx(1.0, abs=0.1)


def test_crabs_iris_wine_loaders() -> None:
    crabs = datasets.load_crabs()
    assert crabs.data.shape == (200, 5)
    assert np.bincount(crabs.target).tolist() == [50, 50, 50, 50]
    assert crabs.feature_names == ["FL", "RW", "CL", "CW", "BD"]
    X, y = datasets.load_crabs(return_X_y=True)
    np.testing.assert_array_equal(X, crabs.data)
    np.testing.assert_array_equal(y, crabs.target)
    assert datasets.load_iris().data.shape == (150, 4)
    assert np.bincount(datasets.load_wine().target).tolist() == [59, 71, 48]
    assert datasets.load_boston().data.shape == (506, 13)
    assert datasets.load_cpus().data.shape == (209, 6)


def test_scaling_helpers() -> None:
    X = np.array([[1.0, 10.0, 3.0], [3.0, 30.0, 3.0], [2.0, 20.0, 3.0]])
    before = X.copy()
    U = datasets.scale_unit_interval(X)
    np.testing.assert_allclose(U.min(axis=0), [0, 0, 0])
    np.testing.assert_allclose(U.max(axis=0), [1, 1, 0])
    W = datasets.whiten(X)
    np.testing.assert_allclose(W.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(W.std(axis=0), [1, 1, 0])
    np.testing.assert_array_equal(X, before)
    with pytest.raises(ValueError, match="X contains NaN"):
        datasets.whiten([[np.nan]])


def test_generator_errors() -> None:
    with pytest.raises(ValueError, match="n_samples must be an int or 2 positive counts"):
        datasets.make_two_moons(n_samples=(10, 0))
    with pytest.raises(ValueError, match="noise must be >= 0"):
        datasets.make_rings(noise=-1.0)
    with pytest.raises(ValueError, match="n_features must be >= 5"):
        datasets.make_gaussians(3)



@pytest.mark.parametrize(("make", "error", "match"), [
    (lambda: datasets.make_two_moons(n_samples=3.5), TypeError,
     r"n_samples must be an int or a sequence of 2 ints; got 3\.5"),
    (lambda: datasets.make_three_moons(n_samples=(100, 100.0, 100)), TypeError,
     "n_samples must be an int or a sequence of 3 ints"),
    (lambda: datasets.make_icassp_logo(n_samples=True), TypeError, "n_samples must be an int"),
    (lambda: datasets.make_two_moons(noise=np.nan), ValueError, "noise must be finite; got nan"),
    (lambda: datasets.make_icassp_logo(noise=np.inf), ValueError, "noise must be finite"),
    (lambda: datasets.make_three_moons(noise="0.1"), TypeError, "noise must be a number"),
    (lambda: datasets.make_rings(radii=(np.nan, 1.0)), ValueError,
     r"radii\[0\] must be finite; got nan"),
    (lambda: datasets.make_rings(radii=(1.0, -2.0)), ValueError, r"radii\[1\] must be >= 0"),
    (lambda: datasets.make_rings(radii=2.0), TypeError, "radii must be a sequence of numbers"),
    (lambda: datasets.make_rings(radii=()), ValueError, "radii must give at least one radius"),
    # the counts do not match the rings: both arguments named
    (lambda: datasets.make_rings(radii=(1.0,)), ValueError,
     r"n_samples must be an int or 1 positive counts \(one per ring: radii has 1\); got "
     r"\(100, 200\)"),
    (lambda: datasets.make_gaussians(mean=np.nan), ValueError, "mean must be finite; got nan"),
    (lambda: datasets.make_gaussians(n_per_cluster=0), ValueError,
     "n_per_cluster must be >= 1; got 0"),
    (lambda: datasets.make_gaussians(n_per_cluster=2.5), TypeError,
     "n_per_cluster must be an integer"),
    (lambda: datasets.make_gaussians(n_features=7.5), TypeError,
     "n_features must be an integer"),
])
def test_generator_arguments_are_checked_before_any_draw(make, error, match) -> None:
    with pytest.raises(error, match=match):
        make()


def test_a_failed_generator_leaves_the_callers_random_state_as_it_was() -> None:
    rng = np.random.RandomState(0)
    state = rng.get_state()[1].copy()
    with pytest.raises(ValueError, match="noise must be finite"):
        datasets.make_rings(noise=np.nan, random_state=rng)
    np.testing.assert_array_equal(rng.get_state()[1], state)
    X, _ = datasets.make_rings(n_samples=9, radii=np.array([0.0, 1.0, 2.0]), random_state=0)
    assert X.shape == (9, 2) and np.isfinite(X).all()
