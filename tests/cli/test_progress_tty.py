"""Progress on a terminal (issue 62): a run attached to a pseudo-terminal shows its stages on
stderr once it lasts longer than the delay; ``-q`` and a pipe show none."""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")

SRC = Path(__file__).resolve().parents[2] / "src"


def _env() -> dict[str, str]:
    # a short delay so that a run of about a second is "long" (the default is 2 s)
    path = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1",
                KERNEL_PATTERNS_PROGRESS_DELAY="0.2", TERM="xterm")


def _cli(*args: str, tty: bool) -> tuple[int, str]:
    """Run the command with stdout and stderr on a pseudo-terminal (``tty``: what the
    terminal shows, both) or pipes (stderr)."""
    cmd = [sys.executable, "-m", "kernel_patterns.cli", *args]
    if not tty:
        r = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=300,
                           check=False)
        return r.returncode, r.stderr
    master, slave = os.openpty()
    # a terminal 100 columns wide (a new pseudo-terminal has none: tqdm would draw nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(cmd, env=_env(), stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=300), b"".join(chunks).decode(errors="replace")


@pytest.fixture(scope="module")
def blobs_csv(tmp_path_factory) -> Path:
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(150, 2)), rng.normal(size=(150, 2)) + 5]
    path = tmp_path_factory.mktemp("tty") / "blobs.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(path, index=False)
    return path


def test_a_run_on_a_terminal_shows_its_stages(blobs_csv, tmp_path) -> None:
    code, err = _cli("cluster", str(blobs_csv), "--out", str(tmp_path / "o"), tty=True)
    assert code == 0, err
    assert re.search(r"kernel-patterns cluster: \w+: \d/4 stages", err), err
    assert re.search(r"\r(?!\n)", err)  # a bar redrawn in place
    # the closing line is written above the bar, never after it on its line
    at = err.index("gp (the default method): 2 clusters")
    assert err[at - 1] in "\r\n", repr(err[max(0, at - 80):at + 20])


def test_quiet_or_a_pipe_shows_no_bar(blobs_csv, tmp_path) -> None:
    code, err = _cli("-q", "cluster", str(blobs_csv), "--out", str(tmp_path / "q"), tty=True)
    assert code == 0, err
    # no bar, and no line redrawn in place (the terminal ends each line with "\r\n")
    assert not re.search(r"\d/4 stages", err) and not re.search(r"\r(?!\n)", err), err
    code, err = _cli("cluster", str(blobs_csv), "--out", str(tmp_path / "p"), tty=False)
    assert code == 0, err
    assert not re.search(r"\d/4 stages", err) and "\r" not in err, err
