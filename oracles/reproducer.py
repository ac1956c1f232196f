"""Standalone reproducer scripts for failing examples.

A reproducer imports the SUT by name, holds the exact source that ran (the
program and the wrapper that applies the transformation), the inputs as
exact literals (float64, or float32 where the example computes in it), and
the oracle's expectation; it prints expected against actual with the
largest absolute and relative error and exits 1 on a mismatch.  Where a
correct SUT must refuse the program (`refusal_script`), it exits 1 if the
SUT returns instead of raising; where an output's dtype is wrong
(`dtype_script`), it says which.  It is attached to the failing exception
as a note (so it is the failure message) and saved under
`counterexamples/` by the properties' plugin (jaxcheck/plugin.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from oracles.compare import relative_error
from oracles.experiment import Experiment
from oracles.names import module_path
from oracles.tolerance import Tolerance
from strategies.language.render import array_literal

HEADER = '"""jaxcheck reproducer'
# The shrunk example's reproducer, beside an amplified one (jaxcheck/examples.py).
SHRUNK = '"""jaxcheck reproducer of the shrunk example, before amplification'
DIRECTORY = "counterexamples"
# The key of one failure (its error, and the paths of its saved reproducers) in a
# pytest report's `user_properties`.
FAILURE_KEY = "jaxcheck_failure"
# A failure's error as kept for the report: its type and message, whole up to this
# many characters, and past it its start and its end (an XLA error says what went
# wrong in its last line, after kilobytes of the graph's stack).
ERROR_CHARACTERS = 20_000

_IMPORTS = {
    "jax": 'import jax\n\njax.config.update("jax_enable_x64", True)\nsut = jax\n',
}

# What a reproducer judges with, as it was before the SUT is imported: a script
# that judges in the SUT's process must see the SUT change it (oracles/frozen.py).
_FROZEN_SOURCE = """import builtins
import math

import numpy as np

_FROZEN = [(module, dict(vars(module))) for module in (np, math, builtins)]
"""

_LEAVES = '''def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]
'''

_COMPARE = '''
''' + _LEAVES + "\n\n" + inspect.getsource(relative_error) + '''


def compare(actual, expected, error):
    """Print expected against actual; True when they agree within tolerance."""
    changed = [f"{module.__name__}.{name}" for module, saved in _FROZEN
               for name, value in saved.items() if module.__dict__.get(name) is not value]
    if changed:
        print(f"ORACLE CHANGED: the SUT changed {', '.join(changed)}, which this script "
              "judges with")
        return False
    actual, expected, error = ([np.asarray(leaf, dtype=np.float64) for leaf in leaves(tree)]
                               for tree in (actual, expected, error))
    ok = len(actual) == len(expected)
    if not ok:
        print(f"got {len(actual)} outputs, but should be {len(expected)}")
    for i, (a, e, err) in enumerate(zip(actual, expected, error)):
        print(f"output {i}:\\n  expected {e.tolist()}\\n  actual   {a.tolist()}")
        if a.shape != e.shape:
            print(f"  shape {a.shape}, but should be {e.shape}")
            ok = False
            continue
        same = (a == e) | (np.isnan(a) & np.isnan(e))  # the same NaN or infinity agrees
        with np.errstate(invalid="ignore"):
            abs_err = np.where(same, 0.0, np.abs(a - e))
            rel_err = relative_error(a, e)
            allowed = ATOL + RTOL * np.abs(e) + ERROR_FACTOR * err
            times = np.where(same, 0.0, abs_err / allowed)
        print(f"  max abs error {abs_err.max(initial=0):.3g}, "
              f"max rel error {rel_err.max(initial=0):.3g}, "
              f"{times.max(initial=0):.3g} times the tolerance")
        ok &= bool(np.all(same | (abs_err <= allowed)))
    print("agree within tolerance" if ok else "MISMATCH")
    return ok
'''



def _exit(expectation: Expectation) -> str:
    judged = "actual" if expectation.leaves is None else f"leaves(actual)[:{expectation.leaves}]"
    return f"\n\nsys.exit(0 if compare({judged}, expected, error) else 1)\n"


def sut_import(name: str) -> str:
    """Source that binds `sut` to the SUT called `name`, as oracles/sut.py resolves it."""
    if name in _IMPORTS:
        return _IMPORTS[name]
    module, _, attribute = module_path(name).partition(":")
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
    `leaves`: the expectation judges only the first `leaves` outputs (one call
    returns what finite differences judge, then what the reference judges).
    """

    values: tuple
    origin: str
    tolerance: Tolerance
    error: tuple | None = None
    source: str | None = None
    leaves: int | None = None

    def judged(self, actual: tuple) -> tuple:
        """The outputs of `actual` this expectation judges."""
        return actual if self.leaves is None else actual[:self.leaves]

    def __post_init__(self):
        if self.error is None:
            zeros = tuple(np.zeros(np.shape(v)) for v in self.values)
            object.__setattr__(self, "error", zeros)


def script(experiment: Experiment, sut_name: str, expectation: Expectation) -> str:
    tol = expectation.tolerance
    return "\n".join([
        *_preamble(experiment, sut_name, [f"Expected values come from {expectation.origin}.",
                                          f"Tolerance: {tol.why}."]),
        f"actual = {experiment.call}",
        f"expected = {expectation.source or _tree_literal(expectation.values)}",
        f"error = {_tree_literal(expectation.error)}  # the oracle's own error estimate",
        f"RTOL, ATOL, ERROR_FACTOR = {tol.rtol!r}, {tol.atol!r}, {tol.error_factor!r}",
        _COMPARE + _exit(expectation),
    ])


def _preamble(experiment: Experiment, sut_name: str, docstring: list[str]) -> list[str]:
    return [f"{HEADER}: {experiment.title}.", "", *docstring,
            "Run it from the directory pytest ran in: python <this file>", '"""',
            "import os", "import sys", "", "sys.path.insert(0, os.getcwd())", _FROZEN_SOURCE,
            sut_import(sut_name), experiment.source.rstrip() + "\n",
            "# Inputs, as exact literals.", _literals(experiment.inputs)]


def refusal_script(experiment: Experiment, sut_name: str, why: str,
                   context: Expectation | None = None) -> str:
    """A script that exits 0 when the SUT raises on the call, and 1 when it returns.

    `context`, if given, is what a correct run of the same program returns
    elsewhere (eagerly, say): a returned result is printed against it, so a
    silently wrong value shows as MISMATCH.
    """
    lines = _preamble(experiment, sut_name, [f"A correct SUT raises here: {why}.", ""])
    lines += ["try:", f"    actual = {experiment.call}", "except Exception as exc:",
              '    print(f"raised {type(exc).__name__}, as a correct SUT must:\\n{exc}")',
              "    sys.exit(0)",
              f"print({'returned without raising, but should raise: ' + why!r})"]
    if context is None:
        lines += ["print(actual)", "sys.exit(1)"]
        return "\n".join(lines) + "\n"
    tol = context.tolerance
    lines += [f"print({'Values it returned, against ' + context.origin + ':'!r})",
              f"expected = {context.source or _tree_literal(context.values)}",
              f"error = {_tree_literal(context.error)}",
              f"RTOL, ATOL, ERROR_FACTOR = {tol.rtol!r}, {tol.atol!r}, {tol.error_factor!r}",
              _COMPARE, "", "compare(actual, expected, error)", "sys.exit(1)"]
    return "\n".join(lines) + "\n"


def returns_script(experiment: Experiment, sut_name: str, why: str) -> str:
    """A script that runs the call and exits 0 when it returns (a traceback otherwise)."""
    lines = _preamble(experiment, sut_name, [f"A correct SUT returns here: {why}.", ""])
    lines += [f"actual = {experiment.call}", 'print("returned, as a correct SUT must:")',
              "print(actual)"]
    return "\n".join(lines) + "\n"


def dtype_script(experiment: Experiment, sut_name: str, expected: tuple, why: str) -> str:
    """A script that exits 0 when every output has the dtype the contract says."""
    lines = _preamble(experiment, sut_name, [f"Each output must have its dtype: {why}.", ""])
    lines += [f"actual = {experiment.call}", "", _LEAVES,
              f"expected = {[np.dtype(d).name for d in expected]!r}",
              "got = [np.asarray(leaf).dtype.name for leaf in leaves(actual)]",
              'for i, (g, e) in enumerate(zip(got, expected)):',
              '    print(f"output {i}: {g}" + ("" if g == e else f", but should be {e}"))',
              'print("dtypes as the contract says" if got == expected else "WRONG DTYPE")',
              "sys.exit(0 if got == expected else 1)"]
    return "\n".join(lines) + "\n"


def call_script(experiment: Experiment, sut_name: str) -> str:
    """A script that makes the call and prints what it returns: the reproducer of a
    call that crashed or hung the process (oracles/inflight.py), which no oracle
    got to judge.  Running it crashes or hangs the same way."""
    lines = _preamble(experiment, sut_name, [
        "The SUT crashed or hung on this call, so no oracle judged it.",
        "Running this script makes the same call; it should print the result.", ""])
    lines += ['print("calling the SUT...", flush=True)', f"actual = {experiment.call}",
              'print("returned:")', "print(actual)"]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def attached(build: Callable[[], str]):
    """On any exception, add the reproducer `build()` makes as a note, and re-raise."""
    try:
        yield
    except Exception as exc:
        exc.add_note(build())
        raise


def as_shrunk(text: str) -> str:
    """A reproducer retitled as the shrunk example's, kept beside the amplified one."""
    return SHRUNK + text.removeprefix(HEADER)


def find_all(exc: BaseException):
    """Every reproducer attached to `exc` (its own, then the shrunk example's where
    it was amplified) or to the exceptions in its group (Hypothesis reports
    distinct bugs as a group)."""
    notes = [note for note in getattr(exc, "__notes__", ()) if note.startswith(HEADER)]
    yield from notes[:1]
    yield from (note for note in notes[1:] if note.startswith(SHRUNK))
    for inner in getattr(exc, "exceptions", ()):
        yield from find_all(inner)


def failures(exc: BaseException):
    """Each distinct failure in `exc`: (its error as one text, its reproducers).

    Hypothesis reports distinct bugs as a group (and a flaky one as a group of
    its runs); each leaf is one failure, with the reproducers attached to it,
    so that a report can tell which error each reproducer shows.
    """
    inner = getattr(exc, "exceptions", ())
    if inner:
        for each in inner:
            yield from failures(each)
        return
    error = f"{type(exc).__name__}: {exc}"
    if len(error) > ERROR_CHARACTERS:
        half = ERROR_CHARACTERS // 2
        error = f"{error[:half]}\n[... {len(error) - 2 * half:,} characters ...]\n{error[-half:]}"
    yield error, list(find_all(exc))


def equations(script: str) -> int | None:
    """Equations of the generated `f` in a reproducer: lines `vN = ...` at any
    depth (a Python `if` nests them; a construct's blocks name theirs `a0`, `c0`...).
    None for a reproducer without a generated `f` (a fixed function of a property)."""
    if "def f(" not in script:
        return None
    body = script.split("def f(", 1)[1].split("\n\n", 1)[0]
    return len(re.findall(r"^\s+v\d+(?:, v\d+)* = ", body, flags=re.MULTILINE))


def find(exc: BaseException) -> str | None:
    """The first reproducer attached to `exc` (or to an exception in its group), if any."""
    return next(find_all(exc), None)


def save(text: str, test_name: str, directory: Path) -> Path:
    """Write `text` to `directory/repro_<test>-<hash>.py`; return the path.

    The `repro_` prefix keeps pytest from collecting a saved script as a test module.
    """
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name).strip("_")[:80]
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    path = Path(directory) / f"repro_{slug}-{digest}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole or not at all (a reader, or an interruption, never meets half
    # a script), and unique to this process while it is written: two runs may
    # save the same reproducer at once.
    staging = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        staging.write_text(text)
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)
    return path
