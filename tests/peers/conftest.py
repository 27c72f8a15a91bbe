"""Fixtures the ported peer suites use, as the peers' own conftest files define them.

scikit-learn's ``global_random_seed`` (default 42, the value its CI uses unless
``SKLEARN_TESTS_GLOBAL_RANDOM_SEED`` says otherwise) and ``global_dtype`` (float64, plus
float32 when ``SKLEARN_RUN_FLOAT32_TESTS=1``; both here).
"""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def global_random_seed() -> int:
    return 42


@pytest.fixture(params=[np.float64, np.float32], ids=["float64", "float32"])
def global_dtype(request: pytest.FixtureRequest) -> type:
    return request.param  # type: ignore[no-any-return]
