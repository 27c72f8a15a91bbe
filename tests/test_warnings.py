"""The library's warnings point at the caller's line (``_warnings.user_stacklevel``)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kernel_patterns import GPClustering, KernelKMeans, KernelMDS, SoftKernelKMeans
from kernel_patterns._warnings import user_stacklevel
from kernel_patterns.cluster.gp import gp_landscape

UNIFORM = np.random.default_rng(0).uniform(size=(200, 2))  # GPClustering(): one cluster
THREE_POINTS = np.repeat(np.random.default_rng(0).normal(size=(3, 2)), 10, axis=0)


def _caught(call: Callable[[], Any]) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


@pytest.mark.parametrize("call", [
    lambda: GPClustering(random_state=0).fit(UNIFORM),
    lambda: GPClustering(random_state=0).fit_predict(UNIFORM),  # fit inside fit_predict
    lambda: gp_landscape(UNIFORM),  # the solver behind validate_params
    lambda: GPClustering(n_clusters=3).fit(UNIFORM[:6]),
    lambda: KernelKMeans(n_clusters=5, random_state=0).fit(THREE_POINTS),  # _fit_context
    lambda: SoftKernelKMeans(n_clusters=5, random_state=0).fit(THREE_POINTS),
    lambda: KernelMDS(n_components=5).fit(THREE_POINTS),
], ids=["fit", "fit_predict", "gp_landscape", "n_clusters", "kernel_kmeans", "soft",
        "kernel_mds"])
def test_a_warning_points_at_the_line_that_called_the_library(call) -> None:
    caught = _caught(call)
    assert caught, "the call warns"
    assert {w.filename for w in caught} == {__file__}


def test_user_stacklevel_counts_the_frames_of_the_library_only() -> None:
    # called here, outside the library: the frame that issues the warning
    assert user_stacklevel() == 1
    caught = _caught(lambda: warnings.warn("w", UserWarning, stacklevel=user_stacklevel()))
    assert caught[0].filename == __file__
