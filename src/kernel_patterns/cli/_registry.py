"""Sub-command registry: name -> (arguments, run), and the usage error every command raises."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass


class UsageError(Exception):
    """Bad usage or bad input: exit code 2 with a one-line message."""


def first_line(exc: BaseException) -> str:
    """The first line of what went wrong: of the error's message (of the pandas error's,
    when Dask wraps it with its ``Original Message``), else the error's type."""
    text = str(exc).split("Original Message:", 1)[-1].strip()
    return text.splitlines()[0] if text else type(exc).__name__


@dataclass
class Command:
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {}


def register(
    name: str,
    help: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    run: Callable[[argparse.Namespace], int],
) -> None:
    """Add the sub-command ``name``: ``add_arguments(parser)`` and ``run(args) -> exit code``."""
    COMMANDS[name] = Command(help, add_arguments, run)
