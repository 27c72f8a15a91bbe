"""Progress bars on a terminal, silence in pipes (and whenever ``quiet`` is set)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

#: set by the CLI's ``--quiet``; None means "decide by whether stderr is a terminal".
QUIET: bool | None = None


def progress_enabled() -> bool:
    """True when a progress bar should be drawn: stderr is a terminal and not quiet."""
    if QUIET is not None:
        return not QUIET
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def progress(
    iterable: Iterable[T], desc: str = "", total: int | None = None, **kw: Any
) -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm bar when :func:`progress_enabled`, else return it as is."""
    if not progress_enabled():
        yield from iterable
        return
    from tqdm.auto import tqdm

    yield from tqdm(iterable, desc=desc, total=total, leave=False, **kw)
