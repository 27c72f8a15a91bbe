"""The shared input checks of ``kernel_patterns._validation``."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from kernel_patterns._validation import MAX_MAGNITUDE, check_magnitude


def test_values_whose_squares_overflow_are_named() -> None:
    X = np.array([[1.0, -3e200], [0.0, 2.0]])
    with pytest.raises(ValueError, match=r"^Y holds values up to 3e\+200 .*Rescale Y"):
        check_magnitude(X, "Y")
    with pytest.raises(ValueError, match=r"X holds values up to 1e\+300"):
        check_magnitude(sparse.csr_matrix(np.array([[0.0, 1e300]])), "X")
    assert X[0, 1] == -3e200  # the input is only read


@pytest.mark.parametrize("X", [
    np.array([[MAX_MAGNITUDE, -MAX_MAGNITUDE]]),  # the limit itself is accepted
    np.array([[1e-300, 0.0]]),
    np.zeros((0, 2)),
    np.array([[1, 2]]),  # integers cannot reach it
    sparse.csr_matrix((2, 2)),
])
def test_values_within_range_pass(X) -> None:
    assert check_magnitude(X, "X") is None
