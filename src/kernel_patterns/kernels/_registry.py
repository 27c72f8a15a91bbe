"""Resolve what a user passes as ``kernel=`` (object, name plus ``kernel_params``, callable)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._base import Kernel
from ._dot import CallableKernel, Cosine, Linear, Polynomial, Precomputed
from ._stationary import RBF, GPCovariance

#: kernel names accepted wherever a kernel is; later modules may add to it.
KERNELS: dict[str, type[Kernel]] = {
    "rbf": RBF,
    "gaussian": RBF,
    "gp": GPCovariance,
    "gp_covariance": GPCovariance,
    "linear": Linear,
    "poly": Polynomial,
    "polynomial": Polynomial,
    "cosine": Cosine,
    "precomputed": Precomputed,
}


def register_kernel(name: str, cls: type[Kernel]) -> None:
    """Make ``kernel=name`` resolve to ``cls(**kernel_params)``.

    Parameters
    ----------
    name : str
        The name, matched case-insensitively wherever ``kernel=`` is accepted.
    cls : type of Kernel
        The :class:`Kernel` subclass built as ``cls(**kernel_params)``.

    Examples
    --------
    >>> from kernel_patterns.kernels import KERNELS, RBF, make_kernel, register_kernel
    >>> register_kernel("my_rbf", RBF)
    >>> make_kernel("My_RBF", {"gamma": 0.5})
    RBF(gamma=0.5)
    >>> del KERNELS["my_rbf"]  # leave the registry as it was
    """
    KERNELS[name.lower()] = cls


def make_kernel(
    kernel: Kernel | str | Callable[..., Any] | None,
    kernel_params: dict[str, Any] | None = None,
    default: Kernel | None = None,
) -> Kernel:
    """Turn ``kernel`` (+ ``kernel_params``) into a :class:`Kernel` object.

    Parameters
    ----------
    kernel : Kernel, str, callable or None
        A kernel object is returned as is; a name (``"rbf"``, ``"gp"``, ``"linear"``,
        ``"polynomial"``, ``"cosine"``, ``"precomputed"``, ...) is built with
        ``kernel_params``; a callable ``f(X, Y, **kernel_params)`` is wrapped.
    kernel_params : dict, default=None
        Keyword arguments for a named kernel or a callable.
    default : Kernel, default=None
        What ``kernel=None`` means (error when not given).

    Examples
    --------
    >>> from kernel_patterns.kernels import make_kernel
    >>> make_kernel("rbf", {"gamma": 2.0})
    RBF(gamma=2.0)
    """
    if isinstance(kernel, Kernel):
        if kernel_params:
            raise ValueError(
                "kernel_params is only used with a kernel name or a callable; "
                "set the parameters on the kernel object instead."
            )
        return kernel
    if kernel is None:
        if default is None:
            raise ValueError("kernel must be given (a Kernel, a name or a callable).")
        return default
    if isinstance(kernel, str):
        cls = KERNELS.get(kernel.lower())
        if cls is None:
            raise ValueError(
                f"unknown kernel {kernel!r}; choose one of {sorted(KERNELS)}, a Kernel object "
                "or a callable."
            )
        try:
            return cls(**(kernel_params or {}))
        except TypeError as exc:
            raise ValueError(f"bad kernel_params for kernel {kernel!r}: {exc}") from None
    if callable(kernel):
        return CallableKernel(kernel, params=kernel_params)
    raise TypeError(
        f"kernel must be a Kernel, a string name or a callable; got {type(kernel).__name__}."
    )
