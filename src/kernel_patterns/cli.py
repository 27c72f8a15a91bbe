"""The ``kernel-patterns`` command.

Sub-commands register themselves in :data:`COMMANDS` (name → (help, add_arguments, run));
``run(args)`` returns an exit code. Errors in the user's input exit with code 2 and a
one-line message (the traceback only with ``--debug``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__, _progress

log = logging.getLogger("kernel_patterns")

Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
COMMANDS: dict[str, Command] = {}


def command(name: str, help: str) -> Callable[..., Any]:
    """Register ``add_arguments`` under ``name``; pair it with :func:`runner`."""

    def deco(add_arguments: Callable[[argparse.ArgumentParser], None]) -> Any:
        COMMANDS[name] = (help, add_arguments, COMMANDS.get(name, ("", None, None))[2])  # type: ignore[assignment]
        return add_arguments

    return deco


def runner(name: str) -> Callable[..., Any]:
    def deco(run: Callable[[argparse.Namespace], int]) -> Any:
        help_, add, _ = COMMANDS[name]
        COMMANDS[name] = (help_, add, run)
        return run

    return deco


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=2, sort_keys=False, default=_json_default)
            fh.write("\n")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _json_default(obj: Any) -> Any:
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


# ----------------------------------------------------------------------------- demo
@command("demo", "run every algorithm on its paper's data set; write figures and summary.json")
def _demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="demo-output", help="output folder (default: demo-output)")
    p.add_argument("--only", nargs="*", default=None, help="run only these demo steps")


@runner("demo")
def _demo_run(args: argparse.Namespace) -> int:
    from .demos import discover

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    steps = [s for s in discover() if not args.only or s.name in args.only]
    if args.only and not steps:
        raise UsageError(f"no demo step named {args.only}; have {[s.name for s in discover()]}")
    summary: dict[str, Any] = {"version": __version__, "steps": {}}
    for step in _progress.progress(steps, desc="demo", total=len(steps)):
        log.info("demo step %s", step.name)
        t0 = time.perf_counter()
        result = step.run(out)
        result["seconds"] = round(time.perf_counter() - t0, 3)
        summary["steps"][step.name] = result
        print(f"[demo] {step.name}: {result['seconds']:.1f} s", file=sys.stderr)
    write_json_atomic(out / "summary.json", summary)
    print(f"wrote {out / 'summary.json'} and {len(list(out.glob('*.png')))} figure(s) to {out}/")
    return 0


# ----------------------------------------------------------------------------- main
class UsageError(Exception):
    """Bad usage or bad input: exit code 2 with a one-line message."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernel-patterns",
        description="Find structure in data with kernels: clustering, ranking, embeddings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_, add, _) in COMMANDS.items():
        add(sub.add_parser(name, help=help_, description=help_))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``kernel-patterns``; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.quiet:
        _progress.QUIET = True
    run = COMMANDS[args.command][2]
    try:
        return int(run(args))
    except (UsageError, ValueError, TypeError, FileNotFoundError, ImportError) as exc:
        if args.debug:
            raise
        print(f"kernel-patterns {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
