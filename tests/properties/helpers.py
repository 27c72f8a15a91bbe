"""What the property modules share: fitting quietly and comparing fitted models."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning


def quiet_fit(make: Callable[[], Any], X: Any, *args: Any) -> Any:
    """``make().fit(X, *args)`` with the ConvergenceWarnings a degenerate data set gives
    (fewer distinct points than clusters, coinciding soft clusters) silenced: these tests
    check what the fit returns, the warnings are tested with the estimators."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return make().fit(X, *args)


def fitted_state(model: Any) -> dict[str, Any]:
    """Copies of every fitted array attribute (name ending in ``_``) of ``model``."""
    state = {}
    for name, value in vars(model).items():
        if name.endswith("_") and not name.startswith("_") and isinstance(value, np.ndarray):
            state[name] = value.copy()
    return state


def assert_same_state(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Two :func:`fitted_state` dictionaries hold the same arrays (NaN equal to NaN)."""
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def vandalise(X: np.ndarray) -> None:
    """Edit the caller's array in place, as a user may after ``fit``: every value changed."""
    X[...] = np.asarray(X)[::-1] * -2.0 + 1.0


def assert_ignores_later_edits(
    make: Callable[[], Any], X: np.ndarray, y: np.ndarray | None = None,
    output: str | None = "predict",
) -> None:
    """Editing the caller's ``X`` (and ``y``) in place after ``fit`` changes neither the
    fitted attributes nor ``output`` (a method, None: none compared) of (a copy of) the
    training rows."""
    X, keep = X.copy(), X.copy()
    args = () if y is None else (y.copy(),)
    model = quiet_fit(make, X, *args)
    before = fitted_state(model)
    out = None if output is None else getattr(model, output)(keep)
    vandalise(X)
    for target in args:
        target[:] = target[::-1]
    assert_same_state(before, fitted_state(model))
    if output is not None:
        np.testing.assert_array_equal(getattr(model, output)(keep), out)
