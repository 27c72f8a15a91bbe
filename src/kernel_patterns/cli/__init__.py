"""The ``kernel-patterns`` command.

Layout: ``_registry`` (the sub-command table and :class:`UsageError`), one module per
sub-command that registers itself (``_cluster``, ``_rank``, ``_embed``, ``_reproduce``,
``_demo`` with its own last step ``_demo_report``), ``_common`` (the options, estimator
construction and summaries the data commands share; each command maps its ``--method`` names
to estimator classes directly), ``_io`` (reading tables), ``_roles`` (every column's role:
feature, id, label-like, constant, text; for ``_io`` and the Dask reader's ``_dask_roles``),
``_output`` (staged output folders), ``_results`` and ``_pairs`` (the clusters in the file's
units: clustered.csv, profile.csv, pairs.png, the agreement with the labels) and ``_report``
(the self-contained HTML report); files are written through
:mod:`kernel_patterns.io`. The command line sits on top: it may import every other package and
none imports it. Errors in the user's input exit with code 2 and a one-line message (the
traceback only with ``--debug``). The estimators, scikit-learn, pandas and matplotlib are
imported by the command that runs, not by ``--help``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from .. import __version__, _progress
from ..io import write_json_atomic, write_text_atomic
from . import _cluster, _demo, _embed, _rank, _reproduce  # noqa: F401  (they register)
from ._common import warning_line
from ._registry import COMMANDS, UsageError, first_line

__all__ = ["COMMANDS", "UsageError", "build_parser", "main", "write_json_atomic",
           "write_text_atomic"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="kernel-patterns",
        description="Find structure in data with kernels: clustering, ranking, embeddings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _global_flags(parser, False)
    # the same flags after the sub-command (``kernel-patterns cluster ... --quiet``)
    common = argparse.ArgumentParser(add_help=False)
    _global_flags(common, argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, cmd in COMMANDS.items():
        cmd.add_arguments(
            sub.add_parser(name, help=cmd.help, description=cmd.help, parents=[common])
        )
    return parser


def _global_flags(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("-q", "--quiet", action="store_true", default=default,
                        help="no progress bars")
    parser.add_argument("-v", "--verbose", action="store_true", default=default,
                        help="log what happens")
    parser.add_argument("--debug", action="store_true", default=default,
                        help="show tracebacks on errors")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``kernel-patterns``; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # an error, as argparse's own: the help on stderr, exit 2
        parser.print_help(sys.stderr)
        print(f"kernel-patterns: error: no command given; choose one of {', '.join(COMMANDS)}",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("kernel_patterns").setLevel(
        logging.DEBUG if args.debug else logging.INFO if args.verbose else logging.WARNING
    )
    if args.quiet:
        _progress.QUIET = True
    try:
        with warnings.catch_warnings():
            if not args.debug:  # one line each, as the command's own messages
                warnings.showwarning = _one_line_warnings(args.command)
            try:
                return int(COMMANDS[args.command].run(args))
            finally:  # the stage bar cleared before the closing line or the error
                _progress.close_stage_bars()
    except (UsageError, ValueError, OSError, ImportError) as exc:
        if args.debug:
            raise
        print(f"kernel-patterns {args.command}: error: {first_line(exc)}", file=sys.stderr)
        return 2


def _one_line_warnings(command: str) -> Any:
    """A ``warnings.showwarning`` that prints :func:`~._common.warning_line` on stderr."""

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        _progress.write(warning_line(command, message), file=sys.stderr)

    return show
