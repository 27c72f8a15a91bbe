"""What the estimators share about their parameters: the ``_parameter_constraints`` entries of
``operator=``, ``dtype=`` and the approximation parameters, and what ``kernel=`` says about
``X`` (:func:`is_precomputed`).

These are estimator plumbing, not kernel code: the kernel package never reads them.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from sklearn.utils._param_validation import Interval, StrOptions

from ..kernels import Precomputed

#: ``_parameter_constraints`` entries of every estimator that builds its operator with
#: :func:`~kernel_patterns.kernels.make_operator` (``operator=`` and ``dtype=`` as that
#: function accepts them).
OPERATOR_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "operator": [StrOptions({"auto", "dense", "chunked"})],
    "dtype": [StrOptions({"float64", "float32", "auto"})],
}

#: ``_parameter_constraints`` entries of every estimator that accepts a low-rank kernel
#: approximation: ``approximation=``, ``n_landmarks=`` (passed to
#: :func:`~kernel_patterns.kernels.make_operator` as its ``n_components``, the name
#: scikit-learn's ``Nystroem`` gives the landmark count) and ``landmarks=``. Every estimator
#: calls the landmark count ``n_landmarks``, so that ``n_components`` keeps scikit-learn's
#: meaning there (output dimensions, eigenvectors).
APPROXIMATION_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "approximation": [StrOptions({"exact", "nystrom"})],
    "n_landmarks": [Interval(Integral, 1, None, closed="left"), None],
    "landmarks": [StrOptions({"uniform", "kmeans++", "leverage"})],
}


def is_precomputed(kernel: Any) -> bool:
    """Whether ``kernel=`` means ``X`` is the kernel matrix itself (the estimator's
    ``pairwise`` tag: scikit-learn's cross-validation then splits ``X`` on both axes).

    Parameters
    ----------
    kernel : Kernel, str, callable or None
        What the user passed as ``kernel=``.

    Returns
    -------
    bool
        True for ``"precomputed"`` (any case) or a
        :class:`~kernel_patterns.kernels.Precomputed` object.

    Examples
    --------
    >>> from kernel_patterns.kernels import Precomputed
    >>> from kernel_patterns.utils import is_precomputed
    >>> is_precomputed("precomputed"), is_precomputed(Precomputed()), is_precomputed("rbf")
    (True, True, False)
    """
    return (isinstance(kernel, str) and kernel.lower() == "precomputed") or isinstance(
        kernel, Precomputed
    )
