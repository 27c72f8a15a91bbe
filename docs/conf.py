"""Sphinx configuration of the kernel_patterns documentation.

``make docs`` runs ``sphinx-build -W --keep-going -b html docs docs/_build/html``: every
warning (a broken reference, a docstring numpydoc cannot parse, a failing gallery script) fails
the build. The API reference is generated from each public package's ``__all__`` by
``docs/_api.py`` at the start of the build, into ``docs/generated/`` (not kept in git).
"""

from __future__ import annotations

import os
import socket
import sys
import warnings
from pathlib import Path
from urllib.parse import urlparse

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # for _api

import _api  # noqa: E402

import kernel_patterns  # noqa: E402

project = "kernel_patterns"
author = "the kernel_patterns developers"
copyright = "2026, the kernel_patterns developers"
release = kernel_patterns.__version__
version = release

# No MathJax: it loads from a CDN, and these pages must read offline (equations are written
# in Unicode).
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "**/*.codeobj.json"]
root_doc = "index"
default_role = "autolink"

# -- API reference: generated from __all__ ------------------------------------------------
_api.write_api_pages(HERE / "generated")
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Undocumented or misnamed parameters are warnings, hence errors under -W.
numpydoc_validation_checks = {"PR01", "PR02"}
# Every public name passes except these, excluded by name so that every other docstring is
# held to the rule. The result dataclasses document their fields under Attributes (users read
# them, never build them; PR01 would ask for the generated __init__'s parameters);
# DenseKernelOperator has no Parameters section yet because kernels/_operator.py is at the
# 500-line module limit (it has examples).
_UNDOCUMENTED_PARAMETERS = [
    "cluster.gp.Assignment", "cluster.gp.FlowResult", "cluster.gp.GPCountTrace",
    "cluster.gp.GPHierarchy", "cluster.gp.GPLandscape", "cluster.gp.GPVarianceModel",
    "distributed.DaskFlowResult", "distributed.DaskKMeansResult", "distributed.NystromMap",
    "kernels.DenseKernelOperator",
]
numpydoc_validation_exclude = {
    r"\.__init__$", r"\.__call__$", r"\.__repr__$",
    # methods (Class.method) are not held to it yet: many document their arguments in prose
    r"\.[A-Z][A-Za-z0-9]*\.[a-z_][A-Za-z0-9_]*$",
    *(rf"^kernel_patterns\.{n.replace('.', '[.]')}$" for n in _UNDOCUMENTED_PARAMETERS),
}

# -- intersphinx ---------------------------------------------------------------------------
# Links to numpy, scipy, scikit-learn, Dask and matplotlib. Their objects.inv are fetched from
# the projects' sites when the machine can reach them; an inventory vendored as
# docs/_intersphinx/<name>.inv is used when present. Offline (KP_DOCS_OFFLINE=1, or when the
# sites do not answer) a project without a vendored inventory is left out of the mapping, so
# the build never fails on the network: references to it render as plain code.
_INVENTORIES = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "sklearn": "https://scikit-learn.org/stable/",
    "dask": "https://docs.dask.org/en/stable/",
    "distributed": "https://distributed.dask.org/en/stable/",
    "matplotlib": "https://matplotlib.org/stable/",
    "pandas": "https://pandas.pydata.org/docs/",
}


def _reachable(url: str, timeout: float = 2.0) -> bool:
    if os.environ.get("KP_DOCS_OFFLINE", "") not in ("", "0"):
        return False
    host = urlparse(url).hostname or ""
    try:
        socket.create_connection((host, 443), timeout=timeout).close()
    except OSError:
        return False
    return True


intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
intersphinx_offline: list[str] = []
for _name, _url in _INVENTORIES.items():
    _local = HERE / "_intersphinx" / f"{_name}.inv"
    if _local.exists():
        intersphinx_mapping[_name] = (_url, str(_local))
    elif _reachable(_url):
        intersphinx_mapping[_name] = (_url, None)
    else:
        intersphinx_offline.append(_name)
if intersphinx_offline:
    print("intersphinx: no inventory reachable for " + ", ".join(intersphinx_offline)
          + " (offline); their references render as plain code")
intersphinx_timeout = 5

# -- sphinx-gallery ------------------------------------------------------------------------
warnings.filterwarnings("ignore", category=UserWarning,
                        message="Matplotlib is currently using agg")
# numpydoc reports a docstring it cannot parse (an unknown section) as a Python warning, not a
# Sphinx one: make it an error so that -W's promise holds for it too.
warnings.filterwarnings("error", category=UserWarning, module=r"numpydoc\..*")
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "doc_module": ("kernel_patterns",),
    "backreferences_dir": "generated/backreferences",
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "min_reported_time": 1,
    "show_memory": False,
    "plot_gallery": "True",
}

# -- HTML ----------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"kernel_patterns {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
}
# An explicit colour mode: without one the theme's script logs a console error on a first visit
# ("Got invalid theme mode"), which the browser test (tests/test_docs_browser.py) forbids.
html_context = {"default_mode": "auto"}
html_show_sourcelink = False
html_last_updated_fmt = None

# -- references ----------------------------------------------------------------------------
# Broken cross-references are warnings (errors under -W). A name re-exported by a higher
# package (kernel_patterns.GPClustering) resolves to its one page (see _api.py). References
# into projects whose inventory is not loaded (offline) cannot be checked and are let through.
nitpicky = True
nitpick_ignore_regex = [
    # private modules and helpers are not documented: references to them render as code
    (r"py:.*", r"(.*\.)?_[a-z][A-Za-z0-9_]*(\..*)?"),
] + [
    (r"py:.*", rf"{name}(\..*)?") for name in intersphinx_offline
] + [(r"py:.*", r"(sklearn|numpy|scipy|dask|distributed|matplotlib|pandas)\..*")
     if intersphinx_offline else (r"py:none", r"^$")]


def _resolve_alias(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    canonical = _api.canonical_name(target.lstrip("~."), node.get("py:module"),
                                    node.get("py:class"))
    if canonical is None or canonical == target:
        return None
    py = env.domains["py"]
    new = node.deepcopy()
    new["reftarget"] = canonical
    return py.resolve_xref(env, node.get("refdoc", ""), app.builder, node["reftype"],
                           canonical, new, contnode)


def _constant_doc(app, what, name, obj, options, lines):
    # A public constant's page: its ``#:`` comment where it is assigned, not the docstring of
    # its type (int, str, dict); a constant cannot carry a doctest of its own, so the page
    # points to the package docstring's examples that use it.
    if what != "data" or not name.startswith("kernel_patterns."):
        return
    package, _, attr = name.rpartition(".")
    lines[:] = _api.constant_doc(package, attr)
    if f"{attr}" in (sys.modules[package].__doc__ or "").partition("Examples\n")[2]:
        lines += ["", f"The examples of :mod:`{package}` use it."]


def setup(app):
    app.connect("missing-reference", _resolve_alias)
    app.connect("autodoc-process-docstring", _constant_doc, priority=400)
