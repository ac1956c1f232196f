"""Standalone reproducer scripts for failing examples.

A reproducer imports the SUT by name, holds the exact source that ran (the
program and the wrapper that applies the transformation), the inputs as
exact float64 literals, and the oracle's expectation; it prints expected
against actual with the largest absolute and relative error and exits 1 on
a mismatch.  It is attached to the failing exception as a note (so it is the
failure message) and saved under `counterexamples/` by conftest.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from oracles.experiment import Experiment
from oracles.tolerance import Tolerance
from strategies.render import array_literal

HEADER = '"""jaxcheck reproducer'
DIRECTORY = "counterexamples"

_IMPORTS = {
    "jax": 'import jax\n\njax.config.update("jax_enable_x64", True)\nsut = jax\n',
}

_COMPARE = '''
def leaves(tree):
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [np.asarray(tree, dtype=np.float64)]


def compare(actual, expected, error):
    """Print expected against actual; True when they agree within tolerance."""
    actual, expected, error = leaves(actual), leaves(expected), leaves(error)
    ok = len(actual) == len(expected)
    if not ok:
        print(f"got {len(actual)} outputs, but should be {len(expected)}")
    for i, (a, e, err) in enumerate(zip(actual, expected, error)):
        print(f"output {i}:\\n  expected {e.tolist()}\\n  actual   {a.tolist()}")
        if a.shape != e.shape:
            print(f"  shape {a.shape}, but should be {e.shape}")
            ok = False
            continue
        abs_err = np.abs(a - e)
        rel_err = abs_err / np.maximum(np.abs(e), np.finfo(np.float64).tiny)
        print(f"  max abs error {abs_err.max(initial=0):.3g}, "
              f"max rel error {rel_err.max(initial=0):.3g}")
        ok &= bool(np.all(abs_err <= ATOL + RTOL * np.abs(e) + ERROR_FACTOR * err))
    print("agree within tolerance" if ok else "MISMATCH")
    return ok


sys.exit(0 if compare(actual, expected, error) else 1)
'''


def sut_import(name: str) -> str:
    """Source that binds `sut` to the SUT called `name`, as conftest resolves it."""
    if name in _IMPORTS:
        return _IMPORTS[name]
    module, _, attribute = name.partition(":")
    line = f"sut = importlib.import_module({module!r})"
    if attribute:
        line = f"sut = getattr(importlib.import_module({module!r}), {attribute!r})"
    return f"import importlib\n\n{line}\n"


def _literals(values: dict) -> str:
    return "".join(f"{name} = {array_literal(value)}\n" for name, value in values.items())


def _tree_literal(arrays) -> str:
    return "(\n" + "".join(f"    {array_literal(a)},\n" for a in arrays) + ")"


@dataclass(frozen=True)
class Expectation:
    """What an oracle expects, where it comes from, and how close is close enough.

    `error` is the oracle's own per-element error estimate (finite
    differences); `source` is how the reproducer writes the expectation:
    exact literals by default, or an expression that recomputes it.
    """

    values: tuple
    origin: str
    tolerance: Tolerance
    error: tuple | None = None
    source: str | None = None

    def __post_init__(self):
        if self.error is None:
            zeros = tuple(np.zeros(np.shape(v)) for v in self.values)
            object.__setattr__(self, "error", zeros)


def script(experiment: Experiment, sut_name: str, expectation: Expectation) -> str:
    tol = expectation.tolerance
    return "\n".join([
        f"{HEADER}: {experiment.title}.",
        "",
        f"Expected values come from {expectation.origin}.",
        f"Tolerance: {tol.why}.",
        "Run it from the directory pytest ran in: python <this file>",
        '"""',
        "import os",
        "import sys",
        "",
        "sys.path.insert(0, os.getcwd())",
        sut_import(sut_name),
        experiment.source.rstrip() + "\n",
        "# Inputs, as exact float64 literals.",
        _literals(experiment.inputs),
        f"actual = {experiment.call}",
        f"expected = {expectation.source or _tree_literal(expectation.values)}",
        f"error = {_tree_literal(expectation.error)}  # the oracle's own error estimate",
        f"RTOL, ATOL, ERROR_FACTOR = {tol.rtol!r}, {tol.atol!r}, {tol.error_factor!r}",
        _COMPARE,
    ])


@contextlib.contextmanager
def attached(build: Callable[[], str]):
    """On any exception, add the reproducer `build()` makes as a note, and re-raise."""
    try:
        yield
    except Exception as exc:
        exc.add_note(build())
        raise


def find_all(exc: BaseException):
    """Every reproducer attached to `exc` or to the exceptions in its group
    (Hypothesis reports distinct bugs as a group)."""
    for note in getattr(exc, "__notes__", ()):
        if note.startswith(HEADER):
            yield note
            break
    for inner in getattr(exc, "exceptions", ()):
        yield from find_all(inner)


def find(exc: BaseException) -> str | None:
    """The first reproducer attached to `exc` (or to an exception in its group), if any."""
    return next(find_all(exc), None)


def save(text: str, test_name: str, directory: Path) -> Path:
    """Write `text` to `directory/counterexamples/repro_<test>-<hash>.py`; return the path.

    The `repro_` prefix keeps pytest from collecting a saved script as a test module.
    """
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name).strip("_")[:80]
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    path = Path(directory) / DIRECTORY / f"repro_{slug}-{digest}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
