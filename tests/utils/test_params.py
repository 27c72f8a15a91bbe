"""``utils.store_init_params``: the constructor's arguments become the estimator's parameters,
for the library's estimators and for a user's subclass of one."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from kernel_patterns import KernelKMeans, LaplacianEmbedding
from kernel_patterns.utils import store_init_params


def test_every_parameter_is_stored_unchanged() -> None:
    kernel_params = {"gamma": 0.5}

    class Estimator:
        def __init__(self, alpha: float = 1.0, *, params: dict | None = None) -> None:
            store_init_params(self, locals())

    est = Estimator(2.0, params=kernel_params)
    assert est.alpha == 2.0
    assert est.params is kernel_params  # stored as given, not copied
    assert not hasattr(est, "self")


def test_library_estimators_keep_their_parameters() -> None:
    est = KernelKMeans(3, kernel="rbf", n_init=2, random_state=0)
    assert est.get_params()["n_init"] == 2
    assert est.get_params()["n_clusters"] == 3
    emb = LaplacianEmbedding(3, n_neighbors=7)
    assert (emb.n_components, emb.n_neighbors, emb.eigen_solver) == (3, 7, "auto")
    assert clone(emb).get_params() == emb.get_params()


def test_a_users_subclass_with_a_parameter_of_its_own() -> None:
    class Mine(KernelKMeans):
        def __init__(self, n_clusters: int = 8, *, kernel: str = "rbf", extra: int = 1) -> None:
            super().__init__(n_clusters, kernel=kernel)
            self.extra = extra

    est = Mine(3, extra=5)
    assert est.get_params() == {"n_clusters": 3, "kernel": "rbf", "extra": 5}
    copy = clone(est)
    assert (copy.n_clusters, copy.extra) == (3, 5)
    assert copy.n_init == "auto"  # the base class's default, stored by its __init__
    # it fits: the operator's parameters are read from the attributes, not get_params
    X = np.random.RandomState(0).rand(40, 2)
    ref = KernelKMeans(3, kernel="rbf", random_state=0).fit(X).labels_
    copy.random_state = 0
    np.testing.assert_array_equal(copy.fit(X).labels_, ref)
