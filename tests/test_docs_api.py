"""The API reference (docs/_api.py): every public name has a page worth reading.

Issue 19: every public function and class has a runnable ``Examples`` section (they run as
doctests in ``make test``); a public constant cannot carry a doctest, so its page shows its
``#:`` comment and its package docstring's examples use it.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def api() -> Iterator[ModuleType]:
    sys.path.insert(0, str(DOCS))
    try:
        yield importlib.import_module("_api")
    finally:
        sys.path.remove(str(DOCS))


def _public(api: ModuleType) -> Iterator[tuple[str, str, object]]:
    for package in api.PACKAGES:
        mod = importlib.import_module(package)
        for name in api.public_names(package):
            yield package, name, getattr(mod, name)


def test_every_public_function_and_class_has_an_examples_section(api: ModuleType) -> None:
    names = [(p, n, o) for p, n, o in _public(api) if inspect.isclass(o) or callable(o)]
    assert len(names) > 100
    missing = [f"{p}.{n}" for p, n, o in names
               if "\nExamples\n--------\n" not in inspect.cleandoc(o.__doc__ or "")]
    assert not missing, f"no Examples section: {missing}"


def test_every_public_constant_has_a_description_and_an_example(api: ModuleType) -> None:
    constants = [(p, n) for p, n, o in _public(api)
                 if not (inspect.isclass(o) or callable(o))]
    assert len(constants) >= 6  # the estimators' parameter constraints live in utils
    undocumented = [f"{p}.{n}" for p, n in constants
                    if not any(line.strip() for line in api.constant_doc(p, n))]
    assert not undocumented, f"no #: comment: {undocumented}"
    unused = [f"{p}.{n}" for p, n in constants
              if n not in (sys.modules[p].__doc__ or "").partition("Examples\n")[2]]
    assert not unused, f"not in the package docstring's examples: {unused}"


def test_a_constant_page_reads_its_comment_not_its_type(api: ModuleType) -> None:
    lines = api.constant_doc("kernel_patterns.kernels", "DEFAULT_BLOCK_MEMORY")
    assert lines[0].startswith("default bytes of kernel rows a chunked operator holds")
    assert api.constant_doc("kernel_patterns.kernels", "no_such_constant") == []
