"""Test-suite set-up.

``SCIPY_ARRAY_API=1`` lets scikit-learn's estimator checks run ``check_array_api_input``
(NumPy namespace) instead of skipping it; it must be set before scipy is first imported.
"""

import os
import sys
from collections.abc import Callable, Iterator

import numpy as np
import pytest

os.environ.setdefault("SCIPY_ARRAY_API", "1")


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Close the figures a test opened: pyplot keeps every figure until closed, and past 20
    open figures matplotlib warns (a RuntimeWarning, an error in this suite) in whatever
    test or doctest happens to open the next one."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


@pytest.fixture(autouse=True)
def _seed_global_rng() -> None:
    """Seed NumPy's global generator before each test (``KP_TEST_SEED``, default 0).

    Estimators built with ``random_state=None`` draw from it, as in scikit-learn; seeding it
    makes a CI run repeat the run it replaces. Run the suite with other seeds to find a test
    whose assertion holds only for some draws (the fix is a ``random_state`` in the test,
    never a different seed here)."""
    np.random.seed(int(os.environ.get("KP_TEST_SEED", "0")))  # noqa: NPY002 (the legacy global)


@pytest.fixture
def nonneg_points() -> Callable[..., np.ndarray]:
    """A maker of sparse-looking points: three clusters in ``d`` dimensions, every coordinate
    below 1 set to 0 (about half the entries), for the sparse-input tests of the clustering
    and embedding estimators. ``nonneg_points(n=150, d=12, seed=0)``."""

    def make(n: int = 150, d: int = 12, seed: int = 0) -> np.ndarray:
        rng = np.random.default_rng(seed)
        centres = rng.random((3, d)) * 4
        X = centres[np.arange(n) % 3] + rng.normal(scale=0.4, size=(n, d))
        X[X < 1.0] = 0.0
        return X

    return make
