"""Properties of :class:`~kernel_patterns.SpectralClustering` on generated data
(``strategies``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel_patterns import SpectralClustering

from .helpers import (
    assert_ignores_later_edits,
    assert_same_state,
    fitted_state,
    quiet_fit,
)
from .strategies import (
    Data,
    affine,
    blobs,
    check_labels,
    messy,
    rings,
    same_partition,
    separated,
)

#: the default k-NN graph and an RBF kernel (whose width, gamma="scale", follows the data)
ESTIMATORS: dict[str, Callable[..., Any]] = {
    "knn": lambda k: SpectralClustering(k, random_state=0),
    "rbf": lambda k: SpectralClustering(k, kernel="rbf", random_state=0),
}
names = pytest.mark.parametrize("name", sorted(ESTIMATORS))


def _n_clusters(data: Data) -> int:
    return min(data.k, len(np.unique(data.X, axis=0)))


#: data whose k-NN graph (10 neighbours) parts the groups: blobs of 12 points or more, a
#: ring of 40 or more (on fewer, a ring point's 10 neighbours reach across to the disc)
KNN_CLEAR = st.one_of(blobs(max_n=90, min_per=12), rings(max_n=120, min_per=40))


@given(data=KNN_CLEAR, perm_seed=st.integers(0, 1000))
def test_permuting_rows_permutes_labels(data: Data, perm_seed: int) -> None:
    """On data with one clear partition for the k-NN graph (blobs, a disc in a ring),
    fitting the rows in another order (``random_state`` fixed) gives the same partition: the
    k-NN graph is the same graph with its nodes renumbered."""
    perm = np.random.default_rng(perm_seed).permutation(len(data.X))
    a = quiet_fit(lambda: ESTIMATORS["knn"](data.k), data.X).labels_
    b = quiet_fit(lambda: ESTIMATORS["knn"](data.k), data.X[perm]).labels_
    assert same_partition(a[perm], b)


@given(data=KNN_CLEAR, draw=st.data())
def test_affine_map_same_partition(data: Data, draw: st.DataObject) -> None:
    """``X * c + b`` (c > 0, any shift per column) gives the same partition: the k-NN graph
    depends only on the order of the distances, which a uniform scaling and a shift keep."""
    c, b = affine(draw.draw, data.X.shape[1], per_column=True)
    a = quiet_fit(lambda: ESTIMATORS["knn"](data.k), data.X).labels_
    moved = quiet_fit(lambda: ESTIMATORS["knn"](data.k), data.X * c + b).labels_
    assert same_partition(a, moved)


@names
@given(data=messy())
def test_same_random_state_same_result(name: str, data: Data) -> None:
    """Two fits with the same ``random_state`` give the same fitted model, bit for bit."""
    k = _n_clusters(data)
    first = fitted_state(quiet_fit(lambda: ESTIMATORS[name](k), data.X))
    second = fitted_state(quiet_fit(lambda: ESTIMATORS[name](k), data.X))
    assert_same_state(first, second)


@names
@given(data=messy())
def test_outputs_well_formed(name: str, data: Data) -> None:
    """Labels are 0 … m − 1 without gaps (m ≤ n_clusters), no noise label; ``predict`` of the
    training rows gives finite, valid labels."""
    k = _n_clusters(data)
    model = quiet_fit(lambda: ESTIMATORS[name](k), data.X)
    m = len(np.unique(model.labels_))
    assert model.labels_.shape == (len(data.X),)
    assert 1 <= m <= k
    check_labels(model.labels_, m)
    pred = model.predict(data.X)
    assert set(np.unique(pred).tolist()) <= set(range(k))


@names
@given(data=messy())
def test_fitted_model_ignores_later_edits(name: str, data: Data) -> None:
    """Editing the caller's ``X`` in place after ``fit`` changes neither the fitted
    attributes nor the predictions for (a copy of) the training rows."""
    assert_ignores_later_edits(lambda: ESTIMATORS[name](_n_clusters(data)), data.X)


@given(data=separated())
def test_rbf_predict_is_labels(data: Data) -> None:
    """With a kernel, ``fit(X).predict(X) == labels_`` (documented in ``predict``: the
    out-of-sample extension gives back the training eigenvectors). Not claimed for the k-NN
    graph, whose training rows also hold the points they are a neighbour of."""
    model = quiet_fit(lambda: ESTIMATORS["rbf"](data.k), data.X)
    np.testing.assert_array_equal(model.predict(data.X), model.labels_)
