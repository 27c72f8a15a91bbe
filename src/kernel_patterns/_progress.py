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


#: seconds a run lasts before its stage bar is drawn (``KERNEL_PATTERNS_PROGRESS_DELAY``)
STAGE_DELAY = 2.0


class StageBar:
    """A bar over a command's named stages (reading, scaling, fitting, figures) on stderr.

    It is drawn only once the run has lasted ``delay`` seconds, and a daemon thread refreshes
    it twice a second, so its elapsed time moves during a long stage (a fit that reports
    nothing). Use :func:`stage_bar`, which gives a no-op in pipes and with ``--quiet``.
    """

    def __init__(self, total: int | None, desc: str, delay: float) -> None:
        import threading
        import time

        from tqdm.auto import tqdm

        self.desc = desc
        self._bar = tqdm(total=total, desc=desc, leave=False, delay=delay, unit="stage",
                         bar_format="{desc}: {n_fmt}/{total_fmt} stages [{elapsed}]"
                         if total else "{desc} [{elapsed}]")
        self._delay = delay
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()
        _LIVE.append(self)

    def shown(self) -> bool:
        """Whether the bar is drawn: the run has lasted its delay."""
        import time

        return time.monotonic() - self._start >= self._delay

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            if self.shown():
                self._bar.refresh()

    def stage(self, name: str) -> None:
        """Name the stage now running."""
        self._bar.set_description_str(f"{self.desc}: {name}", refresh=False)

    def update(self, n: int = 1) -> None:
        """``n`` more stages done."""
        self._bar.update(n)

    def close(self) -> None:
        """Stop refreshing and clear the bar (again: nothing)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join(timeout=1.0)
        if self.shown():  # tqdm clears only a bar its own updates drew, not the ticker's
            self._bar.clear()
        self._bar.close()
        if self in _LIVE:
            _LIVE.remove(self)


#: stage bars not closed yet (:func:`close_stage_bars`)
_LIVE: list[StageBar] = []


def write(text: str, file: Any = None) -> None:
    """Print ``text`` as a line on ``file`` (default stdout); while a stage bar is drawn, above
    it (tqdm clears the bar, prints, and draws the bar again below), so that a note, a warning
    or a result never runs into the bar's line.

    Examples
    --------
    >>> from kernel_patterns import _progress
    >>> _progress.write("3 clusters")
    3 clusters
    """
    out = sys.stdout if file is None else file
    shown = [bar for bar in _LIVE if bar.shown()]
    if shown:  # (tqdm.write would draw a bar still inside its delay)
        type(shown[0]._bar).write(text, file=out)
    else:
        print(text, file=out)


def close_stage_bars() -> None:
    """Close every stage bar still drawn: the command line calls it when a command ends, so
    its last line or error is printed on a clean terminal.

    Examples
    --------
    >>> from kernel_patterns import _progress
    >>> _progress.close_stage_bars()  # none open: nothing to do
    >>> _progress._LIVE
    []
    """
    for bar in list(_LIVE):
        bar.close()


class _NullStages(_NullBar):
    def stage(self, name: str) -> None:
        """Do nothing."""


def stage_bar(total: int | None, desc: str) -> Any:
    """A :class:`StageBar` when :func:`progress_enabled` (a terminal, not quiet), else a no-op
    with the same methods; drawn after :data:`STAGE_DELAY` seconds (the environment variable
    ``KERNEL_PATTERNS_PROGRESS_DELAY`` overrides it).

    Examples
    --------
    >>> from kernel_patterns import _progress
    >>> bar = _progress.stage_bar(3, "kernel-patterns cluster")  # a pipe here: a no-op
    >>> bar.stage("fit"); bar.update(1); bar.close()
    """
    if not progress_enabled():
        return _NullStages()
    import os

    delay = float(os.environ.get("KERNEL_PATTERNS_PROGRESS_DELAY", STAGE_DELAY))
    return StageBar(total, desc, delay)
