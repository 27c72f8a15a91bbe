"""KernelKMeans as scikit-learn's KMeans (issue 18, item 9): transform, score, verbose, a
callable init, get_feature_names_out and set_output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs

from kernel_patterns import KernelKMeans


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    X, _ = make_blobs(n_samples=150, centers=3, cluster_std=1.2, random_state=0)
    return X, X[:20] + 0.3


def _means(X: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    return np.stack([X[labels == c].mean(axis=0) for c in range(k)])


def test_transform_is_the_distance_to_the_cluster_means(blobs):
    X, Xn = blobs
    km = KernelKMeans(3, kernel="linear", random_state=0).fit(X)
    C = _means(X, km.labels_, 3)  # a linear kernel: the feature space is the input space
    expected = np.linalg.norm(Xn[:, None, :] - C[None, :, :], axis=2)
    np.testing.assert_allclose(km.transform(Xn), expected, rtol=1e-8, atol=1e-8)
    np.testing.assert_array_equal(np.argmin(km.transform(Xn), axis=1), km.predict(Xn))


def test_transform_rbf_by_brute_force(blobs):
    X, Xn = blobs
    km = KernelKMeans(3, kernel="rbf", kernel_params={"gamma": 0.2}, random_state=0).fit(X)
    K = lambda A, B: np.exp(-0.2 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))  # noqa: E731
    d2 = np.empty((len(Xn), 3))
    for c in range(3):
        M = X[km.labels_ == c]
        d2[:, c] = 1.0 - 2 * K(Xn, M).mean(axis=1) + K(M, M).mean()
    np.testing.assert_allclose(km.transform(Xn), np.sqrt(d2), rtol=1e-7, atol=1e-7)


@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_fit_transform_equals_fit_then_transform(blobs, approximation):
    X, _ = blobs
    params = {"kernel": "rbf", "random_state": 0, "approximation": approximation,
              "n_landmarks": 50}
    a = KernelKMeans(3, **params).fit_transform(X)
    b = KernelKMeans(3, **params).fit(X).transform(X)
    np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-8)
    assert a.shape == (150, 3) and np.all(a >= 0)


def test_precomputed_fit_transform_and_the_error_of_transform(blobs):
    X, Xn = blobs
    lin = KernelKMeans(3, kernel="linear", random_state=0)
    pre = KernelKMeans(3, kernel="precomputed", random_state=0)
    np.testing.assert_allclose(pre.fit_transform(X @ X.T), lin.fit_transform(X), atol=1e-7)
    with pytest.raises(ValueError, match=r"kernel='precomputed'.*k\(x, x\)"):
        pre.transform(Xn @ X.T)
    with pytest.raises(ValueError, match=r"kernel='precomputed'.*k\(x, x\)"):
        pre.score(Xn @ X.T)


def test_score_is_minus_the_objective(blobs):
    X, Xn = blobs
    km = KernelKMeans(3, kernel="rbf", random_state=0).fit(X)
    assert km.score(X) == pytest.approx(-km.inertia_, rel=1e-9)
    d2 = km.transform(Xn) ** 2
    w = np.arange(1.0, 21.0)
    assert km.score(Xn) == pytest.approx(-d2.min(axis=1).sum(), rel=1e-12)
    assert km.score(Xn, sample_weight=w) == pytest.approx(-(w * d2.min(axis=1)).sum(), rel=1e-12)
    # as KMeans.score with a linear kernel
    lin = KernelKMeans(3, kernel="linear", random_state=0).fit(X)
    sk = KMeans(3, init=_means(X, lin.labels_, 3), n_init=1).fit(X)
    assert lin.score(Xn) == pytest.approx(sk.score(Xn), rel=1e-9)


def test_verbose_prints_passes_and_restarts(blobs, capsys):
    X, _ = blobs
    KernelKMeans(3, n_init=2, verbose=1, random_state=0).fit(X)
    out = capsys.readouterr().out
    assert "Initialization complete: 2 restart(s)" in out
    assert "Iteration 1, inertia by restart {0: " in out
    assert "Restart 1: inertia" in out and "Kept restart" in out
    assert "strict convergence" in out
    KernelKMeans(3, n_init=2, random_state=0).fit(X)
    assert capsys.readouterr().out == ""


def test_callable_init_returning_centres_matches_kmeans(blobs):
    X, _ = blobs
    calls = []

    def first_points(X, n_clusters, random_state):
        calls.append(random_state)
        return X[[0, 1, 2]] if n_clusters == 3 else None

    km = KernelKMeans(3, kernel="linear", init=first_points, n_init=2, random_state=0).fit(X)
    assert len(calls) == 2 and all(isinstance(r, np.random.RandomState) for r in calls)
    sk = KMeans(3, init=first_points, n_init=1).fit(X)
    np.testing.assert_array_equal(km.labels_, sk.labels_)
    assert km.inertia_ == pytest.approx(sk.inertia_, rel=1e-9)


def test_callable_init_returning_labels(blobs):
    X, _ = blobs
    labels0 = (X[:, 0] > np.median(X[:, 0])).astype(int) + (X[:, 1] > 0)

    def init(X, n_clusters, random_state):
        return labels0

    km = KernelKMeans(3, kernel="linear", init=init, n_init=1, max_iter=1,
                      random_state=0)
    with pytest.warns(UserWarning, match="did not converge|only"):
        km.fit(X)
    # the same run as init=labels0 (an array of initial labels)
    moved = KernelKMeans(3, kernel="linear", init=labels0, max_iter=1, random_state=0)
    with pytest.warns(UserWarning):
        moved.fit(X)
    np.testing.assert_array_equal(km.labels_, moved.labels_)
    assert km.inertia_ == moved.inertia_


def test_callable_init_with_a_bad_shape_names_what_it_must_return(blobs):
    X, _ = blobs
    with pytest.raises(ValueError, match=r"init as a callable must return integer labels "
                                         r"of shape \(150,\) or centres of shape \(3, 2\)"):
        KernelKMeans(3, init=lambda X, k, rs: np.zeros((4, 2))).fit(X)


def test_feature_names_and_pandas_output(blobs):
    X, Xn = blobs
    km = KernelKMeans(3, kernel="rbf", random_state=0).fit(X)
    names = ["kernelkmeans0", "kernelkmeans1", "kernelkmeans2"]
    assert km.get_feature_names_out().tolist() == names
    out = km.set_output(transform="pandas").transform(Xn)
    assert isinstance(out, pd.DataFrame) and out.columns.tolist() == names
    df = pd.DataFrame(X, columns=["a", "b"])
    fitted = KernelKMeans(3, random_state=0).set_output(transform="pandas").fit_transform(df)
    assert isinstance(fitted, pd.DataFrame) and fitted.shape == (150, 3)
