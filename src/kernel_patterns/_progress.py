"""Progress bars on a terminal, silence in pipes (and whenever ``quiet`` is set)."""

from __future__ import annotations

import contextlib
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


class _NullBar:
    """What :func:`progress_bar` yields when no bar is drawn."""

    def update(self, n: int = 1) -> None:
        """Do nothing."""

    def set_postfix_str(self, s: str) -> None:
        """Do nothing."""

    def close(self) -> None:
        """Do nothing."""


@contextlib.contextmanager
def progress_bar(total: int, desc: str, unit: str = "it") -> Iterator[Any]:
    """A tqdm bar for a long stage (kernel build, flow, restarts) on a terminal.

    Yields an object with ``update(n)`` and ``set_postfix_str(s)``; a no-op in pipes, with
    ``--quiet``, and for stages shorter than half a second (tqdm's ``delay``).
    """
    if not progress_enabled():
        yield _NullBar()
        return
    from tqdm.auto import tqdm

    bar = tqdm(total=total, desc=desc, leave=False, delay=0.5, unit=unit)
    try:
        yield bar
    finally:
        bar.close()


def start_progress(total: int, desc: str) -> Any:
    """Like :func:`progress_bar` for a loop that is not a ``with`` block: call ``close()``."""
    if not progress_enabled():
        return _NullBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, leave=False, delay=0.5)
