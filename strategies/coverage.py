"""What the generated examples reach: each operation by operand ranks and mode, each
construct by the regime that makes its rules matter.

Presence is not coverage.  A bug in `matmul`'s transpose for a vector times
a matrix shows only in an example that has that operand-rank combination
under a reverse-mode transformation; a wrong scan rule shows only where the
scan runs two steps or more, its carry meets its per-step input, and a
gradient is taken through it.  So the unit of coverage is a *cell*:

* `("op", name, ranks, mode)`: an equation of `name` whose operands have
  these ranks (`"lit"` for a float literal), run under `mode`, one of
  `MODES`: plain evaluation, forward mode, reverse mode, batching, staging;
* `("construct", name, regime)`: a construct in one of `REGIMES`;
* `("regime", name, regime, mode)`: an equation of `name` whose parameters are in
  one of its builder's regimes (`operands.Regime`: an axis counted from the
  back, an update past the start), and `("special", name, point, mode)` one at
  a special point of its rule (`cell_cases.SPECIALS`: a zero in a product, a tie
  at a max), each under `mode`.
* `("pair", subject, outer, inner)`: a subject (`pairs.SUBJECTS`: a construct
  with a rule of its own, or a family of operations) run under `outer(inner(f))`,
  two adjacent layers of a transformation stack.

`allowed` lists, per operation, the rank combinations its operand builder
may draw (`operands.Builder.ranks`), so a cell the generator never reaches
shows up as a zero instead of being absent.  `jaxcheck`'s pytest option
`--jaxcheck-coverage=FILE` records every example's cells
(`oracles/experiment.py` notes each experiment) and writes them per
property; `bench/coverage_report.py` turns that into docs/coverage.md.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from strategies import pairs
from strategies.cell_cases import specials
from strategies.language.constructs import CONSTRUCTS
from strategies.language.ir import Eqn, Var
from strategies.language.operands import operand_ranks
from strategies.language.opspec import OPS
from strategies.language.transformations import TRANSFORMATIONS
from strategies.program import Program

# Plain evaluation, then the mode of each transformation (`transformations.py`).
MODES = ("value", *dict.fromkeys(row.mode for row in TRANSFORMATIONS.values()))
# The mode of each construct that applies a transformation inside the program.
CONSTRUCT_MODES = {name: row.transformation.mode for name, row in CONSTRUCTS.items()
                   if row.transformation}
# The regimes in which a construct's rules can be seen wrong.
REGIMES = {
    "cond": ("captures", "reverse", "batched"),
    "fori_loop": ("two steps", "carry meets a capture", "reverse", "batched"),
    "while_loop": ("two steps", "carry meets a capture", "reverse", "batched"),
    "scan": ("two steps", "carry meets the row", "reverse", "batched"),
    "custom_jvp": ("captures", "reverse", "batched"),
    "custom_vjp": ("captures", "reverse", "batched"),
    "checkpoint": ("captures", "reverse", "batched"),
}
# The constructs whose operands after the first are values their block captures.
CAPTURING = ("custom_jvp", "custom_vjp", "checkpoint")

def allowed(ops: dict) -> set[tuple]:
    """Every cell the operation table and the constructs allow, in every mode."""
    cells = {("op", name, ranks, mode) for name, spec in ops.items()
             for ranks in spec.build.ranks for mode in MODES}
    cells |= {("construct", name, regime) for name, regimes in REGIMES.items()
              for regime in regimes}
    return cells | parameter_cells_allowed(ops)


def modes_in(source: str) -> frozenset[str]:
    """The modes of the transformations a wrapper applies to `f` (each row's opening,
    `sut.<name>(`, in its source); plain evaluation if none."""
    found = {row.mode for row in TRANSFORMATIONS.values() if row.opening in source}
    return frozenset(found or {"value"})


def _mixes(block, first: str, second: set[str]) -> bool:
    """Some equation of `block` reads a value derived from `first` and one from `second`."""
    from_first, from_second = {first}, set(second)
    for eqn in block.eqns:
        args = {a.name for a in eqn.args if isinstance(a, Var)}
        if args & from_first and args & from_second:
            return True
        if args & from_first:
            from_first |= {v.name for v in eqn.outs}
        if args & from_second:
            from_second |= {v.name for v in eqn.outs}
    return False


def regimes(eqn: Eqn, modes: frozenset[str]) -> list[str]:
    """The regimes (`REGIMES`) a construct's equation reaches under `modes`."""
    regimes = []
    if "reverse" in modes:
        regimes.append("reverse")
    if "vmap" in modes:
        regimes.append("batched")
    params = eqn.kwargs
    if eqn.op == "cond":
        if len(eqn.args) > 2:  # the predicate's operand, the operand, then captures
            regimes.append("captures")
    elif eqn.op in CAPTURING:
        if len(eqn.args) > 1:
            regimes.append("captures")
    elif eqn.op in ("fori_loop", "while_loop"):
        body = params["body"]
        if params["trips"] >= 2:
            regimes.append("two steps")
        carry = body.params[-1].name
        captured = {a.name for a in eqn.args[1:] if isinstance(a, Var)}
        if captured and _mixes(body, carry, captured):
            regimes.append("carry meets a capture")
    elif eqn.op == "scan":
        step = params["step"]
        xs = eqn.args[1]
        if xs.shape and xs.shape[0] >= 2:
            regimes.append("two steps")
        if _mixes(step, step.params[0].name, {step.params[1].name}):
            regimes.append("carry meets the row")
    return regimes


def cells(program: Program, modes: frozenset[str]) -> Counter:
    """The cells one run of `program` under `modes` reaches."""
    found: Counter = Counter()

    def visit(eqns, modes):
        for eqn in eqns:
            if eqn.op in REGIMES:
                found.update(("construct", eqn.op, r) for r in regimes(eqn, modes))
            elif not eqn.blocks:
                found.update(("op", eqn.op, operand_ranks(eqn.op, eqn.args), m) for m in modes)
                found.update(regime_cells(eqn, modes))
            inner = modes | {CONSTRUCT_MODES[eqn.op]} if eqn.op in CONSTRUCT_MODES else modes
            for block in eqn.blocks:
                visit(block.eqns, frozenset(inner - {"value"}) or frozenset({"value"}))

    visit(program.eqns, modes)
    return found


def inputs_key(args) -> tuple:
    """What makes two examples' inputs one: their shapes and their bytes."""
    return tuple((np.shape(x), np.asarray(x).tobytes()) for x in args)


class Recorder:
    """The cells each property's examples reach, each (program, inputs, modes) counted once.

    The inputs are part of the key: one program at other inputs is another
    example (`tests/test_cells.py` checks `add(x0, x1)` of a scalar and a
    rank-3 array at three inputs, often of one shape), while the experiments
    of one example that share its program, modes and inputs (jit's eager and
    jitted calls) are one.  A vmap's inputs are its batch: two batches that
    share their first element are two examples of the batching rule."""

    def __init__(self):
        self.current = ""
        self.by_property: dict[str, Counter] = defaultdict(Counter)
        self._seen: set = set()

    def note(self, program: Program, wrapper_source: str, args=()) -> None:
        modes = modes_in(wrapper_source)
        key = (self.current, program, modes, inputs_key(args))
        if key in self._seen:
            return
        self._seen.add(key)
        self.by_property[self.current].update(cells(program, modes))
        self.by_property[self.current].update(special_cells(program, modes, args))

    def write(self, path: Path) -> None:
        """To `path`, or under pytest-xdist to `path.<worker>` (each worker its own)."""
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        path = path.with_name(f"{path.name}.{worker}") if worker else path
        path.write_text(json.dumps(
            {prop: [[list(_jsonable(cell)), n] for cell, n in sorted(counts.items(), key=str)]
             for prop, counts in self.by_property.items()}, indent=0))


def _jsonable(cell: tuple) -> tuple:
    return tuple(list(part) if isinstance(part, tuple) else part for part in cell)


def read(path: Path) -> dict[str, Counter]:
    """A recorder's file (and its xdist workers' `path.<worker>` files) back as cells
    per property."""
    merged: dict[str, Counter] = defaultdict(Counter)
    for part in [path, *sorted(path.parent.glob(f"{path.name}.*"))]:
        if not part.exists():
            continue
        for prop, rows in json.loads(part.read_text()).items():
            merged[prop].update({tuple(tuple(p) if isinstance(p, list) else p for p in cell): n
                                 for cell, n in rows})
    return dict(merged)


# The one recorder of a pytest run with --jaxcheck-coverage (conftest.py), or None.
RECORDER: Recorder | None = None


# ------------------------------------------------------------------ regimes and special points

def parameter_cells_allowed(ops: dict) -> set[tuple]:
    """Each regime of each operation's builder and each special point of its rule,
    in every mode."""
    return ({("regime", name, regime.name, mode) for name, spec in ops.items()
             for regime in spec.build.regimes for mode in MODES}
            | {("special", name, point.name, mode) for name in ops for point in specials(name)
               for mode in MODES})


def regime_cells(eqn: Eqn, modes: frozenset[str]) -> list[tuple]:
    """The regimes (`operands.Regime`) an operation's equation is in, under `modes`."""
    spec = OPS.get(eqn.op)
    if spec is None:
        return []
    shapes = tuple(getattr(a, "shape", ()) for a in eqn.args)
    return [("regime", eqn.op, regime.name, mode) for regime in spec.build.regimes
            if regime.admits(shapes, eqn.kwargs) for mode in modes]


def special_cells(program: Program, modes: frozenset[str], args) -> list[tuple]:
    """The special points (`cell_cases.SPECIALS`) the equations of `program` that read
    its inputs alone are at, under `modes`.  Only those: a special point is exact (a
    zero, a tie), which an intermediate value meets by rounding if at all, and the
    special cells (`tests/test_cells.py`) are one equation of the inputs."""
    found = []
    at = {var.name: value for var, value in zip(program.inputs, args)}
    for eqn in program.eqns:
        if eqn.blocks or not all(isinstance(a, float) or a.name in at for a in eqn.args):
            continue
        values = tuple(a if isinstance(a, float) else at[a.name] for a in eqn.args)
        found += [("special", eqn.op, point.name, mode) for point in specials(eqn.op)
                  if point.holds(values, eqn.kwargs) for mode in modes]
    return found


# ------------------------------------------------------------------ pairs of transformations

def pair_cells_allowed(supports, vocabulary) -> set[tuple]:
    """Each pair of transformations the contract allows around each subject, on an SUT
    that `supports` these features and draws from `vocabulary` (`pairs.pairs_for`)."""
    return {("pair", subject, outer, inner) for subject in pairs.SUBJECTS
            for outer, inner in pairs.pairs_for(subject, supports, vocabulary)}


def pair_cells(program: Program, layers) -> Counter:
    """The pair cells of `program` under a stack of `layers` (names, innermost first):
    each subject it holds under each two adjacent layers."""
    subjects = pairs.subjects_in(program)
    return Counter(("pair", subject, outer, inner) for inner, outer in zip(layers, layers[1:])
                   for subject in subjects)


def note_pairs(program: Program, layers, args) -> None:
    """Count `pair_cells` in the recorder, if any: each (program, layers, inputs) once."""
    if RECORDER is None:
        return
    key = ("pairs", RECORDER.current, program, tuple(layers), inputs_key(args))
    if key in RECORDER._seen:
        return
    RECORDER._seen.add(key)
    RECORDER.by_property[RECORDER.current].update(pair_cells(program, layers))
