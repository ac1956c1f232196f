"""The library packages import each other one way: no cycle, no import hidden in a function.

A cycle makes a reader go back and forth and forces imports inside
functions to hold it together, so both are checked on the source text
(`ast`, nothing is imported): the graph has an edge from a module to every
module of `PACKAGES` it imports at module level, and a function of these
packages may import only from outside them (an optional dependency, say).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("refimpl", "strategies", "oracles", "jaxcheck")

pytestmark = pytest.mark.meta


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: pathlib.Path, packages=PACKAGES) -> dict[str, pathlib.Path]:
    return {module_name(path, root): path
            for package in packages for path in sorted((root / package).rglob("*.py"))}


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              known) -> set[str]:
    """The modules `node` imports: for `from a import b`, `a.b` where that is a
    module, else `a` itself; relative imports resolved against `module`."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        base = module.split(".")
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        prefix = ".".join(base + (node.module.split(".") if node.module else []))
    else:
        prefix = node.module
    return {f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in known else prefix
            for alias in node.names}


def _within_functions(tree: ast.Module):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    yield inner


def import_graph(root: pathlib.Path, packages=PACKAGES):
    """(edges, hidden): module -> the package modules it imports at module level;
    and every import of a package module made inside a function, as text."""
    known = modules(root, packages)
    edges, hidden = {}, []
    for name, path in known.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        inside = set(map(id, _within_functions(tree)))
        edges[name] = set()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            targets = {t for t in _imported(node, name, is_package, known)
                       if t in known and t != name}
            if not targets:
                continue
            if id(node) in inside:
                hidden.append(f"{path.relative_to(root)}:{node.lineno} imports "
                              f"{', '.join(sorted(targets))} inside a function")
            else:
                edges[name] |= targets
    return edges, hidden


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_library_packages_have_no_import_cycle_and_no_hidden_import():
    edges, hidden = import_graph(ROOT)
    problems = [f"import cycle: {' <-> '.join(c)}" for c in cycles(edges)] + hidden
    assert not problems, "\n".join(problems)


def test_the_check_sees_a_cycle_and_a_hidden_import(tmp_path):
    """The checker itself, on a package made to break both rules."""
    package = tmp_path / "refimpl"
    package.mkdir()
    (package / "__init__.py").write_text("from . import a\n")
    (package / "a.py").write_text("from .b import g\n\ndef f():\n    from . import c\n")
    (package / "b.py").write_text("from refimpl import a\n\ng = 1\n")
    (package / "c.py").write_text("import numpy\n")
    edges, hidden = import_graph(tmp_path, ("refimpl",))
    assert cycles(edges) == [["refimpl.a", "refimpl.b"]]
    assert hidden == [f"{pathlib.Path('refimpl', 'a.py')}:4 imports refimpl.c inside a function"]


def test_the_language_imports_nothing_else_of_strategies():
    """strategies/language/ is the core the case strategies build on: a module of it that
    imported one of theirs would make the two one tangle again."""
    edges, _ = import_graph(ROOT)
    outside = {f"{module} imports {target}" for module, targets in edges.items()
               if module.startswith("strategies.language.") for target in targets
               if target.startswith("strategies.") and not target.startswith("strategies.language")}
    assert not outside, "\n".join(sorted(outside))
