"""Lazy matplotlib for every package that draws (plotting/, the result objects' ``.plot``).

matplotlib is a core dependency (the command line draws figures), imported only when a figure
is drawn, with the headless Agg backend when no display is set, so ``import kernel_patterns``
stays quick.
"""

from __future__ import annotations

import os
from typing import Any


def pyplot() -> Any:
    """Import matplotlib lazily with a headless backend when no display is set."""
    import matplotlib

    if not os.environ.get("DISPLAY") and "MPLBACKEND" not in os.environ:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def axes(ax: Any, projection: str | None = None) -> Any:
    """``ax``, or the axes of a new 5.5 × 4.5 in figure when ``ax`` is None."""
    if ax is not None:
        return ax
    fig = pyplot().figure(figsize=(5.5, 4.5))
    return fig.add_subplot(projection=projection)
