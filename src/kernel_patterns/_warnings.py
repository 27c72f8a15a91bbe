"""Where the library's warnings point: at the user's line that called into it.

A warning's ``stacklevel`` counted by hand points into the wrong frame as soon as a call
passes through another layer: scikit-learn's ``validate_params`` and ``_fit_context``
wrappers, ``fit_predict`` calling ``fit``, a solver called by an estimator or directly.
:func:`user_stacklevel` counts the frames instead, as pandas' ``find_stack_level`` does.
"""

from __future__ import annotations

import os
import sys
from types import FrameType

import sklearn

#: the frames of these packages are the library's (scikit-learn's wrappers included)
_INSIDE = tuple(os.path.dirname(os.path.abspath(m)) + os.sep
                for m in (__file__, sklearn.__file__))


def user_stacklevel() -> int:
    """The ``stacklevel`` for :func:`warnings.warn`, called where the warning is issued, that
    attributes it to the first calling frame outside this package and scikit-learn (the
    user's code; a worker thread's own frames when the warning is issued on one).

    Examples
    --------
    >>> import warnings
    >>> from kernel_patterns._warnings import user_stacklevel
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("here", UserWarning, stacklevel=user_stacklevel())
    >>> caught[0].filename.startswith("<doctest")
    True
    """
    frame: FrameType | None = sys._getframe(1)  # where the warning is issued
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_INSIDE):
        frame = frame.f_back
        level += 1
    return level
