"""Fitted landscapes shared by the GP tests (one fit per module that asks)."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import GPClustering, datasets
from kernel_patterns.cluster.gp import GPLandscape, gp_landscape

from .gp_data import KERNEL, rings_with_new


@pytest.fixture(scope="module")
def rings_fit() -> tuple[GPClustering, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The paper's kernel fitted on the rings, with a fresh sample to predict."""
    X, y, Xn, yn = rings_with_new()
    return GPClustering(KERNEL).fit(X), X, y, Xn, yn


@pytest.fixture(scope="module")
def rings() -> tuple[np.ndarray, np.ndarray]:
    X, y = datasets.make_rings(random_state=0)
    return datasets.scale_unit_interval(X), y


@pytest.fixture(scope="module")
def fitted(rings) -> tuple[GPClustering, GPLandscape]:
    X, _ = rings
    return GPClustering(KERNEL).fit(X), gp_landscape(X, KERNEL)
