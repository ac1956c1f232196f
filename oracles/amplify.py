"""Amplification: after shrinking, the inputs at which the failing program shows its bug plainly.

Hypothesis shrinks inputs towards simple values, and a simple value is often
where a wrong rule is *nearly* right: a derivative rule that is wrong
everywhere but at 0 shrinks to an input just far enough from 0 to fail, with
an error of 1.3 times the tolerance, which reads like a tolerance problem.
The shrunk program is the small and simple part; this module keeps it, and
the transformation and the property, and searches the inputs (and tangents,
cotangents, loss weights: strategies/moves.py) for the largest ratio of
error to allowed error (`Mismatch.ratio`).

The search is deterministic (seed `SEED`) and bounded (`MAX_TRIALS` runs of
the property, at most `MAX_SECONDS`), in three steps:

1. restarts from the shrunk inputs: small, medium and large jitters, and
   draws from the whole box the generator draws from;
2. local steps around the best so far, at shrinking scales;
3. rounding: the best inputs rounded to a step of 1, 0.5, 0.1 or 0.01, the
   coarsest that keeps the ratio within `ROUNDING_KEEPS` of the best, so the
   reproducer's literals are short.

A candidate counts only where the property fails on it with a value
mismatch, and replaces the shrunk example only where it at least doubles
its ratio (`IMPROVES`).  An input outside a domain margin is never tried (`OutOfDomain`),
and one that the oracle cannot judge (too sharp for finite differences),
where the SUT raises instead, or where the property passes, never replaces
the shrunk example.  Where no input shows the error `PLAIN` times over and
the relative error stays below `PRECISION_RELATIVE` everywhere, the bug is
a loss of precision, which no input can make large; the note says so, and
names the operation (or the operations of the program) that lost it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from oracles.errors import Mismatch
from strategies.language.inputs import GRID
from strategies.language.ir import OutOfDomain, all_eqns
from strategies.moves import Move, moved
from strategies.program import Program

SEED = 0
# Property runs per failure: each costs one SUT call plus its oracles (a few
# ms on refimpl, 10-100 ms on JAX once a shape is compiled), so 32 fit the
# budget below on either.
MAX_TRIALS = 32
# At most this long per failure (2 s: a report must not wait on it), checked before each run.
MAX_SECONDS = 2.0
# Inputs replace the shrunk ones only where the ratio at least doubles: a few
# percent more of a precision loss's error shows nothing new.
IMPROVES = 2.0
# Rounding may cost up to a factor of 10 in the ratio, for literals like `1.5`.
ROUNDING_KEEPS = 0.1
ROUNDING_STEPS = (1.0, 0.5, 0.1, 0.01)
# An error this many times the tolerance cannot be taken for noise.
PLAIN = 100.0
# float32 rounding is 6e-8 relative, and a float32 step inside a float64
# program loses digits to about 1e-6; a wrong rule moves results by 1e-3 or
# more (oracles/tolerance.py).
PRECISION_RELATIVE = 1e-4

# Restarts: jitters at these fractions of the bound, and the whole box, in turn.
RESTART_SCALES = (0.05, 0.25, 1.0, None)
RESTARTS = 12
# Local steps around the best so far, at these scales in turn.
LOCAL_SCALES = (0.1, 0.05, 0.02, 0.01)
# A moved candidate outside a domain margin costs a NumPy evaluation, not a
# property run: try up to this many per run before giving up on a step.
DRAWS_PER_TRIAL = 4


@dataclass
class Outcome:
    """What the search found: the best draws (None: nothing beat the shrunk
    example), their ratio, and what it cost."""

    drawn: list | None
    ratio: float
    shrunk_ratio: float
    tried: int
    seconds: float
    largest_relative: float
    operations: tuple[str, ...] = ()

    def note(self) -> str:
        """One paragraph for the failure's message."""
        spent = f"{self.tried} input sets tried in {self.seconds:.1f} s"
        if self.drawn is not None:
            return (f"Amplified: the shrunk example's error was {self.shrunk_ratio:.3g} times "
                    f"the tolerance; at the inputs of the reproducer below (the same program) "
                    f"it is {self.ratio:.3g} times ({spent}).  The shrunk example's reproducer "
                    f"is saved beside it.")
        best = max(self.ratio, self.shrunk_ratio)
        if best < PLAIN and self.largest_relative < PRECISION_RELATIVE:
            return (f"Not amplified: the error stays below {PRECISION_RELATIVE:g} relative at "
                    f"every input tried (at most {best:.3g} times the tolerance; {spent}): "
                    f"a loss of precision{self._where()} (float32 rounding is 6e-8 relative), "
                    f"not a wrong rule.")
        return (f"Not amplified: no input tried shows more than {IMPROVES:g} times the "
                f"shrunk example's error of {self.shrunk_ratio:.3g} times the tolerance "
                f"({spent}).")


    def _where(self) -> str:
        """Which operation lost the precision: the program's one operation, or one of its
        operations (each is held alone to float64 by tests/test_value.py)."""
        if len(self.operations) == 1:
            return f" in {self.operations[0]}, the program's one operation"
        if self.operations:
            return (f" in one of the program's operations ({', '.join(self.operations)}; "
                    "test_each_operation_alone_is_accurate_to_float64 in tests/test_value.py "
                    "holds each alone to float64)")
        return ""


def operations(drawn) -> tuple[str, ...]:
    """The operations of the last program among the draws, in order of first use: the
    program whose check failed (a property checks what it has drawn; the
    per-operation one draws and checks a program per operation in turn)."""
    program = _last_program(drawn)
    if program is None:
        return ()
    return tuple(dict.fromkeys(eqn.op for eqn in all_eqns(program.eqns)))


def _last_program(value) -> Program | None:
    if isinstance(value, Program):
        return value
    if isinstance(value, tuple | list):
        for item in reversed(value):
            found = _last_program(item)
            if found is not None:
                return found
    return None


def _grid(x, values) -> np.ndarray:
    """`values` on the generator's 1/GRID grid, with `x`'s shape."""
    return np.asarray(np.round(np.asarray(values) * GRID) / GRID, dtype=np.float64).reshape(
        np.shape(x))


def jitter(rng: np.random.Generator, scale: float | None) -> Move:
    """Each element moved by a normal step of `scale` times the bound (None: drawn
    afresh, uniform over the whole box)."""
    if scale is None:
        return lambda x, bound: _grid(x, rng.uniform(-bound, bound, np.shape(x)))
    return lambda x, bound: _grid(x, np.clip(
        x + scale * bound * rng.standard_normal(np.shape(x)), -bound, bound))


def rounded(step: float) -> Move:
    return lambda x, bound: _grid(x, np.clip(np.round(np.asarray(x) / step) * step,
                                             -bound, bound))


class _Search:
    """The best draws so far, and what trying candidates has cost."""

    def __init__(self, trial: Callable[[list], Mismatch | None], shrunk: Mismatch):
        self.trial, self.shrunk = trial, shrunk
        self.best, self.ratio = None, shrunk.ratio
        self.tried, self.largest_relative = 0, shrunk.relative
        self.start = time.perf_counter()

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def run(self, origin: list, move: Move) -> tuple[list | None, float]:
        """`origin` moved by `move`, and the ratio of the property's failure there
        (0 where it passes or fails otherwise; no candidate where it is out of domain)."""
        try:
            candidate = [moved(value, move) for value in origin]
        except OutOfDomain:
            return None, 0.0
        self.tried += 1
        try:
            failure = self.trial(candidate)
        except Exception:  # raised, too sharp for the oracle, rejected: not a value mismatch
            return candidate, 0.0
        if failure is None:
            return candidate, 0.0
        self.largest_relative = max(self.largest_relative, failure.relative)
        return candidate, failure.ratio

    def consider(self, origin: list, move: Move) -> None:
        candidate, ratio = self.run(origin, move)
        if ratio > self.ratio:
            self.best, self.ratio = candidate, ratio

    def outcome(self, drawn: list) -> Outcome:
        return Outcome(self.best, self.ratio, self.shrunk.ratio, self.tried, self.seconds(),
                       self.largest_relative, operations(drawn))


def search(trial: Callable[[list], Mismatch | None], drawn: list, shrunk: Mismatch, *,
           max_trials: int = MAX_TRIALS, max_seconds: float = MAX_SECONDS) -> Outcome:
    """The draws, moved from `drawn`, on which `trial` (one run of the property)
    fails with the largest ratio; `trial` returns the Mismatch it raised, or None."""
    rng = np.random.default_rng(SEED)
    state = _Search(trial, shrunk)

    def steps(trials: int, scales):
        """Moves until `trials` more property runs (candidates out of domain cost
        only a NumPy evaluation, and up to `DRAWS_PER_TRIAL` times as many)."""
        until, draws = min(state.tried + trials, max_trials), 0
        while state.tried < until and draws < DRAWS_PER_TRIAL * trials:
            if state.seconds() >= max_seconds:
                return
            yield jitter(rng, scales[draws % len(scales)])
            draws += 1

    for move in steps(RESTARTS, RESTART_SCALES):
        state.consider(drawn, move)
    for move in steps(max_trials - RESTARTS - len(ROUNDING_STEPS), LOCAL_SCALES):
        state.consider(state.best or drawn, move)
    if state.ratio < IMPROVES * shrunk.ratio:
        state.best = None
    if state.best is not None:
        unrounded = state.best
        keep = max(ROUNDING_KEEPS * state.ratio, IMPROVES * shrunk.ratio)
        for step in ROUNDING_STEPS:
            if state.seconds() >= max_seconds:
                break
            candidate, ratio = state.run(unrounded, rounded(step))
            if ratio > keep:
                state.best, state.ratio = candidate, ratio
                break
    return state.outcome(drawn)
