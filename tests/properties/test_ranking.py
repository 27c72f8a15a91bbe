"""Properties of :class:`~kernel_patterns.NuRanking` and :class:`~kernel_patterns.OnlineRanking`
on generated ordinal data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel_patterns import NuRanking, OnlineRanking

from .helpers import (
    assert_ignores_later_edits,
    assert_same_state,
    fitted_state,
    quiet_fit,
)
from .strategies import Data, affine, messy, seeds

ESTIMATORS: dict[str, Callable[[], Any]] = {
    "NuRanking": lambda: NuRanking(random_state=0),
    "NuRanking-nu0.2": lambda: NuRanking(nu=0.2, random_state=0),
    "OnlineRanking": lambda: OnlineRanking(random_state=0),
}
names = pytest.mark.parametrize("name", sorted(ESTIMATORS))


@st.composite
def ordinal(draw: st.DrawFn, max_n: int = 50) -> tuple[Data, np.ndarray]:
    """Messy X (see ``strategies.messy``) with 2 to 4 ranks cut from a latent score (its first
    column plus noise), every rank present."""
    data = draw(messy(max_n=max_n, wide_ok=False))
    X = data.X
    n_ranks = draw(st.integers(2, min(4, len(X) // 2)))
    score = X[:, 0].astype(np.float64)
    order = np.argsort(score, kind="stable")
    y = np.empty(len(X), dtype=np.int64)
    y[order] = np.arange(len(X)) * n_ranks // len(X) + 1  # equal-count ranks 1 … n_ranks
    return data, y


@st.composite
def ordinal_separated(draw: st.DrawFn, max_per: int = 12) -> tuple[Data, np.ndarray]:
    """2 to 4 ranks as groups 10 apart along the first column (noise 0.5, other columns
    noise): the ranking is clear, so that it may not move with the rows' order or units."""
    rng = np.random.default_rng(draw(seeds))
    n_ranks = draw(st.integers(2, 4))
    per = draw(st.integers(4, max_per))
    d = draw(st.integers(1, 3))
    y = np.repeat(np.arange(1, n_ranks + 1), per)
    X = rng.normal(scale=0.5, size=(len(y), d))
    X[:, 0] += 10.0 * y
    return Data(X, n_ranks, "ordinal"), y


@names
@given(case=ordinal())
def test_predictions_are_training_ranks(name: str, case: tuple[Data, np.ndarray]) -> None:
    """Predictions (of the training rows and of new points) are among the training ranks,
    and the decision function is finite."""
    data, y = case
    model = quiet_fit(ESTIMATORS[name], data.X, y)
    ranks = set(np.unique(y).tolist())
    assert set(np.unique(model.predict(data.X)).tolist()) <= ranks
    far = np.full((2, data.X.shape[1]), 3.0) * np.abs(data.X).max(axis=0)
    assert set(np.unique(model.predict(far.astype(data.X.dtype))).tolist()) <= ranks
    assert np.isfinite(model.decision_function(data.X)).all()


@names
@given(case=ordinal(), how=st.sampled_from(["affine", "power", "text"]))
def test_monotone_relabelling_relabels_predictions(name: str, case: tuple[Data, np.ndarray],
                                                   how: str) -> None:
    """Ranks renamed by an increasing map (``10 y + 3``, ``2**y``, or text in an ordered
    categorical, in the ranks' order) give the same predictions, renamed by the same map."""
    data, y = case
    rename: dict[str, Callable[[Any], Any]] = {
        "affine": lambda r: 10 * r + 3, "power": lambda r: 2.0**r,
        "text": lambda r: f"rank{int(r):03d}"}
    f = rename[how]
    y2: Any = np.array([f(r) for r in y])
    if how == "text":  # text has no rank order of its own: an ordered categorical gives it
        y2 = pd.Categorical(y2, categories=sorted(set(y2.tolist())), ordered=True)
    a = quiet_fit(ESTIMATORS[name], data.X, y).predict(data.X)
    b = quiet_fit(ESTIMATORS[name], data.X, y2).predict(data.X)
    np.testing.assert_array_equal(b, np.array([f(r) for r in a]))


@pytest.mark.parametrize("name", ["NuRanking-nu0.2"])
@given(case=ordinal_separated(), perm_seed=st.integers(0, 1000))
def test_permuting_rows_permutes_predictions(name: str, case: tuple[Data, np.ndarray],
                                             perm_seed: int) -> None:
    """On clearly ranked data, with ν given, fitting the rows in another order gives the same
    predictions of the training points (a convex QP: its f is unique). Not for ``nu="auto"`` (the
    cross-validation folds follow the row order) nor OnlineRanking (a perceptron, whose
    result depends on the order it visits the examples in, by design)."""
    data, y = case
    perm = np.random.default_rng(perm_seed).permutation(len(y))
    a = quiet_fit(ESTIMATORS[name], data.X, y).predict(data.X)
    b = quiet_fit(ESTIMATORS[name], data.X[perm], y[perm]).predict(data.X)
    np.testing.assert_array_equal(a, b)


@names
@given(case=ordinal_separated(), draw=st.data())
def test_affine_map_same_predictions(name: str, case: tuple[Data, np.ndarray],
                                     draw: st.DataObject) -> None:
    """On clearly ranked data, ``X * c + b`` (c > 0, b the same on every column) gives the
    same predictions: the
    default RBF width (``gamma="scale"``) follows the data and the RBF ignores shifts."""
    data, y = case
    c, b = affine(draw.draw, data.X.shape[1])
    a = quiet_fit(ESTIMATORS[name], data.X, y).predict(data.X)
    Xm = data.X * c + b
    moved = quiet_fit(ESTIMATORS[name], Xm, y).predict(Xm)
    np.testing.assert_array_equal(a, moved)


@names
@given(case=ordinal())
def test_same_random_state_same_result(name: str, case: tuple[Data, np.ndarray]) -> None:
    """Two fits with the same ``random_state`` give the same fitted model, bit for bit."""
    data, y = case
    first = fitted_state(quiet_fit(ESTIMATORS[name], data.X, y))
    second = fitted_state(quiet_fit(ESTIMATORS[name], data.X, y))
    assert_same_state(first, second)


@names
@given(case=ordinal())
def test_fitted_model_ignores_later_edits(name: str, case: tuple[Data, np.ndarray]) -> None:
    """Editing the caller's ``X`` and ``y`` in place after ``fit`` changes neither the fitted
    attributes nor the predictions for (a copy of) the training rows."""
    data, y = case
    assert_ignores_later_edits(ESTIMATORS[name], data.X, y)
