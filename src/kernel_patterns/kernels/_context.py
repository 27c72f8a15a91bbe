"""The operator-backend context: who may build the kernel operator instead of
:func:`make_operator` (e.g. ``kernel_patterns.distributed.dask_backend``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._operator_base import KernelOperator

#: A backend that may build the operator instead (``kernel_patterns.distributed.dask_backend``
#: sets it through :func:`use_operator_backend`): called with make_operator's arguments, it
#: returns an operator or None (not mine).
_OPERATOR_BACKEND: ContextVar[Callable[..., KernelOperator | None] | None] = ContextVar(
    "kernel_patterns_operator_backend", default=None
)


def operator_backend() -> Callable[..., KernelOperator | None] | None:
    """The operator factory :func:`make_operator` asks first in this context, or None.

    Examples
    --------
    >>> from kernel_patterns.kernels import operator_backend
    >>> operator_backend() is None
    True
    """
    return _OPERATOR_BACKEND.get()


@contextmanager
def use_operator_backend(factory: Callable[..., KernelOperator | None]) -> Iterator[None]:
    """Within the block, :func:`make_operator` first calls ``factory`` with its arguments.

    ``factory`` returns a :class:`KernelOperator` to use instead (e.g. one whose row blocks live
    on Dask workers, :func:`kernel_patterns.distributed.dask_backend`) or None to let
    :func:`make_operator` build its own. Contexts nest and are restored on exit.

    Parameters
    ----------
    factory : callable
        Called with :func:`make_operator`'s arguments; returns an operator or None.

    Examples
    --------
    >>> from kernel_patterns.kernels import operator_backend, use_operator_backend
    >>> with use_operator_backend(lambda *args, **kwargs: None):
    ...     operator_backend() is not None
    True
    """
    token = _OPERATOR_BACKEND.set(factory)
    try:
        yield
    finally:
        _OPERATOR_BACKEND.reset(token)
