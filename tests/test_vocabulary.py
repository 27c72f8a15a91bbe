"""One vocabulary for the approximation parameters (the user guide's table, Kernels and
operators): ``approximation``, ``n_landmarks`` and ``landmarks`` mean the same in every
estimator but the documented exceptions, and the default landmark count is one constant."""

from __future__ import annotations

import inspect

import pytest
from sklearn.base import BaseEstimator

import kernel_patterns
from kernel_patterns._fit import AUTO_APPROXIMATION_CONSTRAINTS
from kernel_patterns.kernels import DEFAULT_N_LANDMARKS, GeodesicKernel, make_operator
from kernel_patterns.utils import APPROXIMATION_PARAMETER_CONSTRAINTS

#: the deliberate exceptions of the user guide's table
EXCEPTIONS = {"GPClustering", "OnlineRanking"}
#: the dense-kernel estimators whose default is approximation="auto" (the table's first row)
AUTO = {"KernelKMeans", "SoftKernelKMeans", "KernelMDS"}


def _estimators() -> list[type]:
    return [
        obj for name in kernel_patterns.__all__
        if inspect.isclass(obj := getattr(kernel_patterns, name))
        and issubclass(obj, BaseEstimator) and name not in EXCEPTIONS
    ]


@pytest.mark.parametrize("cls", _estimators(), ids=lambda c: c.__name__)
def test_every_estimator_speaks_the_same_approximation_vocabulary(cls: type) -> None:
    params = inspect.signature(cls).parameters
    auto = cls.__name__ in AUTO
    assert params["approximation"].default == ("auto" if auto else "exact")
    assert params["n_landmarks"].default is None
    assert params["landmarks"].default == "uniform"
    constraints = AUTO_APPROXIMATION_CONSTRAINTS if auto else APPROXIMATION_PARAMETER_CONSTRAINTS
    assert set(constraints) == set(APPROXIMATION_PARAMETER_CONSTRAINTS)
    for name in constraints:
        assert cls._parameter_constraints[name] == constraints[name]


def test_auto_is_the_vocabulary_plus_auto() -> None:
    """"auto" adds one value to the approximation vocabulary and changes nothing else."""
    (plain,) = APPROXIMATION_PARAMETER_CONSTRAINTS["approximation"]
    (auto,) = AUTO_APPROXIMATION_CONSTRAINTS["approximation"]
    assert set(auto.options) == set(plain.options) | {"auto"}
    for name in ("n_landmarks", "landmarks"):
        assert AUTO_APPROXIMATION_CONSTRAINTS[name] == APPROXIMATION_PARAMETER_CONSTRAINTS[name]


def test_one_default_landmark_count() -> None:
    assert DEFAULT_N_LANDMARKS == 300
    assert inspect.signature(make_operator).parameters["n_components"].default is None
    assert inspect.signature(GeodesicKernel).parameters["n_landmarks"].default is None
    from kernel_patterns.distributed import nystrom_features, nystrom_kmeans

    for f in (nystrom_features, nystrom_kmeans):
        assert inspect.signature(f).parameters["n_landmarks"].default == DEFAULT_N_LANDMARKS
