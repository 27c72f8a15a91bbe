"""The command line: help, version, demo; bad usage exits 2 without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kernel_patterns import __version__, cli


def test_help_and_version(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "demo" in out and "kernel-patterns" in out
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert __version__ in capsys.readouterr().out


def test_no_command_prints_help_and_exits_2(capsys) -> None:
    """No command: the help and a last line naming the commands, on stderr (an error, as
    argparse's own; the fuzz found the help on stdout and nothing on stderr), exit 2."""
    assert cli.main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "usage" in captured.err
    assert captured.err.strip().splitlines()[-1].startswith(
        "kernel-patterns: error: no command given; choose one of cluster")


def test_demo_datasets_step_writes_summary_and_png(tmp_path) -> None:
    out = tmp_path / "demo"
    assert cli.main(["--quiet", "demo", "--out", str(out), "--only", "datasets"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"]["datasets"]["sizes"]["two moons"] == [104, 96]
    assert (out / "datasets.png").stat().st_size > 1000
    assert not list(out.glob("*.tmp")) and not list(out.glob("tmp*"))


def test_unknown_demo_step_is_a_usage_error(tmp_path, capsys) -> None:
    assert cli.main(["demo", "--out", str(tmp_path), "--only", "nope"]) == 2
    err = capsys.readouterr().err
    assert "error: no demo step named" in err and "Traceback" not in err


def test_installed_entry_point_runs_quietly_in_a_pipe() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "kernel_patterns.cli", "--version"],
        capture_output=True, text=True, check=False,
    )
    assert r.returncode == 0 and __version__ in r.stdout


def test_version_is_the_installed_metadata_and_python_m_is_the_console_script() -> None:
    from importlib.metadata import version

    assert __version__ == version("kernel_patterns")
    module = subprocess.run([sys.executable, "-m", "kernel_patterns", "--version"],
                            capture_output=True, text=True, check=False)
    assert module.returncode == 0
    assert module.stdout.strip() == f"kernel-patterns {version('kernel_patterns')}"
    helps = subprocess.run([sys.executable, "-m", "kernel_patterns", "--help"],
                           capture_output=True, text=True, check=False)
    assert helps.stdout.startswith("usage: kernel-patterns ")
    assert all(c in helps.stdout for c in ("cluster", "rank", "embed", "demo", "--version"))


@pytest.mark.parametrize("argv", [["--help"], ["cluster", "--help"], ["rank", "--help"],
                                  ["embed", "--help"]])
def test_help_imports_no_heavy_library(argv) -> None:
    # issue 62: every --help took 1.5 s, importing scikit-learn, pandas and matplotlib
    code = ("import runpy, sys\n"
            f"sys.argv = ['kernel-patterns', *{argv!r}]\n"
            "try:\n    runpy.run_module('kernel_patterns.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "heavy = ['sklearn', 'pandas', 'matplotlib', 'scipy', 'dask',\n"
            "         'kernel_patterns.cluster']\n"
            "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       check=False)
    assert r.stderr.strip().splitlines()[-1] == "[]", r.stderr
    assert "usage: kernel-patterns" in r.stdout
