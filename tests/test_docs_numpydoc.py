"""numpydoc's validation of the public API, with the settings of ``docs/conf.py``.

The Sphinx build applies ``numpydoc_validation_checks`` to the pages it writes; this test runs
the same checks, with the same exclusions, on every public name of ``docs/_api.py``'s
packages (and the public methods of the estimators), so that a docstring that no longer
matches its signature fails in the test suite, not only in ``make docs``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from numpydoc.validate import validate

DOCS = Path(__file__).resolve().parents[1] / "docs"
SETTINGS = ("_UNDOCUMENTED_PARAMETERS", "numpydoc_validation_checks",
            "numpydoc_validation_exclude")


def _conf_settings() -> dict[str, Any]:
    """The numpydoc validation assignments of docs/conf.py, evaluated on their own (the
    module itself writes the API pages when imported)."""
    tree = ast.parse((DOCS / "conf.py").read_text())
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in SETTINGS:
                found[target.id] = eval(  # our own configuration file
                    compile(ast.Expression(node.value), "conf.py", "eval"), {}, dict(found))
    assert set(found) == set(SETTINGS), f"docs/conf.py no longer sets {set(SETTINGS) - set(found)}"
    return found


def _public_names() -> Iterator[str]:
    sys.path.insert(0, str(DOCS))
    try:
        api = importlib.import_module("_api")
        for package in api.PACKAGES:
            mod = importlib.import_module(package)
            for name in api.public_names(package):
                obj = getattr(mod, name)
                if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                    continue  # constants carry a #: comment, not a docstring
                yield f"{package}.{name}"
                if inspect.isclass(obj):
                    for meth, member in vars(obj).items():
                        if not meth.startswith("_") and inspect.isfunction(member):
                            yield f"{package}.{name}.{meth}"
    finally:
        sys.path.remove(str(DOCS))


SET = _conf_settings()
NAMES = sorted(set(_public_names()))


def _excluded(name: str) -> bool:
    return any(re.search(pattern, name) for pattern in SET["numpydoc_validation_exclude"])


def test_the_settings_are_those_of_the_docs_build() -> None:
    assert SET["numpydoc_validation_checks"] >= {"PR01", "PR02"}
    assert len([n for n in NAMES if not _excluded(n)]) > 100


@pytest.mark.parametrize("name", [n for n in NAMES if not _excluded(n)])
def test_public_docstring_passes_numpydoc_validation(name: str) -> None:
    errors = [f"{code}: {msg}" for code, msg in validate(name)["errors"]
              if code in SET["numpydoc_validation_checks"]]
    assert not errors, f"{name}:\n" + "\n".join(errors)
