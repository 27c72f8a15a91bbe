"""scipy.sparse features for the rankers (issue 18 item 6; found by mord's test_1, ported in
tests/peers/test_mord.py): the same ranker as on the dense array."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from kernel_patterns import NuRanking, OnlineRanking


@pytest.fixture(scope="module")
def data():
    rng = np.random.RandomState(0)
    X = rng.randn(90, 8)
    X[X < 0.3] = 0.0  # mostly zeros, as sparse data are
    y = np.digitize(X @ rng.randn(8), [-1.0, 0.0, 1.0])
    return X, y


@pytest.mark.parametrize("container", [sparse.csr_matrix, sparse.csr_array, sparse.csc_array])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
@pytest.mark.parametrize("make", [lambda k: NuRanking(nu=0.3, kernel=k),
                                  lambda k: OnlineRanking(kernel=k, random_state=0)],
                         ids=["NuRanking", "OnlineRanking"])
def test_sparse_gives_the_dense_ranker(data, container, kernel, make):
    X, y = data
    dense = make(kernel).fit(X, y)
    est = make(kernel).fit(container(X), y)
    assert est.__sklearn_tags__().input_tags.sparse
    np.testing.assert_allclose(est.decision_function(container(X)),
                               dense.decision_function(X), atol=1e-8)
    np.testing.assert_array_equal(est.predict(X), dense.predict(X))


def test_partial_fit_mixes_sparse_and_dense_batches(data):
    X, y = data
    kw = {"kernel": "rbf", "kernel_params": {"gamma": 0.1}}
    a = OnlineRanking(**kw).partial_fit(sparse.csr_array(X[:45]), y[:45], classes=[0, 1, 2, 3])
    a.partial_fit(X[45:], y[45:])
    b = OnlineRanking(**kw).partial_fit(X[:45], y[:45], classes=[0, 1, 2, 3])
    b.partial_fit(X[45:], y[45:])
    assert sparse.issparse(a.support_vectors_)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-10)


@pytest.mark.parametrize("est", [NuRanking(nu=0.3, kernel=lambda A, B: A @ B.T),
                                 OnlineRanking(kernel="precomputed")])
def test_kernels_without_sparse_input_say_so(data, est):
    X, y = data
    assert not est.__sklearn_tags__().input_tags.sparse
    with pytest.raises(TypeError, match=r"[Ss]parse"):
        est.fit(sparse.csr_array(X), y)
