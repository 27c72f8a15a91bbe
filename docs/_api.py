"""Write the API reference's sources from the public packages' ``__all__`` (never by hand).

One page per public package (``generated/<package>.rst``), each with an autosummary table of
its names; autosummary then writes one page per name. A name that several packages export
(``GPClustering`` is in ``kernel_patterns``, ``.cluster`` and ``.cluster.gp``) gets its page
once, under the deepest package that exports it, and the other tables link there.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from pathlib import Path

PACKAGES = [
    "kernel_patterns",
    "kernel_patterns.cluster",
    "kernel_patterns.cluster.gp",
    "kernel_patterns.kernels",
    "kernel_patterns.rank",
    "kernel_patterns.embed",
    "kernel_patterns.metrics",
    "kernel_patterns.datasets",
    "kernel_patterns.plotting",
    "kernel_patterns.distributed",
    "kernel_patterns.io",
]


def public_names(package: str) -> list[str]:
    """The package's ``__all__`` without dunders and without its subpackages."""
    mod = importlib.import_module(package)
    out = []
    for name in mod.__all__:
        if name.startswith("__"):
            continue
        if isinstance(getattr(mod, name), types.ModuleType):
            continue
        out.append(name)
    return out


def canonical_homes() -> dict[int, str]:
    """id(object) -> the deepest package exporting it (its page lives there)."""
    homes: dict[int, str] = {}
    for package in PACKAGES:  # listed shallow to deep: deeper ones win
        mod = importlib.import_module(package)
        for name in public_names(package):
            obj = getattr(mod, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                homes[id(obj)] = package
    return homes


def _kind(obj: object) -> str:
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "data"


def write_api_pages(out: Path) -> list[str]:
    """Write ``out/<package>.rst`` for every package and return the page names."""
    out.mkdir(parents=True, exist_ok=True)
    homes = canonical_homes()
    _HOMES.update(homes)
    seen: dict[str, set[str]] = {}
    for package in PACKAGES:
        mod = importlib.import_module(package)
        for name in public_names(package):
            obj = getattr(mod, name)
            if id(obj) in homes:
                seen.setdefault(name, set()).add(f"{homes[id(obj)]}.{name}")
    _BY_NAME.update({n: next(iter(p)) for n, p in seen.items() if len(p) == 1})
    pages = []
    for package in PACKAGES:
        mod = importlib.import_module(package)
        title = f":mod:`{package}`"
        lines = [title, "=" * len(title), "", f".. automodule:: {package}", "   :no-members:",
                 "", f".. currentmodule:: {package}", ""]
        groups: dict[str, list[str]] = {"class": [], "function": [], "data": []}
        elsewhere: list[tuple[str, str, str]] = []
        for name in public_names(package):
            obj = getattr(mod, name)
            kind = _kind(obj)
            home = homes.get(id(obj), package) if kind != "data" else package
            if home == package:
                groups[kind].append(name)
            else:
                elsewhere.append((name, home, kind))
        headings = {"class": "Classes", "function": "Functions", "data": "Constants"}
        for kind, names in groups.items():
            if not names:
                continue
            lines += [headings[kind], "-" * len(headings[kind]), "",
                      ".. autosummary::", "   :toctree: .", "",
                      *(f"   {n}" for n in names), ""]
        submodules = [p for p in PACKAGES if p.rsplit(".", 1)[0] == package and p != package]
        if elsewhere or submodules:
            lines += ["Also here", "---------", ""]
            for name, home, kind in elsewhere:
                role = "class" if kind == "class" else "func"
                lines.append(f"- :{role}:`{name} <{home}.{name}>`, documented in "
                             f":mod:`{home}`")
            for sub in submodules:
                lines.append(f"- :mod:`{sub}`")
            lines.append("")
        page = out / f"{package}.rst"
        text = "\n".join(lines)
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
        pages.append(package)
    return pages


def _lookup(path: str) -> object | None:
    """The object a dotted path names, importing the longest module prefix; None if none."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def canonical_name(target: str, module: str | None = None,
                   cls: str | None = None) -> str | None:
    """The documented name of what ``target`` names, read as Python would from ``module``
    (and class ``cls``): ``kernel_patterns.GPClustering`` and ``GPClustering`` inside
    ``kernel_patterns.distributed`` -> ``kernel_patterns.cluster.gp.GPClustering``;
    ``predict`` inside ``SpectralClustering`` -> its method. None when it names nothing
    public of this library."""
    candidates = [target]
    if module:
        if cls:
            candidates.append(f"{module}.{cls}.{target}")
        candidates.append(f"{module}.{target}")
    if "." not in target and target in _BY_NAME:
        candidates.append(_BY_NAME[target])
    for path in candidates:
        if not path.startswith("kernel_patterns"):
            continue
        obj = _lookup(path)
        if obj is None:
            continue
        if inspect.isclass(obj) or (inspect.isfunction(obj) and "." not in obj.__qualname__):
            home = _HOMES.get(id(obj))
            if home is not None:
                return f"{home}.{obj.__name__}"
        owner_path, _, attr = path.rpartition(".")
        owner = _lookup(owner_path)
        if inspect.isclass(owner) and id(owner) in _HOMES:
            return f"{_HOMES[id(owner)]}.{owner.__name__}.{attr}"
    return None


def constant_doc(package: str, name: str) -> list[str]:
    """The ``#:`` comment of the public constant ``package.name`` where it is assigned.

    A constant is re-exported from a private module, and autodoc reads ``#:`` comments only
    from the module it documents (the package), so on its own it would print the docstring of
    the value's type (``int``, ``str``). The package's modules are searched for the
    assignment, then the shared helper modules at the root of the library (a constant that
    several packages use, e.g. ``TAIL_KURTOSIS``); [] when none carries a comment.
    """
    from sphinx.pycode import ModuleAnalyzer

    mod = importlib.import_module(package)
    submodules = pkgutil.iter_modules(getattr(mod, "__path__", []))
    root = importlib.import_module(package.partition(".")[0])
    helpers = [f"{root.__name__}.{info.name}" for info in pkgutil.iter_modules(root.__path__)
               if info.name.startswith("_")]
    sources = [package, *sorted(f"{package}.{info.name}" for info in submodules),
               *sorted(helpers)]
    for source in sources:
        try:
            docs = ModuleAnalyzer.for_module(source).find_attr_docs()
        except Exception:  # a module without source: nothing to read
            continue
        if ("", name) in docs:
            return list(docs["", name])
    return []


_HOMES: dict[int, str] = {}
#: bare public name -> its documented path, for names that only one object carries
_BY_NAME: dict[str, str] = {}
