"""Test-suite set-up.

``SCIPY_ARRAY_API=1`` lets scikit-learn's estimator checks run ``check_array_api_input``
(NumPy namespace) instead of skipping it; it must be set before scipy is first imported.
"""

import os
import sys
from collections.abc import Iterator

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
