"""The build backend: setuptools, with the wheel laid out under the one package `jaxcheck`.

In a clone, `refimpl/`, `strategies/`, `oracles/`, `suts/` and `tests/` sit at
the top beside `jaxcheck/`, as the design has them, and import each other
by those names.  Installed that way they would put five generic names into
site-packages, where a user's own `tests` package or `strategies.py` would
shadow them or be shadowed by them.  So the wheel moves them inside the
command's package (`jaxcheck.refimpl`, ..., `jaxcheck.tests` with the
properties only) and rewrites their imports to match, as pip's vendoring
does for the packages it carries: every `import` statement that names one
of them, found with `ast`, so no string or docstring is touched.  The
modules find each other's names from where they stand (`oracles/names.py`,
`jaxcheck.places.HOME`), never from a flag written here.

The sdist is the clone's layout (this file included), so a wheel built from
it is laid out here again.  An editable install (`pip install -e .`) is the
clone itself and is left to setuptools as it is.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import tempfile
from pathlib import Path

from setuptools import build_meta as _setuptools

# The wheel's one top-level package, and the library's packages it takes in.
PACKAGE = "jaxcheck"
MOVED = ("refimpl", "strategies", "oracles", "suts", "tests")
# Of tests/, the wheel keeps the properties: its `__init__.py` and its
# `test_*.py` files.  jaxcheck's self-tests (meta/, refimpl/, installed/) and
# their broken SUTs (broken/, faulty/, shims/, regressions/) stay in the clone.
PROPERTIES = re.compile(r"(__init__|test_\w+)\.py")

# What the staged tree keeps of the clone's top level besides the packages.
METADATA = ("pyproject.toml", "README.md")


class LayoutError(RuntimeError):
    """An import the relocation cannot rewrite; the message names the file and line."""


def rewrite(source: str, path: str = "<source>") -> str:
    """`source` with every import of a MOVED package made an import from inside `jaxcheck`.

    `from oracles.sut import X` becomes `from jaxcheck.oracles.sut import X`;
    `import refimpl` becomes `from jaxcheck import refimpl` (which binds the
    same name); `import suts.mlx as sut` becomes `import jaxcheck.suts.mlx as
    sut`.  A form that would bind another name (`import refimpl.numpy`,
    binding `refimpl`) is refused, naming the line, rather than guessed."""
    lines = source.splitlines(keepends=True)
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and _moved(node.module):
            _replace(lines, node, rf"from\s+{re.escape(node.module)}\b",
                     f"from {PACKAGE}.{node.module}", path)
        elif isinstance(node, ast.Import) and any(_moved(a.name) for a in node.names):
            _replace(lines, node, r"import\s+.*", _import_statement(node, path), path)
    return "".join(lines)


def _moved(module: str | None) -> bool:
    return module is not None and module.split(".", 1)[0] in MOVED


def _import_statement(node: ast.Import, path: str) -> str:
    if len(node.names) != 1:
        raise LayoutError(f"{path}:{node.lineno}: one module per import statement, please")
    (alias,) = node.names
    if "." not in alias.name:
        return f"from {PACKAGE} import {alias.name}" + (f" as {alias.asname}" * bool(alias.asname))
    if alias.asname is None:
        raise LayoutError(f"{path}:{node.lineno}: `import {alias.name}` binds "
                          f"`{alias.name.split('.')[0]}`; write `from ... import` or add `as`")
    return f"import {PACKAGE}.{alias.name} as {alias.asname}"


def _replace(lines: list[str], node: ast.stmt, pattern: str, replacement: str, path: str) -> None:
    """Replace `pattern` where the statement starts (its first line, at its column);
    a comment after the statement, on that line, is kept."""
    line = lines[node.lineno - 1]
    head, tail = line[:node.col_offset], line[node.col_offset:]
    comment = ""
    if isinstance(node, ast.Import):
        tail, hash_, comment = tail.partition("#")
        tail, comment = tail.rstrip(), (f"  #{comment}" if hash_ else "\n")
    new, count = re.subn(pattern, lambda _: replacement, tail, count=1)
    if count != 1:
        raise LayoutError(f"{path}:{node.lineno}: cannot find the import to rewrite in {line!r}")
    lines[node.lineno - 1] = head + new + comment


def stage(clone: Path, staging: Path) -> None:
    """Lay the clone out in `staging` as the wheel has it (see the module docstring)."""
    for name in METADATA:
        if (clone / name).exists():
            shutil.copy2(clone / name, staging / name)
    _copy_package(clone / PACKAGE, staging / PACKAGE, keep=lambda _: True)
    for name in MOVED:
        _copy_package(clone / name, staging / PACKAGE / name,
                      _is_property if name == "tests" else lambda _: True)


def _is_property(path: Path) -> bool:
    """A module of tests/ itself (not of a folder in it) that the wheel keeps."""
    return path.parent.name == "tests" and PROPERTIES.fullmatch(path.name) is not None


def _copy_package(source: Path, target: Path, keep) -> None:
    """Every module under `source` that `keep` accepts, imports rewritten, into `target`."""
    for path in sorted(source.rglob("*.py")):
        if "__pycache__" in path.parts or not keep(path):
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        destination.write_text(rewrite(text, str(path)), encoding="utf-8")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' wheel of the staged tree (the metadata is made there again, since a
    frontend's `metadata_directory` describes the clone's top-level packages)."""
    clone = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="jaxcheck-wheel-") as staging:
        stage(clone, Path(staging))
        os.chdir(staging)
        try:
            return _setuptools.build_wheel(os.path.abspath(wheel_directory), config_settings)
        finally:
            os.chdir(clone)


get_requires_for_build_wheel = _setuptools.get_requires_for_build_wheel
get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist
build_sdist = _setuptools.build_sdist
get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable
build_editable = _setuptools.build_editable
