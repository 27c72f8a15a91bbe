"""The architecture rules of DESIGN.md, checked on the source: imports run downward only, no
package reaches into another's private parts, no import cycles, modules stay small.

Every ``import`` statement counts, at module level or inside a function (imports under
``if TYPE_CHECKING:`` are annotations, not imports, and are skipped). The root-level private
modules (``kernel_patterns._validation``, ``_eigen``, ``_graph``, ``_lowrank``, ``_progress``,
``_parallel``, ``_mpl``, ``_fit``, ...) and the internal ``kernel_patterns.utils`` package are
the shared helper layer every package may use, as ``sklearn.utils`` is in scikit-learn: any
package may import them, private modules included. ``utils`` sits above ``kernels``: it uses
the kernel package's public names only (the plumbing the operators are built on is public in
``kernels.plumbing``), and ``kernels`` never imports ``utils``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "kernel_patterns"
MAX_LINES = 500
#: the shared helper layer: the root's private modules and the internal utils package
SHARED = {"root", "utils"}

#: package -> packages it must never import (DESIGN.md: cli -> experiments/demos ->
#: plotting/distributed -> estimators -> solvers -> kernels -> numpy/scipy)
FORBIDDEN = {
    "kernels": {"utils", "cluster", "rank", "embed", "distributed", "plotting", "cli",
                "experiments", "demos"},
    "utils": {"cluster", "rank", "embed", "distributed", "plotting", "cli", "experiments",
              "demos"},
    "cluster": {"rank", "embed", "distributed", "plotting", "cli", "experiments", "demos"},
    "rank": {"cluster", "embed", "distributed", "plotting", "cli", "experiments", "demos"},
    "embed": {"cluster", "rank", "distributed", "plotting", "cli", "experiments", "demos"},
    "distributed": {"plotting", "cli", "experiments", "demos"},
    "plotting": {"distributed", "cli", "experiments", "demos"},
    "experiments": {"cli", "demos"},
    "demos": {"cli", "experiments"},
    "root": {"cli", "experiments", "demos", "distributed"},
}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: list[tuple[str, str | None, int]] = field(default_factory=list)
    attributes: list[tuple[str, str, int]] = field(default_factory=list)


def _module_name(path: Path, src: Path = SRC) -> tuple[str, bool]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _collect() -> dict[str, Module]:
    return _collect_at(SRC)


def _collect_at(src: Path) -> dict[str, Module]:
    modules = {}
    for path in sorted((src / ROOT).rglob("*.py")):
        name, is_pkg = _module_name(path, src)
        modules[name] = Module(name, path, is_pkg)
    for mod in modules.values():
        _parse(mod, modules)
    return modules


class _Visitor(ast.NodeVisitor):
    def __init__(self, mod: Module, modules: dict[str, Module]) -> None:
        self.mod, self.modules = mod, modules
        self.bound: dict[str, str] = {}  # local name -> kernel_patterns module it names

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == ROOT:
                self.mod.imports.append((alias.name, None, node.lineno))
                if alias.asname:
                    self.bound[alias.asname] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.mod.name.split(".")
            if not self.mod.is_package:
                base = base[:-1]
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if target.split(".")[0] != ROOT:
            return
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            if sub in self.modules:  # a submodule imported by name
                self.mod.imports.append((sub, None, node.lineno))
                self.bound[alias.asname or alias.name] = sub
            else:
                self.mod.imports.append((target, alias.name, node.lineno))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            chain.append(cur.attr)
            cur = cur.value
        if isinstance(cur, ast.Name) and cur.id in self.bound:
            target = self.bound[cur.id]
            for attr in reversed(chain):
                self.mod.attributes.append((target, attr, node.lineno))
                if f"{target}.{attr}" not in self.modules:
                    break
                target = f"{target}.{attr}"  # a submodule reached by attribute
        self.generic_visit(node)


def _parse(mod: Module, modules: dict[str, Module]) -> None:
    _Visitor(mod, modules).visit(ast.parse(mod.path.read_text(), str(mod.path)))


def _package(name: str, modules: dict[str, Module]) -> str:
    parts = name.split(".")
    if len(parts) == 1:
        return "root"
    if parts[1] == "__main__":  # ``python -m kernel_patterns``: an entry point like the
        return "entry point"    # console script, above every layer (it runs the CLI)
    top = f"{ROOT}.{parts[1]}"
    return parts[1] if modules[top].is_package else "root"


def _private_below(target: str, package: str) -> bool:
    """Whether ``target`` is a private module of ``package`` (an underscore below it)."""
    parts = target.split(".")[2:]
    return any(p.startswith("_") for p in parts)


@pytest.fixture(scope="module")
def modules() -> dict[str, Module]:
    return _collect()


def _private_offenders(modules: dict[str, Module]) -> list[str]:
    offenders = []
    for mod in modules.values():
        here = _package(mod.name, modules)
        uses = [(t, n, line) for t, n, line in mod.imports]
        uses += [(t, a, line) for t, a, line in mod.attributes]
        for target, name, line in uses:
            there = _package(target, modules)
            if there == here or there in SHARED:
                continue  # own package, or the shared helpers (root, utils)
            private_name = name is not None and name.startswith("_") and not (
                name.startswith("__") and name.endswith("__"))
            if _private_below(target, there) or private_name:
                what = target + (f".{name}" if name else "")
                offenders.append(f"{mod.path.name}:{line} uses {what}")
    return offenders


def _cycles(modules: dict[str, Module]) -> list[str]:
    graph: dict[str, set[str]] = defaultdict(set)
    for mod in modules.values():
        for target, _, _ in mod.imports:
            if target in modules and target != mod.name:
                graph[mod.name].add(target)
    cycles = []
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*stack[stack.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name)
    return cycles


def _layering_offenders(modules: dict[str, Module]) -> list[str]:
    offenders = []
    for mod in modules.values():
        here = _package(mod.name, modules)
        for target, name, line in mod.imports:
            there = _package(target, modules)
            if there == "root" and name is not None and f"{ROOT}.{name}" in modules:
                there = _package(f"{ROOT}.{name}", modules)
            if there in FORBIDDEN.get(here, set()):
                offenders.append(f"{mod.path.name}:{line} ({here}) imports "
                                 f"{target}{'.' + name if name else ''} ({there})")
    return offenders


#: the rules: what each finds on the source, and how its report starts
RULES = {
    "no package imports another package's private names": (
        _private_offenders, "private names used across packages"),
    "no import cycles": (_cycles, "import cycles"),
    "imports run downward": (_layering_offenders, "imports against the layering"),
}


@pytest.mark.parametrize("rule", RULES)
def test_the_source_keeps_the_rule(rule: str, modules) -> None:
    find, what = RULES[rule]
    offenders = find(modules)
    assert not offenders, f"{what}:\n" + "\n".join(offenders)


def test_modules_stay_under_the_size_limit(modules) -> None:
    big = {str(m.path.relative_to(SRC)): n for m in modules.values()
           if (n := len(m.path.read_text().splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_the_checker_sees_what_it_must(modules) -> None:
    # the rules above are only as good as the parser: it must resolve relative imports,
    # submodules imported by name and attribute access through an imported module
    gp = modules[f"{ROOT}.cluster.gp._solver"]
    assert (f"{ROOT}.kernels", "Kernel") in {(t, n) for t, n, _ in gp.imports}
    cli = modules[f"{ROOT}.cli._cluster"]
    assert f"{ROOT}.cli._common" in {t for t, _, _ in cli.imports}
    assert _package(f"{ROOT}.cluster.gp._solver", modules) == "cluster"
    assert _package(f"{ROOT}._validation", modules) == "root"
    assert _private_below(f"{ROOT}.kernels._nystrom", "kernels")
    assert not _private_below(f"{ROOT}.cluster.gp", "cluster")


def test_the_checker_finds_planted_violations(tmp_path) -> None:
    # a throw-away copy of two modules that break every rule must be reported
    pkg = tmp_path / ROOT
    for sub in ("kernels", "cluster"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels" / "_a.py").write_text("def f():\n    from ..cluster import _b\n")
    (pkg / "cluster" / "_b.py").write_text(
        "from ..kernels._a import f\nfrom .. import kernels\n\nx = kernels._a\n")
    found = _collect_at(tmp_path)
    uses = {(t, n) for m in found.values() for t, n, _ in m.imports + m.attributes}
    assert (f"{ROOT}.kernels._a", "f") in uses  # private module across packages
    assert (f"{ROOT}.kernels", "_a") in uses  # private attribute across packages
    assert f"{ROOT}.cluster._b" in {t for t, _, _ in found[f"{ROOT}.kernels._a"].imports}
    assert len(_private_offenders(found)) == 3  # _a.f, kernels._a, cluster._b (from kernels)
    assert _cycles(found) == [f"{ROOT}.cluster._b -> {ROOT}.kernels._a -> {ROOT}.cluster._b"]
    assert _layering_offenders(found) == [f"_a.py:2 (kernels) imports {ROOT}.cluster._b (cluster)"]


def test_the_utils_package_is_shared_like_the_root_helpers(tmp_path) -> None:
    # every package may use utils (private modules included); utils uses kernels' public
    # names only (here the public submodule kernels.plumbing), never its private modules;
    # kernels may not import utils (it sits above them)
    pkg = tmp_path / ROOT
    for sub in ("kernels", "cluster", "utils"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels" / "_k.py").write_text("def f():\n    from ..utils import _u\n")
    (pkg / "kernels" / "plumbing.py").write_text("from ._k import f\n")
    (pkg / "utils" / "_u.py").write_text(
        "from ..kernels.plumbing import f\nfrom ..kernels._k import f as g\n")
    (pkg / "cluster" / "_c.py").write_text("from ..utils._u import f\n")
    found = _collect_at(tmp_path)
    assert _private_offenders(found) == [f"_u.py:2 uses {ROOT}.kernels._k.f"]
    assert _layering_offenders(found) == [
        f"_k.py:2 (kernels) imports {ROOT}.utils._u (utils)"]
