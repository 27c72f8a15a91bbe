"""The kernel registry is read when an estimator is fitted, not when its class is defined: a
kernel added with ``register_kernel`` is accepted by every public estimator."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import kernel_patterns
from kernel_patterns.kernels import KERNELS, RBF, register_kernel


class _TestRBF(RBF):
    """An RBF under another class, so the fitted kernel shows which one was built."""


def _estimators() -> list[type]:
    return [
        obj for name in kernel_patterns.__all__
        if inspect.isclass(obj := getattr(kernel_patterns, name))
        and issubclass(obj, BaseEstimator)
    ]


@pytest.fixture
def registered() -> Iterator[str]:
    """A kernel name registered after every estimator class was imported."""
    register_kernel("test_rbf_late", _TestRBF)
    try:
        yield "Test_RBF_Late"  # names are matched case-insensitively
    finally:
        del KERNELS["test_rbf_late"]


@pytest.mark.parametrize("cls", _estimators(), ids=lambda c: c.__name__)
def test_registered_kernel_accepted_by_every_estimator(cls: type, registered: str) -> None:
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.3, (15, 2)), rng.normal(3, 0.3, (15, 2))])
    y = np.repeat([1, 2], 15)
    params = {"kernel": registered, "kernel_params": {"gamma": 0.5}}
    if "n_clusters" in inspect.signature(cls).parameters:
        params["n_clusters"] = 2
    est = cls(**params)
    est.fit(X, y)
    if hasattr(est, "kernel_"):
        assert isinstance(est.kernel_, _TestRBF)


def test_unregistered_name_is_refused_at_fit() -> None:
    est = kernel_patterns.NuRanking(kernel="test_rbf_late")
    with pytest.raises(ValueError, match="unknown kernel 'test_rbf_late'"):
        est.fit(np.arange(10.0)[:, None], np.repeat([1, 2], 5))
