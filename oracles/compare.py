"""Compare what the SUT computed with what an oracle expects, or with itself.

Against an oracle, messages follow "got X, but should be Y [what]" and name
the output, the worst element, its absolute and relative error, and the
tolerance with its reason: enough to judge a failure without a debugger.

Two computations of one quantity on the SUT (an identity: `jit(grad f)` and
`grad(jit f)`) are no oracle for each other: `assert_agree` says what each
gives and, where an oracle of the same quantity can tell (the reference
SUT, finite differences: a `Witness`), which of them is wrong
(`disagreement`).  Neither is called "expected".

A NaN in the same place on both sides (or the same infinity) is agreement:
where a number is required, the oracle that requires it (NumPy's value of a
generated program, finite differences) gives one, and a NaN on the SUT's
side alone fails, and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from oracles.errors import Mismatch, SutBadOutput
from oracles.tolerance import Tolerance


class Witness(NamedTuple):
    """An oracle's value of one element of a quantity two SUT computations disagree
    on, and how far from it a right answer may be."""

    origin: str
    value: float
    allowed: float


# An oracle asked about one element: (output, index) -> its Witness, or None where it
# cannot tell.
Judge = Callable[[int, tuple], "Witness | None"]


class _Worst(NamedTuple):
    """One output's worst element: its error over the allowed error, its relative
    error, where it is, both values there, and the error allowed there."""

    ratio: float
    relative: float
    output: int
    index: tuple
    actual: float
    expected: float
    bound: float

    def at(self) -> str:
        return f"output {self.output}" + (f" at index {self.index}" if self.index else "")


def check_shapes(actual: Sequence[np.ndarray], shapes: Sequence[tuple], what: str) -> None:
    """The SUT returned exactly `len(shapes)` arrays of these shapes."""
    __tracebackhide__ = True
    got = [a.shape for a in actual]
    if len(got) != len(shapes):
        raise SutBadOutput(f"got {len(got)} arrays, but should be {len(shapes)} [{what}]")
    wrong = [f"output {i} has shape {g}, but should be {s}"
             for i, (g, s) in enumerate(zip(got, shapes)) if tuple(g) != tuple(s)]
    if wrong:
        raise SutBadOutput("; ".join(wrong) + f" [{what}]")


def assert_close(actual, expected, tol: Tolerance, what: str, *, error=None) -> None:
    """Every output within tolerance; `error` holds per-element estimates of the
    oracle's own error (finite differences), added in `tol.error_factor` times."""
    __tracebackhide__ = True
    worst = _mismatched(actual, expected, tol, what, error)
    if worst:
        _raise([against_oracle(w) for w in worst], worst, what, tol)


def assert_agree(first, second, tol: Tolerance, names: tuple[str, str], what: str,
                 judges: Sequence[Judge] = ()) -> None:
    """Two computations of one quantity on the SUT, named `names`, agree within `tol`;
    where they do not, each oracle of `judges` is asked about the worst elements."""
    __tracebackhide__ = True
    worst = _mismatched(first, second, tol, what, None)
    if worst:
        _raise([disagreement(names, w, _witnesses(judges, w)) for w in worst], worst, what,
               tol)


def _mismatched(actual, expected, tol, what, error) -> list[_Worst]:
    __tracebackhide__ = True
    check_shapes(actual, [np.shape(e) for e in expected], what)
    errors = error if error is not None else [np.zeros(np.shape(e)) for e in expected]
    return [_worst(i, a, e, tol, err) for i, (a, e, err) in enumerate(zip(actual, expected, errors))
            if not np.all(_agree(a, e, tol, err))]


def _raise(lines: list[str], worst: list[_Worst], what: str, tol: Tolerance):
    __tracebackhide__ = True
    top = max(worst, key=lambda w: w.ratio)
    raise Mismatch("\n".join(lines) + f"\n[{what}; tolerance: {tol.why}]", ratio=top.ratio,
                   relative=top.relative)


def allowed(expected, tol: Tolerance, error) -> np.ndarray:
    return tol.atol + tol.rtol * np.abs(expected) + tol.error_factor * np.asarray(error)


def _agree(actual, expected, tol, error) -> np.ndarray:
    """Per element: within tolerance, or the same NaN or infinity on both sides."""
    with np.errstate(invalid="ignore"):
        return ((np.abs(actual - expected) <= allowed(expected, tol, error))
                | (actual == expected) | (np.isnan(actual) & np.isnan(expected)))


def relative_error(actual, expected):
    """|actual - expected| / |expected|, element by element: 0 where they are the same
    (NaN and NaN, an infinity and itself), infinite where only `expected` is 0.  One
    definition for the failure's message and the reproducer, which prints it with
    this function's source (oracles/reproducer.py), so `check` and `replay` say
    one relative error of one comparison."""
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        error = np.abs(actual - expected) / np.abs(expected)
    return np.where((actual == expected) | (np.isnan(actual) & np.isnan(expected)), 0.0, error)


def _worst(i, actual, expected, tol, error) -> _Worst:
    with np.errstate(invalid="ignore", divide="ignore"):
        limit = allowed(expected, tol, error)
        excess = np.where(_agree(actual, expected, tol, error), 0.0,
                          np.nan_to_num(np.abs(actual - expected) / limit, nan=np.inf))
    worst = np.unravel_index(np.argmax(excess), np.shape(actual)) if np.ndim(actual) else ()
    a, e = float(np.asarray(actual)[worst]), float(np.asarray(expected)[worst])
    return _Worst(float(np.asarray(excess)[worst]), float(relative_error(a, e)), i,
                  tuple(int(k) for k in worst), a, e,
                  float(np.broadcast_to(limit, np.shape(actual))[worst]))


def _number(x: float) -> str:
    return repr(float(x))


def _excess(w: _Worst) -> str:
    return f"{w.ratio:.3g} times the allowed {w.bound:.3g}"


def against_oracle(w: _Worst) -> str:
    """One output's worst element against an oracle: "got X, but should be Y"."""
    line = f"{w.at()}: got {_number(w.actual)}, but should be {_number(w.expected)}"
    if np.isnan(w.actual):
        return line + ": a NaN on the SUT's side only"
    if np.isnan(w.expected):
        return line + ": a NaN on the oracle's side only"
    return line + (f" (abs error {abs(w.actual - w.expected):.3g}, {_excess(w)}; rel error "
                   f"{w.relative:.3g})")


def disagreement(names: tuple[str, str], w: _Worst, witnesses: Sequence[Witness]) -> str:
    """One output's worst element where two SUT computations of one quantity differ:
    what each gives, what each witness gives, and which side is wrong where the
    witnesses tell (or that they disagree, where there is none)."""
    first, second = names
    line = f"{w.at()}: {first} gives {_number(w.actual)}, {second} gives {_number(w.expected)}"
    if np.isnan(w.actual) != np.isnan(w.expected):
        line += " (a NaN on one side only)"
    else:
        line += f" (they differ by {abs(w.actual - w.expected):.3g}, {_excess(w)})"
    line += "".join(f"; {x.origin} gives {_number(x.value)}" for x in witnesses)
    return f"{line}: {_verdict(names, w, witnesses)}"


def _verdict(names: tuple[str, str], w: _Worst, witnesses: Sequence[Witness]) -> str:
    if not witnesses:
        return "the two disagree, and no oracle here tells which is right"
    sides = {(abs(w.actual - x.value) <= x.allowed, abs(w.expected - x.value) <= x.allowed)
             for x in witnesses}
    verdicts = {(False, True): f"{names[0]} is wrong", (True, False): f"{names[1]} is wrong",
                (False, False): "both are wrong"}
    if len(sides) == 1 and next(iter(sides)) in verdicts:
        return verdicts[next(iter(sides))]
    return "the two disagree, and the oracles here do not settle which is right"


def _witnesses(judges: Sequence[Judge], w: _Worst) -> list[Witness]:
    """What each judge says about `w`'s element; a judge that cannot tell, or fails (a
    reference that raises, finite differences too sharp), is left out: it words the
    message, it is not the verdict."""
    found = []
    for judge in judges:
        try:
            witness = judge(w.output, w.index)
        except Exception:  # noqa: BLE001 (see the docstring)
            witness = None
        if witness is not None:
            found.append(witness)
    return found
