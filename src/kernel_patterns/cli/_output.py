"""Writing a command's results folder.

Outputs are staged in a temporary folder beside ``--out`` and renamed into place at the end,
so a failure leaves no partial output; an existing ``--out`` is replaced only with
``--force``. Files and the folder get the modes the user's umask gives (0644 and 0755 under
umask 022). :func:`check_output` fails early, before any reading or fitting, when ``--out``
may not be written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ._registry import UsageError


def check_output(out: str | Path, force: bool = False) -> Path:
    """Fail early (before any reading or fitting) when ``out`` may not be written."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise UsageError(f"--out '{target}' exists and is not a folder")
    if target.exists() and not force:
        raise UsageError(f"output folder '{target}' exists; pass --force to replace it")
    parent = target.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise UsageError(f"output folder '{target}' cannot be written: '{parent}' is a file")
    try:  # a probe: the folder must accept a new entry (os.access is no proof for root)
        os.rmdir(tempfile.mkdtemp(prefix=".kernel-patterns-probe.", dir=parent))
    except OSError as exc:
        raise UsageError(f"output folder '{target}' cannot be written: creating a folder in "
                         f"'{parent}' failed ({exc.strerror or type(exc).__name__})") from None
    return target


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def staged_output(out: str | Path, force: bool = False) -> Iterator[Path]:
    """Yield a temporary folder; on success it replaces ``out``, on failure it is removed.

    The folder gets mode 0o777 minus the umask, like ``mkdir``, not mkdtemp's 0o700.
    """
    target = check_output(out, force)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial",
                                    dir=target.parent))
    except OSError as exc:
        raise UsageError(f"output folder '{target}' cannot be written "
                         f"({exc.strerror or type(exc).__name__})") from None
    try:
        os.chmod(tmp, 0o777 & ~_umask())
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if target.exists():
        old = target.with_name(f".{target.name}.old-{tmp.name}")
        target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(target)
