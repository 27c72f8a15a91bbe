"""One vocabulary for the approximation parameters (the user guide's table, Kernels and
operators): ``approximation``, ``n_landmarks`` and ``landmarks`` mean the same in every
estimator but the documented exceptions, and the default landmark count is one constant."""

from __future__ import annotations

import inspect

import pytest
from sklearn.base import BaseEstimator

import kernel_patterns
from kernel_patterns.kernels import DEFAULT_N_LANDMARKS, GeodesicKernel, make_operator
from kernel_patterns.utils import APPROXIMATION_PARAMETER_CONSTRAINTS

#: the deliberate exceptions of the user guide's table
EXCEPTIONS = {"GPClustering", "OnlineRanking"}


def _estimators() -> list[type]:
    return [
        obj for name in kernel_patterns.__all__
        if inspect.isclass(obj := getattr(kernel_patterns, name))
        and issubclass(obj, BaseEstimator) and name not in EXCEPTIONS
    ]


@pytest.mark.parametrize("cls", _estimators(), ids=lambda c: c.__name__)
def test_every_estimator_speaks_the_same_approximation_vocabulary(cls: type) -> None:
    params = inspect.signature(cls).parameters
    assert params["approximation"].default == "exact"
    assert params["n_landmarks"].default is None
    assert params["landmarks"].default == "uniform"
    for name in APPROXIMATION_PARAMETER_CONSTRAINTS:
        assert cls._parameter_constraints[name] == APPROXIMATION_PARAMETER_CONSTRAINTS[name]


def test_one_default_landmark_count() -> None:
    assert DEFAULT_N_LANDMARKS == 300
    assert inspect.signature(make_operator).parameters["n_components"].default is None
    assert inspect.signature(GeodesicKernel).parameters["n_landmarks"].default is None
    from kernel_patterns.distributed import nystrom_features, nystrom_kmeans

    for f in (nystrom_features, nystrom_kmeans):
        assert inspect.signature(f).parameters["n_landmarks"].default == DEFAULT_N_LANDMARKS
