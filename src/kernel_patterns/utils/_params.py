"""What the estimators share about their parameters: the ``_parameter_constraints`` entries of
``operator=``, ``dtype=`` and the approximation parameters, what ``kernel=`` says about
``X`` (:func:`is_precomputed`), and the storing of the constructor's arguments
(:func:`store_init_params`).

These are estimator plumbing, not kernel code: the kernel package never reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def store_init_params(estimator: Any, arguments: Mapping[str, Any]) -> None:
    """Store an estimator's constructor arguments as its attributes of the same names.

    Called as ``store_init_params(self, locals())`` first thing in ``__init__``, before any
    other local name is bound: each parameter of that ``__init__`` (``self`` aside) becomes
    the attribute of that name, unchanged, as scikit-learn requires of an estimator's
    ``__init__``. The public estimator's signature is then the one place its parameters and
    defaults are written; a shared base class declares their types for its methods and needs
    no ``__init__`` of its own. A user's subclass whose ``__init__`` calls
    ``super().__init__(...)`` and sets its own parameters works as with scikit-learn's
    estimators: what is stored is the parameters of the ``__init__`` that calls this.

    Parameters
    ----------
    estimator : object
        The estimator being constructed.
    arguments : mapping of str to object
        The ``locals()`` of its ``__init__``, read first thing: its parameters.

    Examples
    --------
    >>> from kernel_patterns.utils import store_init_params
    >>> class Estimator:
    ...     def __init__(self, alpha=1.0, *, beta="auto"):
    ...         store_init_params(self, locals())
    >>> est = Estimator(beta=2)
    >>> est.alpha, est.beta
    (1.0, 2)
    """
    for name, value in arguments.items():
        if name not in ("self", "__class__"):  # __class__: the cell super() makes a local
            setattr(estimator, name, value)
