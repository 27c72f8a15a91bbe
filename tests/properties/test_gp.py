"""Basic properties of :class:`~kernel_patterns.GPClustering` on generated data
(``strategies``), on small sets (n ≤ 150: every fit flows each point down the variance).

The agreement of its views (``labels_at(level=level_)`` against ``labels_``,
``labels_at(n_clusters=k)`` against ``GPClustering(n_clusters=k)``) is tested with the
estimator, ``tests/cluster/gp``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel_patterns import GPClustering

from .helpers import (
    assert_ignores_later_edits,
    assert_same_state,
    fitted_state,
    quiet_fit,
)
from .strategies import Data, affine, blobs, check_labels, messy, same_partition

#: degenerate sets (one blob, fewer points than min_cluster_size) warn that they found one
#: cluster or only noise: the properties hold all the same
pytestmark = pytest.mark.filterwarnings("ignore:GPClustering found:UserWarning")

#: every family but scales beyond 1e±30 (see test_extreme_scale_fits)
MESSY = messy(max_n=150, wide_ok=False, min_exponent=-30, max_exponent=30)


def _gp() -> GPClustering:
    return GPClustering(random_state=0)


@given(data=blobs(max_n=150), perm_seed=st.integers(0, 1000))
def test_permuting_rows_permutes_labels(data: Data, perm_seed: int) -> None:
    """On well-separated blobs, fitting the rows in another order (``random_state`` fixed)
    gives the same partition (noise, -1, included as one more group)."""
    perm = np.random.default_rng(perm_seed).permutation(len(data.X))
    a = quiet_fit(_gp, data.X).labels_
    b = quiet_fit(_gp, data.X[perm]).labels_
    assert same_partition(a[perm], b)


@given(data=blobs(max_n=150), draw=st.data())
def test_affine_map_same_partition(data: Data, draw: st.DataObject) -> None:
    """``X * c + b`` (c > 0, b the same on every column) gives the same partition: the
    default kernel's length scale comes from the data's neighbour distances."""
    c, b = affine(draw.draw, data.X.shape[1])
    a = quiet_fit(_gp, data.X).labels_
    moved = quiet_fit(_gp, data.X * c + b).labels_
    assert same_partition(a, moved)


@given(data=MESSY)
def test_same_random_state_same_result(data: Data) -> None:
    """Two fits with the same ``random_state`` give the same fitted arrays, bit for bit."""
    first = fitted_state(quiet_fit(_gp, data.X))
    second = fitted_state(quiet_fit(_gp, data.X))
    assert_same_state(first, second)


@given(data=MESSY)
def test_outputs_well_formed(data: Data) -> None:
    """Labels are 0 … n_clusters_ − 1 without gaps, or -1 (noise); ``n_clusters_`` is the
    number of distinct non-noise labels; every cluster holds at least ``min_cluster_size``
    training points; ``predict`` of the training rows gives labels of the same kind."""
    model = quiet_fit(_gp, data.X)
    labels = model.labels_
    assert labels.shape == (len(data.X),)
    check_labels(labels, model.n_clusters_, noise=True)
    sizes = np.bincount(labels[labels >= 0], minlength=model.n_clusters_)
    assert (sizes >= model.min_cluster_size).all(), sizes
    pred = model.predict(data.X)
    assert set(np.unique(pred).tolist()) <= set(range(-1, model.n_clusters_))


@given(data=MESSY)
def test_fitted_model_ignores_later_edits(data: Data) -> None:
    """Editing the caller's ``X`` in place after ``fit`` changes neither the fitted
    attributes nor the predictions for (a copy of) the training rows."""
    assert_ignores_later_edits(_gp, data.X)


@pytest.mark.parametrize("e", [-150, -100, 100, 149])
def test_extreme_scale_fits(e: int) -> None:
    """Blobs on a line of spread 10**e fit as the same blobs at spread 1 do (the dip test's
    shape constant divided by an underflowed h**5 below ~1e-62 and overflowed above ~1e61
    before it was read in units of the spread)."""
    rng = np.random.default_rng(0)
    x = np.r_[rng.normal(0.0, 0.3, 10), rng.normal(9.0, 0.3, 10)][:, None]
    unit = quiet_fit(_gp, x).labels_
    assert same_partition(quiet_fit(_gp, x / 9.0 * 10.0**e).labels_, unit)


@given(data=blobs(max_n=150))
def test_inducing_path_agrees_with_the_exact_one(data: Data) -> None:
    """On at most 150 points (≤ 1,000), ``approximation="inducing"`` (inducing points and a
    subsample as many as the points) finds the exact method's partition: ARI ≥ 0.95."""
    from sklearn.metrics import adjusted_rand_score

    exact = quiet_fit(lambda: GPClustering(approximation="exact", random_state=0), data.X)
    inducing = quiet_fit(lambda: GPClustering(approximation="inducing", random_state=0),
                         data.X)
    assert adjusted_rand_score(exact.labels_, inducing.labels_) >= 0.95
