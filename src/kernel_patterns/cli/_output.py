"""Writing a command's results folder.

Outputs are staged in a temporary folder beside ``--out`` and renamed into place at the end,
so a failure leaves no partial output; an existing ``--out`` is replaced only with
``--force``, and only when the tool wrote it (the marker file :data:`MARKER` inside) or it is
empty; never a folder holding the input. Files and the folder get the modes the user's
umask gives (0644 and 0755 under umask 022). :func:`check_output` fails early, before any
reading or fitting, when ``--out`` may not be written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._registry import UsageError

#: the file every results folder holds (written first, in the staging folder): ``--force``
#: replaces an existing folder only when it holds this file, so only a folder the tool wrote
MARKER = ".kernel-patterns-output"


def check_output(out: str | Path, force: bool = False,
                 inputs: Iterable[str | Path | None] = ()) -> Path:
    """Fail early (before any reading or fitting) when ``out`` may not be written; the
    folder to write (``--out .`` or ``..`` resolved, so that it has a name).

    ``--force`` replaces an existing folder only when the tool wrote it (it holds
    :data:`MARKER`) or it is empty; never a folder that holds one of ``inputs`` (the
    files the command reads)."""
    target = Path(out)
    full = target.resolve()
    if full == full.parent:
        raise UsageError(f"--out '{target}' is the root of the file system; name a new folder "
                         "for the results")
    if full.exists() and not full.is_dir():
        raise UsageError(f"--out '{target}' exists and is not a folder")
    for given in inputs:
        if given is None:
            continue
        src = Path(given).resolve()
        if full == src or full in src.parents:
            raise UsageError(f"--out '{target}' holds the input '{given}': the results would "
                             "replace it; name another folder for them")
    if full.exists() and not force:
        raise UsageError(f"output folder '{target}' exists; pass --force to replace it")
    if full.exists() and not (full / MARKER).is_file() and any(full.iterdir()):
        raise UsageError(f"--force replaces only a results folder kernel-patterns wrote; "
                         f"'{target}' is not one (it is not empty and holds no {MARKER}): "
                         "name a new folder, or empty it yourself")
    parent = full.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise UsageError(f"output folder '{target}' cannot be written: '{parent}' is a file")
    try:  # a probe: the folder must accept a new entry (os.access is no proof for root)
        os.rmdir(tempfile.mkdtemp(prefix=".kernel-patterns-probe.", dir=parent))
    except OSError as exc:
        raise UsageError(f"output folder '{target}' cannot be written: creating a folder in "
                         f"'{parent}' failed ({exc.strerror or type(exc).__name__})") from None
    return target if target.name not in ("", ".", "..") else full


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
        raise UsageError(f"output folder '{out}' cannot be written "
                         f"({exc.strerror or type(exc).__name__})") from None
    try:
        os.chmod(tmp, 0o777 & ~_umask())
        (tmp / MARKER).write_text("Written by kernel-patterns: --force may replace this "
                                  "folder.\n")
        yield tmp
        _commit(tmp, target, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _commit(tmp: Path, target: Path, out: str | Path) -> None:
    """Rename the staging folder ``tmp`` to ``target``, the folder it replaces (if any) moved
    aside first and removed after (into an empty ``target``, move its files); an error is a
    UsageError and leaves ``target`` as it was."""
    old = target.with_name(f".{target.name}.old-{tmp.name}")
    try:
        if target.is_dir() and not any(target.iterdir()):
            # an empty folder (perhaps the shell's current one, --out .) is kept: the
            # results are moved into it
            for entry in tmp.iterdir():
                entry.rename(target / entry.name)
            tmp.rmdir()
            return
        if target.exists():
            target.rename(old)
        tmp.rename(target)
    except OSError as exc:
        if old.exists() and not target.exists():
            old.rename(target)
        raise UsageError(f"output folder '{out}' could not be put in place "
                         f"({exc.strerror or type(exc).__name__})") from None
    shutil.rmtree(old, ignore_errors=True)
