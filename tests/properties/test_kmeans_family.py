"""Properties of :class:`~kernel_patterns.KernelKMeans` and
:class:`~kernel_patterns.SoftKernelKMeans` on generated data (``strategies``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel_patterns import KernelKMeans, SoftKernelKMeans

from .helpers import (
    assert_ignores_later_edits,
    assert_same_state,
    fitted_state,
    quiet_fit,
)
from .strategies import Data, affine, blobs, check_labels, messy, same_partition

ESTIMATORS: dict[str, Callable[..., Any]] = {
    "KernelKMeans": lambda k, **kw: KernelKMeans(k, n_init=3, random_state=0, **kw),
    "SoftKernelKMeans": lambda k, **kw: SoftKernelKMeans(k, n_init=3, random_state=0, **kw),
}
names = pytest.mark.parametrize("name", sorted(ESTIMATORS))


def _n_clusters(data: Data) -> int:
    return min(data.k, len(np.unique(data.X, axis=0)))


@names
@given(data=blobs(), perm_seed=st.integers(0, 1000))
def test_permuting_rows_permutes_labels(name: str, data: Data, perm_seed: int) -> None:
    """On well-separated blobs, fitting the rows in another order (``random_state`` fixed)
    gives the same partition of the points. (Not on rings: the default RBF width is the
    data's, too wide to part a disc from the ring around it; k-means is not a ring finder.)"""
    make = ESTIMATORS[name]
    perm = np.random.default_rng(perm_seed).permutation(len(data.X))
    a = quiet_fit(lambda: make(data.k), data.X).labels_
    b = quiet_fit(lambda: make(data.k), data.X[perm]).labels_
    assert same_partition(a[perm], b)


@names
@given(data=blobs(), draw=st.data())
def test_affine_map_same_partition(name: str, data: Data, draw: st.DataObject) -> None:
    """``X * c + b`` (c > 0, b the same on every column) gives the same partition: the default
    RBF width (``gamma="scale"``) follows the data's variance and an RBF kernel ignores
    shifts."""
    c, b = affine(draw.draw, data.X.shape[1])
    make = ESTIMATORS[name]
    a = quiet_fit(lambda: make(data.k), data.X).labels_
    moved = quiet_fit(lambda: make(data.k), data.X * c + b).labels_
    assert same_partition(a, moved)


WIDTH_LIMIT = pytest.mark.xfail(strict=True, reason=(
    "documented limitation (RBF docstring): gamma='scale' is 1 / (n_features · X.var()) over "
    "all entries, as scikit-learn's SVC; shifting the columns by different amounts changes "
    "X.var(), hence the width"))

#: three blobs 10 apart on a line, shrunk 1000 times and the first column moved by -100:
#: X.var() over all entries is then the columns' offset, 2,500 times the blobs' spread
_RNG = np.random.default_rng(0)
_LINE = Data(np.c_[np.repeat([0.0, 10.0, 20.0], 6), np.zeros(18)]
             + _RNG.normal(scale=0.5, size=(18, 2)), 3, "blobs")


@WIDTH_LIMIT
@names
@example(data=_LINE, c=1e-3, shifts=[-100.0, 0.0])
@given(data=blobs(), c=st.sampled_from([1e-3, 0.5, 3.0, 1e3]),
       shifts=st.lists(st.sampled_from([-100.0, 0.0, 7.0, 1e4]), min_size=4, max_size=4))
def test_per_column_shift_same_partition(name: str, data: Data, c: float,
                                         shifts: list[float]) -> None:
    """``X * c + b`` with a different shift on each column gives the same partition.

    It does not (a documented limitation): the default width reads the variance of all
    entries, column means included, and a width too wide merges the blobs (the explicit
    example fails for both estimators; others may pass)."""
    b = np.asarray(shifts[: data.X.shape[1]] + [0.0] * max(0, data.X.shape[1] - 4))
    make = ESTIMATORS[name]
    a = quiet_fit(lambda: make(data.k), data.X).labels_
    moved = quiet_fit(lambda: make(data.k), data.X * c + b).labels_
    assert same_partition(a, moved)


@names
@given(data=blobs(), e=st.integers(151, 300))
def test_values_beyond_1e150_refused(name: str, data: Data, e: int) -> None:
    """X holding values past 1e150 (whose squares overflow float64) is refused with a
    ``ValueError`` that says to rescale X, never a fit on infinities."""
    with pytest.raises(ValueError, match="Rescale X"):
        quiet_fit(lambda: ESTIMATORS[name](data.k), data.X * 10.0**e)


@names
@given(data=messy())
def test_same_random_state_same_result(name: str, data: Data) -> None:
    """Two fits with the same ``random_state`` give the same fitted model, bit for bit."""
    make = ESTIMATORS[name]
    k = _n_clusters(data)
    first = fitted_state(quiet_fit(lambda: make(k), data.X))
    second = fitted_state(quiet_fit(lambda: make(k), data.X))
    assert_same_state(first, second)


@names
@given(data=messy())
def test_outputs_well_formed(name: str, data: Data) -> None:
    """Finite outputs (labels, inertia, ``transform`` / ``predict_proba`` of the training
    rows); labels are 0 … m − 1 without gaps, m ≤ n_clusters (fewer only when there are
    fewer distinct points), no noise label."""
    make = ESTIMATORS[name]
    k = _n_clusters(data)
    model = quiet_fit(lambda: make(k), data.X)
    labels = model.labels_
    assert labels.shape == (len(data.X),)
    m = len(np.unique(labels))
    assert 1 <= m <= k
    check_labels(labels, m)
    if hasattr(model, "inertia_"):
        assert np.isfinite(model.inertia_)
    if hasattr(model, "predict_proba"):
        proba = model.predict_proba(data.X)
        assert np.isfinite(proba).all()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    else:
        dist = model.transform(data.X)
        assert np.isfinite(dist[:, :m]).all()


@names
@given(data=messy())
def test_fitted_model_ignores_later_edits(name: str, data: Data) -> None:
    """Editing the caller's ``X`` in place after ``fit`` changes nothing in the model: its
    fitted attributes and its predictions for (a copy of) the training rows."""
    assert_ignores_later_edits(lambda: ESTIMATORS[name](_n_clusters(data)), data.X)


@given(data=messy())
def test_kernel_kmeans_predict_is_labels(data: Data) -> None:
    """``KernelKMeans().fit(X).predict(X) == labels_`` (documented: ``labels_`` is the
    assignment to the final centroids)."""
    model = quiet_fit(lambda: ESTIMATORS["KernelKMeans"](_n_clusters(data)), data.X)
    np.testing.assert_array_equal(model.predict(data.X), model.labels_)


@given(data=messy())
def test_soft_kernel_kmeans_predict_is_labels(data: Data) -> None:
    """``SoftKernelKMeans().fit(X).predict(X)`` is ``labels_`` but among coinciding clusters
    (responsibilities equal to the estimator's ``COINCIDE_TOL``, 1e-4, and a
    ``ConvergenceWarning`` at fit): where they differ, the two labels have the same
    responsibility to that tolerance, so either is the argmax."""
    model = quiet_fit(lambda: ESTIMATORS["SoftKernelKMeans"](_n_clusters(data)), data.X)
    pred, proba = model.predict(data.X), model.predict_proba(data.X)
    rows = np.flatnonzero(pred != model.labels_)
    np.testing.assert_allclose(proba[rows, pred[rows]], proba[rows, model.labels_[rows]],
                               atol=1e-4)
