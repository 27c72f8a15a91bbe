"""scikit-learn's estimator checks over every public estimator, discovered automatically.

An estimator is any class in ``kernel_patterns.__all__`` that subclasses
``sklearn.base.BaseEstimator``. Conventions for estimator authors:

* ``_sk_check_instances()`` (classmethod, optional): the instances to check (default ``cls()``).
* ``_sk_expected_failed_checks`` (class attribute, optional): ``{check name: reason}`` for
  checks that cannot pass by design; each needs a reason.
"""

from __future__ import annotations

import inspect

import pytest
from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import parametrize_with_checks

import kernel_patterns


def discover_estimators() -> list[type]:
    found = []
    for name in kernel_patterns.__all__:
        obj = getattr(kernel_patterns, name)
        if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            found.append(obj)
    return found


def _instances() -> list[BaseEstimator]:
    out = []
    for cls in discover_estimators():
        make = getattr(cls, "_sk_check_instances", None)
        out.extend(make() if make is not None else [cls()])
    return out


def _expected(est: BaseEstimator) -> dict[str, str]:
    failed = dict(getattr(est, "_sk_expected_failed_checks", {}))
    for check, reason in failed.items():
        assert reason, f"{type(est).__name__}: expected failure of {check} needs a reason"
    return failed


def test_every_public_estimator_is_discovered() -> None:
    names = {cls.__name__ for cls in discover_estimators()}
    public = {
        n for n in kernel_patterns.__all__
        if inspect.isclass(getattr(kernel_patterns, n))
        and hasattr(getattr(kernel_patterns, n), "fit")
    }
    assert public <= names


_ESTIMATORS = _instances()

if _ESTIMATORS:

    @parametrize_with_checks(_ESTIMATORS, expected_failed_checks=_expected)
    def test_sklearn_compatible(estimator: BaseEstimator, check) -> None:  # type: ignore[no-untyped-def]
        check(estimator)
else:  # the foundation lands before the first estimator

    def test_sklearn_compatible() -> None:
        pytest.skip("no public estimator yet")
