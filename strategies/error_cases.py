"""The drawn examples of `tests/test_errors.py`: programs with an error a correct SUT
must refuse (shapes that do not broadcast, grad of a non-scalar, a leaked tracer).

Programs here use operations only, no constructs: the error under test is in
plain code.  Each strategy takes the SUT's `Vocabulary` first.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from strategies.cases import argnums
from strategies.language import inputs, shapes
from strategies.language.domains import MAX_RANK
from strategies.language.ir import Eqn, Var
from strategies.language.opspec import OPS
from strategies.language.render import render_function
from strategies.language.transformations import GRAD, JIT, JVP, VJP, VMAP
from strategies.language.vocabulary import Vocabulary
from strategies.program import Program, programs
from strategies.python_control import defined, needed
from strategies.wrappers import Wrapper

# Ways to use a leaked value, and the operation each needs (None: an operator).
USES = ((None, "{} * 2.0"), ("sum", "jnp.sum({})"), ("sin", "jnp.sin({})"))


def straight_line_cases(vocabulary: Vocabulary, **options):
    """Programs over the SUT's operations, without constructs."""
    return programs(ops=vocabulary.operations, **options)


def supported(sut, transforms):
    """One of `transforms` the SUT supports ("eager" always is), simplest first."""
    return st.sampled_from([t for t in transforms if t == "eager" or sut.supports(t)])


def _first_input_with_a_long_axis(draw):
    """Input shapes whose first has rank >= 1 and every dimension >= 2."""
    first = draw(shapes.array_shapes(min_rank=1, min_dim=2, max_dim=4), label="shape x0")
    rest = draw(st.lists(shapes.array_shapes(max_dim=4), max_size=2), label="other shapes")
    return (first, *rest)


def live(program: Program, var: Var) -> tuple:
    """The equations of `program` that `var` depends on, in order."""
    return tuple(program.eqns[i] for i in sorted(needed(program.eqns, [var])))


@st.composite
def incompatible_shapes(draw, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that does not broadcast with `shape` (which has a dimension >= 2).

    Aligned from the right, position -k holds `shape[-k] >= 2` and a
    different size >= 2; the other dimensions are free.  Examples shrink
    towards the last axis, rank k, and ones elsewhere.
    """
    positions = [k for k in range(1, len(shape) + 1) if shape[-k] >= 2]
    k = draw(st.sampled_from(positions), label="clashing axis from the right")
    size = draw(st.sampled_from([n for n in range(2, 6) if n != shape[-k]]), label="clash")
    rank = draw(st.integers(k, max(k, MAX_RANK)), label="rank")
    dims = [draw(st.integers(1, 4), label=f"dim {i}") for i in range(rank)]
    dims[-k] = size
    return tuple(dims)


class MismatchCase(NamedTuple):
    program: Program  # f(x.., z): the drawn program, then one operation of `target` and z
    args: tuple[np.ndarray, ...]
    good: np.ndarray  # z of a shape that broadcasts with target's
    bad: np.ndarray  # z of a shape that does not


@st.composite
def mismatch_cases(draw, vocabulary: Vocabulary) -> MismatchCase:
    """A program ending in `add`/`multiply`/`subtract` of one of its variables and a new
    input z, with a z that broadcasts and one that does not."""
    arg_shapes = _first_input_with_a_long_axis(draw)
    case = draw(straight_line_cases(vocabulary, input_shapes=st.just(arg_shapes)),
                label="program")
    long = [v for v in defined(case.program) if max(v.shape, default=0) >= 2]
    target = draw(st.sampled_from(long), label="operand")
    bad_shape = draw(incompatible_shapes(target.shape), label="z shape")
    op = draw(st.sampled_from(("add", "multiply", "subtract")), label="operation")
    syntax = draw(st.sampled_from(OPS[op].syntaxes), label="syntax")
    z = Var("z", target.shape)
    operands = (z, target) if draw(st.booleans(), label="z first") else (target, z)
    out = Var(f"v{len(defined(case.program)) - len(case.args)}", target.shape)
    clash = Eqn(op, operands, (), out, syntax)
    program = Program((*case.program.inputs, z), (*live(case.program, target), clash), (out,))
    good = draw(inputs.arrays(target.shape), label="z (broadcasts)")
    bad = draw(inputs.arrays(bad_shape), label="z (does not broadcast)")
    return MismatchCase(program, case.args, good, bad)


@st.composite
def non_scalar_cases(draw, vocabulary: Vocabulary):
    """A program returning one of its variables of rank >= 1, and grad's argnums."""
    arg_shapes = _first_input_with_a_long_axis(draw)
    case = draw(straight_line_cases(vocabulary, input_shapes=st.just(arg_shapes)),
                label="program")
    target = draw(st.sampled_from([v for v in defined(case.program) if v.shape]),
                  label="output")
    program = Program(case.program.inputs, live(case.program, target), (target,))
    nums = draw(argnums(len(case.args)), label="argnums")
    return case._replace(program=program), nums


@st.composite
def leak_cases(draw, vocabulary: Vocabulary):
    """A program with one output, and a use of the value it will leak.

    No zero-size inputs: an empty value holds no data, and JAX may hand it
    back as a plain array rather than a tracer (`jnp.where` does), so there
    would be nothing to leak.
    """
    case = draw(straight_line_cases(vocabulary, max_outputs=1, allow_empty=False),
                label="program")
    use = draw(st.sampled_from([use for op, use in USES if op in (None, *vocabulary.ops)]),
               label="use")
    return case, use


# ----------------------------------------------------------------------------- wrappers

def applied(transform: str, params: list[str]) -> str:
    """An expression applying `transform` to `f` at `params` (grad: to `total`, all args)."""
    args = ", ".join(params)
    batched = ", ".join(f"np.stack([{p}, {p}])" for p in params)
    return {
        "eager": f"f({args})",
        "jit": f"{JIT.call('f')}({args})",
        "grad": f"{GRAD.call('total', f'argnums={tuple(range(len(params)))!r}')}({args})",
        "vmap": f"{VMAP.call('f')}({batched})",
        "jvp": JVP.call("f", f"({args},)", f"({args},)"),
        "vjp": f"{VJP.call('f', args)}[0]",
    }[transform]


def refusal_wrapper(transform: str, params: list[str], after: str | None = None) -> Wrapper:
    """`transformed(..)` applies `transform` to f; `check(..)` then evaluates `after`."""
    args = ", ".join(params)
    source = f"def transformed({args}):\n    return {applied(transform, params)}\n"
    if transform == "grad":
        source = f"def total({args}):\n    return jnp.sum(f({args}))\n\n\n" + source
    if after is None:
        return Wrapper(source, f"transformed({args})")
    source += f"\n\ndef check({args}):\n    transformed({args})\n    return {after}\n"
    return Wrapper(source, f"check({args})")


def traced(program: Program, *, derivative: bool) -> list[Var]:
    """The variables a transformation must trace.

    jit and vmap trace everything computed from an input.  Under jvp, grad
    and vjp only what a derivative flows through is sure to be traced: JAX,
    too, returns a value whose tangent is a symbolic zero (`x ** 0`, `where`
    with constant branches) as a plain array.
    """
    varies = {v.name for v in program.inputs}
    for eqn in program.eqns:
        operands = OPS[eqn.op].carries_derivative(eqn.args, eqn.kwargs) if derivative else eqn.args
        if any(isinstance(a, Var) and a.name in varies for a in operands):
            varies |= {v.name for v in getattr(eqn, "outs", (eqn.out,))}
    return [v for v in defined(program) if v.name in varies]


def leaking_function(program: Program, leaked: Var) -> str:
    """`f` rendered to append `leaked` to the module-level list `leaked` before returning."""
    lines = render_function(program).splitlines()
    lines.insert(-1, f"    leaked.append({leaked.name})")
    return "leaked = []\n\n\n" + "\n".join(lines) + "\n"


def grad_of_non_scalar_source(program: Program, argnums, outer: str) -> str:
    """`control(x..)`: grad of the sum of f's output (a scalar); `check(x..)`: grad of f
    itself, whose output is not a scalar.  `outer` is "eager" or "jit" (around grad)."""
    xs = ", ".join(v.name for v in program.inputs)

    def through(fun: str) -> str:
        grad = GRAD.call(fun, f"argnums={argnums!r}")
        return f"{grad}({xs})" if outer == "eager" else f"{JIT.call(grad)}({xs})"

    return (f"def total({xs}):\n    return jnp.sum(f({xs}))\n\n\n"
            f"def control({xs}):\n    return {through('total')}\n\n\n"
            f"def check({xs}):\n    return {through('f')}\n")
