"""Programs with Python control flow on concrete values: an `if` on a comparison, a `for` loop.

A control program is a generated straight-line program (`programs`) cut in
three: the equations needed before the `if` (by the predicate, the loop and
any extra output), those only the `then` result needs, and those only the
`else` result needs.  The program's values are known at every input set it
was grown at (`strategies.language.evaluation.evaluate`), so the threshold of the
predicate `jnp.sum(v) > c` is placed by construction at least `MARGIN` away
from the predicate's value: no `assume`, no filtering, and the branch taken is known.
The loop body applies a bounded function (sin, tanh, cos) and then
multiplies by or adds a variable of magnitude at most `LOOP_OPERAND_CAP`,
so every iteration stays within the value cap::

    def f(x0, x1):
        v0 = jnp.sin(x0)
        if jnp.sum(v0) > 0.317:
            v1 = v0 * x1
            y = v1
        else:
            y = 1.0 - x1
        for i in range(2):
            y = jnp.tanh(y)
            y = y * v0
            y = y + 0.5 * i
        return y

`path(control, branch)` is the straight-line program `f` runs when the
predicate is `branch` (loop unrolled): the NumPy value and the
finite-difference oracle run it.  Properties:
`tests/test_python_control_flow.py`; meta-test:
`tests/meta/test_broken_suts.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from strategies.language import inputs, shapes
from strategies.language.evaluation import evaluate
from strategies.language.ir import Eqn, Var
from strategies.language.opspec import SYMBOL
from strategies.language.render import render_function
from strategies.program import Program, programs

# The predicate's value is at least this far from the threshold.  A central
# difference moves it by about h * |d sum / dv| with h <= 1e-3; the oracle
# still checks every perturbed point (tests/test_python_control_flow.py).
MARGIN = 0.25

# Thresholds are written with this many decimals (short literals).
DECIMALS = 3

# A loop multiplies by a variable with |v| <= this, after a bounded function:
# every iterate stays below 3 in magnitude, and the derivative through three
# iterations below 8, whatever the program computed before.
LOOP_OPERAND_CAP = 2.0

MAX_ITERATIONS = 3
LOOP_FUNCTIONS = ("sin", "tanh", "cos")
LOOP_STEPS = (0.0, 0.5, -0.25)


@dataclass(frozen=True)
class Loop:
    """`for i in range(count): y = unary(y); y = y <binary> operand; y = y + step * i`.

    `count` 0 is no loop; `operand` None and `step` 0.0 leave out their line.
    """

    count: int = 0
    unary: str = "sin"
    binary: str = "multiply"
    operand: Var | None = None
    step: float = 0.0


@dataclass(frozen=True)
class ControlProgram:
    """`f`: equations, `if jnp.sum(predicate) <cmp> threshold`, the branches, a loop.

    The `then` branch sets `y = then_result`, the `else` branch
    `y = 1.0 - else_result` (same shape; with the same variable on both
    sides, the branches differ in value and in the sign of the derivative).
    `threshold` None makes the threshold `f`'s last parameter, `c`.
    `outputs` mirrors `Program.outputs` (y, then the extra outputs), so
    `strategies.wrappers` apply unchanged.
    """

    inputs: tuple[Var, ...]
    before: tuple[Eqn, ...]
    predicate: Var
    cmp: str
    threshold: float | None
    then_eqns: tuple[Eqn, ...]
    then_result: Var
    else_eqns: tuple[Eqn, ...]
    else_result: Var
    loop: Loop
    extra: tuple[Var, ...] = ()

    @property
    def outputs(self) -> tuple[Var, ...]:
        return (Var("y", self.then_result.shape), *self.extra)

    def __repr__(self) -> str:
        return "ControlProgram:\n" + render(self)


class ControlCase(NamedTuple):
    """A control program and the input sets it was built at (as `ProgramCase`).

    `thresholds` is `(c_then, c_else)` when the threshold is a parameter:
    values of `c` that take each branch at `args`; empty otherwise.
    """

    program: ControlProgram
    args: tuple[np.ndarray, ...]
    variants: tuple[tuple[np.ndarray, ...], ...]
    shared: tuple[bool, ...]
    thresholds: tuple[float, ...] = ()


# ----------------------------------------------------------------------------- rendering

def _outs(eqn: Eqn) -> tuple[Var, ...]:
    return getattr(eqn, "outs", (eqn.out,))


def _lines(inputs, eqns, indent: str) -> list[str]:
    """The equations' lines as `render_function` writes them, at `indent`."""
    text = render_function(Program(tuple(inputs), tuple(eqns), ()), "_", hoist=False)
    return [indent + line[4:] for line in text.splitlines()[1:-1]]


def _loop_lines(loop: Loop) -> list[str]:
    if not loop.count:
        return []
    lines = [f"    for i in range({loop.count}):", f"        y = jnp.{loop.unary}(y)"]
    if loop.operand is not None:
        lines.append(f"        y = y {'*' if loop.binary == 'multiply' else '+'} "
                     f"{loop.operand.name}")
    if loop.step:
        lines.append(f"        y = y + {loop.step!r} * i")
    return lines


def render(control: ControlProgram, name: str = "f") -> str:
    """`def f(x0, ...[, c]):` with the `if`, the loop, and `return y[, ...]`."""
    params = [v.name for v in control.inputs] + (["c"] if control.threshold is None else [])
    threshold = "c" if control.threshold is None else repr(control.threshold)
    ins = control.inputs
    lines = [f"def {name}({', '.join(params)}):",
             *_lines(ins, control.before, "    "),
             f"    if jnp.sum({control.predicate.name}) {SYMBOL[control.cmp]} {threshold}:",
             *_lines(ins, control.then_eqns, "        "),
             f"        y = {control.then_result.name}",
             "    else:",
             *_lines(ins, control.else_eqns, "        "),
             f"        y = 1.0 - {control.else_result.name}",
             *_loop_lines(control.loop),
             f"    return {', '.join(v.name for v in control.outputs)}"]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- meaning

def path(control: ControlProgram, branch: bool) -> Program:
    """The straight-line program `f` runs when the predicate is `branch`, loop unrolled."""
    eqns = list(control.before) + list(control.then_eqns if branch else control.else_eqns)
    y = control.then_result
    if not branch:
        y = Var("else_y", control.else_result.shape)
        eqns.append(Eqn("subtract", (1.0, control.else_result), (), y, "operator"))
    loop = control.loop
    for k in range(loop.count):
        steps = [(loop.unary, ())]
        if loop.operand is not None:
            steps.append((loop.binary, (loop.operand,)))
        if loop.step:
            steps.append(("add", (loop.step * k,)))
        for j, (op, operands) in enumerate(steps):
            out = Var(f"loop{k}_{j}", y.shape)
            eqns.append(Eqn(op, (y, *operands), (), out, "call"))
            y = out
    return Program(control.inputs, tuple(eqns), (y, *control.extra))


def predicate_value(control: ControlProgram, args) -> float:
    """`jnp.sum(predicate)` at `args`, in NumPy float64."""
    (value,) = evaluate(Program(control.inputs, control.before, (control.predicate,)), args)
    return float(np.sum(value))


def takes_then(control: ControlProgram, args, threshold: float | None = None) -> bool:
    """Whether `f(*args)` (with `c=threshold` if it is a parameter) takes the `then` branch."""
    c = control.threshold if threshold is None else threshold
    s = predicate_value(control, args)
    return s > c if control.cmp == "greater" else s < c


def run(control: ControlProgram, args, threshold: float | None = None) -> tuple:
    """`f(*args)` in NumPy float64: the branch it takes, then that path's outputs."""
    return evaluate(path(control, takes_then(control, args, threshold)), args)


# ----------------------------------------------------------------------------- drawing

def defined(program: Program) -> list[Var]:
    """Every variable of a program: its inputs, then each equation's results."""
    return [*program.inputs, *(v for eqn in program.eqns for v in _outs(eqn))]


def needed(eqns, roots) -> set[int]:
    """Indices of the equations the variables `roots` depend on."""
    where = {v.name: i for i, eqn in enumerate(eqns) for v in _outs(eqn)}
    found, stack = set(), [v.name for v in roots]
    while stack:
        i = where.get(stack.pop())
        if i is not None and i not in found:
            found.add(i)
            stack += [a.name for a in eqns[i].args if isinstance(a, Var)]
    return found


def depends_on(program: Program) -> dict[str, set[str]]:
    """For every variable, the inputs it depends on."""
    deps = {v.name: {v.name} for v in program.inputs}
    for eqn in program.eqns:
        used = set().union(*(deps[a.name] for a in eqn.args if isinstance(a, Var)))
        deps |= {v.name: used for v in _outs(eqn)}
    return deps


def _check(variants, max_iterations):
    shapes.check_type("variants", variants, int)
    if not 1 <= variants <= 8:
        raise InvalidArgument(f"variants={variants} must be between 1 and 8")
    shapes.check_type("max_iterations", max_iterations, int)
    if not 0 <= max_iterations <= MAX_ITERATIONS:
        raise InvalidArgument(f"max_iterations={max_iterations} must be between 0 and "
                              f"{MAX_ITERATIONS}")


@st.composite
def control_programs(draw, *, variants=1, threshold_parameter=False,
                     max_iterations=MAX_ITERATIONS, **options) -> ControlCase:
    """A `ControlCase`: a program with an `if` on a value and a `for` loop, and its inputs.

    * the straight-line parts come from `programs(variants=variants,
      **options)` (`ops` says which operations; the loop uses only those of
      sin, tanh, cos it names);
    * the predicate is `jnp.sum(v) > c` or `<`, on a variable of the program,
      with `c` at least `MARGIN` from its value; with `variants > 1` (for
      vmap) `v` depends only on inputs shared by every variant, so all take
      the same branch (an extra shared input is added when there is none);
    * `threshold_parameter`: `c` is `f`'s last parameter, and
      `thresholds` holds a value of it for each branch (default: a literal);
    * 0 to `max_iterations` (default 3) loop iterations.

    Examples shrink towards the predicate on the first input, the `then`
    branch taken, no loop and no extra output.
    """
    _check(variants, max_iterations)
    options.setdefault("max_outputs", 3)
    case = draw(programs(variants=variants, **options), label="program")
    program, sets, shared = case.program, list(case.variants), list(case.shared)
    names = [v.name for v in program.inputs]
    every = defined(program)
    values = [dict(zip([v.name for v in every],
                       evaluate(Program(program.inputs, program.eqns, tuple(every)), args)))
              for args in sets]

    deps = depends_on(program)
    fixed = {n for n, s in zip(names, shared) if s or variants == 1}
    candidates = [v for v in every if deps[v.name] <= fixed]
    inputs_ = program.inputs
    if not candidates:  # no variable is the same in every variant: add a shared input
        flag = Var(f"x{len(names)}", draw(shapes.array_shapes(max_rank=1), label="flag shape"))
        value = draw(inputs.arrays(flag.shape), label="flag")
        sets = [(*args, value) for args in sets]
        shared.append(True)
        inputs_ = (*inputs_, flag)
        values = [env | {flag.name: value} for env in values]
        candidates = [flag]
    predicate = draw(st.sampled_from(candidates), label="predicate")

    then_result = program.outputs[0]
    alike = [v for v in every if v.shape == then_result.shape]
    then_needs = needed(program.eqns, [then_result])
    own = [v for v in alike if needed(program.eqns, [v]) - then_needs]
    if own and draw(st.booleans(), label="else computes its own result"):
        alike = own
    else_result = draw(st.sampled_from(alike), label="else result")
    extra = tuple(program.outputs[1:2]) if draw(st.booleans(), label="extra output") else ()
    loop = _draw_loop(draw, every, values, then_result.shape, options.get("ops"), max_iterations)

    eqns = program.eqns
    roots = [predicate, *extra] + ([loop.operand] if loop.operand is not None else [])
    else_needs = needed(eqns, [else_result])
    before = needed(eqns, roots) | (then_needs & else_needs)

    def pick(indices):
        return tuple(eqns[i] for i in sorted(indices))

    cmp = draw(st.sampled_from(sorted(SYMBOL)), label="comparison")
    s = float(np.sum(values[0][predicate.name]))
    offset = draw(st.integers(1, 8), label="offset") * MARGIN
    up, down = round(s + offset, DECIMALS), round(s - offset, DECIMALS)
    c_then, c_else = (down, up) if cmp == "greater" else (up, down)
    take_then = not draw(st.booleans(), label="takes else")
    control = ControlProgram(
        inputs_, pick(before), predicate, cmp,
        None if threshold_parameter else (c_then if take_then else c_else),
        pick(then_needs - before), then_result, pick(else_needs - before), else_result,
        loop, extra)
    thresholds = (c_then, c_else) if threshold_parameter else ()
    return ControlCase(control, tuple(sets[0]), tuple(map(tuple, sets)), tuple(shared),
                       thresholds)


def _broadcasts_into(small, shape) -> bool:
    try:
        return np.broadcast_shapes(small, shape) == tuple(shape)
    except ValueError:
        return False


def _draw_loop(draw, every, values, shape, ops, max_iterations) -> Loop:
    functions = [name for name in LOOP_FUNCTIONS if ops is None or name in ops]
    count = draw(st.integers(0, max_iterations), label="iterations")
    if not count or not functions:
        return Loop()

    def small(v):
        return _broadcasts_into(v.shape, shape) and all(
            np.max(np.abs(env[v.name]), initial=0) <= LOOP_OPERAND_CAP for env in values)

    return Loop(count,
                draw(st.sampled_from(functions), label="loop function"),
                draw(st.sampled_from(("multiply", "add")), label="loop operation"),
                draw(st.sampled_from([None, *filter(small, every)]), label="loop operand"),
                draw(st.sampled_from(LOOP_STEPS), label="loop step"))
