"""What a correct SUT must refuse: raising is right, silently returning a value is wrong.

* adding arrays whose shapes do not broadcast ((2, 3) and (4,)), eagerly or
  under jit, grad, vmap, jvp or vjp;
* `grad` of a function whose output is not a scalar;
* a tracer leaked from a transformation (appended to a Python list inside
  `jvp`, `grad`, `jit`, `vjp` or `vmap`) and used after it returned.

Any `Exception` counts as refusing; the message is not judged.  Each
property first runs a control from the same module source, where a correct
SUT returns (compatible shapes, a scalar loss, the leaked value left
unused), so a program that raises for some other reason cannot pass for a
refusal.
Programs, shapes and the transformation are drawn, so a failure shrinks;
`tests/meta/test_broken_suts.py` shows each property failing on
an SUT that does not raise.
"""

from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.verify import experiment, verify_raises, verify_runs
from strategies import inputs, shapes
from strategies.domains import MAX_RANK
from strategies.ir import Eqn, Var
from strategies.opspec import OPS
from strategies.program import Program, ProgramCase, programs
from strategies.python_control import defined, needed
from strategies.render import render_function
from strategies.wrappers import Wrapper
from tests import cases

# Transformations a refusal is checked under, simplest first (shrinking goes there).
TRANSFORMS = ("eager", "jit", "grad", "vmap", "jvp", "vjp")


def straight_line_cases(**options):
    """Programs over the SUT's operations, without constructs: the error under test is
    in plain code."""
    return st.deferred(lambda: programs(
        ops=tuple(name for name in cases.VOCABULARY if name in OPS), **options))


def supported(sut, transforms):
    return st.sampled_from([t for t in transforms if t == "eager" or sut.supports(t)])


def apply(transform: str, params: list[str]) -> str:
    """An expression applying `transform` to `f` at `params` (grad: to `total`, all args)."""
    args = ", ".join(params)
    batched = ", ".join(f"np.stack([{p}, {p}])" for p in params)
    return {
        "eager": f"f({args})",
        "jit": f"sut.jit(f)({args})",
        "grad": f"sut.grad(total, argnums={tuple(range(len(params)))!r})({args})",
        "vmap": f"sut.vmap(f)({batched})",
        "jvp": f"sut.jvp(f, ({args},), ({args},))",
        "vjp": f"sut.vjp(f, {args})[0]",
    }[transform]


def wrapper(transform: str, params: list[str], after: str | None = None) -> Wrapper:
    """`transformed(..)` applies `transform` to f; `check(..)` then evaluates `after`."""
    args = ", ".join(params)
    source = f"def transformed({args}):\n    return {apply(transform, params)}\n"
    if transform == "grad":
        source = f"def total({args}):\n    return jnp.sum(f({args}))\n\n\n" + source
    if after is None:
        return Wrapper(source, f"transformed({args})")
    source += f"\n\ndef check({args}):\n    transformed({args})\n    return {after}\n"
    return Wrapper(source, f"check({args})")


def _first_input_with_a_long_axis(draw):
    """Input shapes whose first has rank >= 1 and every dimension >= 2."""
    first = draw(shapes.array_shapes(min_rank=1, min_dim=2, max_dim=4), label="shape x0")
    rest = draw(st.lists(shapes.array_shapes(max_dim=4), max_size=2), label="other shapes")
    return (first, *rest)


def live(program: Program, var: Var) -> tuple:
    """The equations of `program` that `var` depends on, in order."""
    return tuple(program.eqns[i] for i in sorted(needed(program.eqns, [var])))


# ----------------------------------------------------------------------------- shapes

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
def mismatch_cases(draw) -> MismatchCase:
    arg_shapes = _first_input_with_a_long_axis(draw)
    case = draw(straight_line_cases(input_shapes=st.just(arg_shapes)), label="program")
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


@given(drawn=mismatch_cases(), data=st.data())
def test_shape_mismatch_raises(sut, drawn, data):
    transform = data.draw(supported(sut, TRANSFORMS), label="transformation")
    program, args, good, bad = drawn
    params = [v.name for v in program.inputs]
    case = ProgramCase(program, args, (args,), (False,) * len(args))
    step = program.eqns[-1]
    clash = f"{step.op} of shapes {good.shape} and {bad.shape}"
    control = experiment(case, wrapper(transform, params), f"{transform} of f, z {good.shape}",
                         inputs=dict(zip(params, (*args, good))))
    verify_runs(sut, control, f"z of shape {good.shape} broadcasts with {step.op}'s other operand")
    refused = experiment(case, wrapper(transform, params), f"{transform} of f, z {bad.shape}",
                         inputs=dict(zip(params, (*args, bad))))
    verify_raises(sut, refused, f"f applies {clash}, which do not broadcast")


# ----------------------------------------------------------------------------- grad

@st.composite
def non_scalar_cases(draw):
    """A program returning one of its variables of rank >= 1, and grad's argnums."""
    arg_shapes = _first_input_with_a_long_axis(draw)
    case = draw(straight_line_cases(input_shapes=st.just(arg_shapes)), label="program")
    target = draw(st.sampled_from([v for v in defined(case.program) if v.shape]),
                  label="output")
    program = Program(case.program.inputs, live(case.program, target), (target,))
    argnums = draw(cases.argnums(len(case.args)), label="argnums")
    return case._replace(program=program), argnums


@pytest.mark.needs("grad")
@given(drawn=non_scalar_cases(), data=st.data())
def test_grad_of_a_non_scalar_output_raises(sut, drawn, data):
    case, argnums = drawn
    outer = data.draw(supported(sut, ("eager", "jit")), label="around grad")
    xs = ", ".join(v.name for v in case.program.inputs)
    shape = case.program.outputs[0].shape

    def through(fun: str) -> str:
        grad = f"sut.grad({fun}, argnums={argnums!r})"
        return f"{grad}({xs})" if outer == "eager" else f"sut.jit({grad})({xs})"

    source = (f"def total({xs}):\n    return jnp.sum(f({xs}))\n\n\n"
              f"def control({xs}):\n    return {through('total')}\n\n\n"
              f"def check({xs}):\n    return {through('f')}\n")
    title = "grad" if outer == "eager" else "jit(grad)"
    verify_runs(sut, experiment(case, Wrapper(source, f"control({xs})"), f"{title}(sum of f)"),
                "the sum of f's output is a scalar")
    verify_raises(sut, experiment(case, Wrapper(source, f"check({xs})"),
                                  f"{title}(f), f of shape {shape}"),
                  f"grad of f, whose output has shape {shape}, not ()")


# ----------------------------------------------------------------------------- leaks

# Ways to use the leaked value, and the operation each needs (None: an operator).
USES = ((None, "{} * 2.0"), ("sum", "jnp.sum({})"), ("sin", "jnp.sin({})"))


def _carries_derivative(eqn: Eqn) -> tuple:
    """The operands a derivative flows through: not `where`'s predicate, not `x ** 0`'s base."""
    if eqn.op == "where":
        return eqn.args[2:]
    if eqn.op == "integer_pow" and eqn.kwargs.get("n") == 0:
        return ()
    return eqn.args


def traced(program: Program, *, derivative: bool) -> list[Var]:
    """The variables a transformation must trace.

    jit and vmap trace everything computed from an input.  Under jvp, grad
    and vjp only what a derivative flows through is sure to be traced: JAX,
    too, returns a value whose tangent is a symbolic zero (`x ** 0`, `where`
    with constant branches) as a plain array.
    """
    varies = {v.name for v in program.inputs}
    for eqn in program.eqns:
        operands = _carries_derivative(eqn) if derivative else eqn.args
        if any(isinstance(a, Var) and a.name in varies for a in operands):
            varies |= {v.name for v in getattr(eqn, "outs", (eqn.out,))}
    return [v for v in defined(program) if v.name in varies]


@st.composite
def leak_cases(draw):
    """A program with one output, and a use of the value it will leak.

    No zero-size inputs: an empty value holds no data, and JAX may hand it
    back as a plain array rather than a tracer (`jnp.where` does), so there
    would be nothing to leak.
    """
    case = draw(straight_line_cases(max_outputs=1, allow_empty=False), label="program")
    use = draw(st.sampled_from([use for op, use in USES if op in (None, *cases.VOCABULARY)]),
               label="use")
    return case, use


@given(drawn=leak_cases(), data=st.data())
def test_a_leaked_tracer_raises_when_used(sut, drawn, data):
    transform = data.draw(supported(sut, TRANSFORMS[1:]), label="transformation")
    case, use = drawn
    candidates = traced(case.program, derivative=transform in ("jvp", "grad", "vjp"))
    leaked = data.draw(st.sampled_from(candidates), label="leaked variable")
    params = [v.name for v in case.program.inputs]
    lines = render_function(case.program).splitlines()
    lines.insert(-1, f"    leaked.append({leaked.name})")
    function = "leaked = []\n\n\n" + "\n".join(lines) + "\n"
    after = use.format("leaked[0]")
    both = wrapper(transform, params, after)  # check(..) calls transformed(..), the control
    control = experiment(case, both._replace(call=f"transformed({', '.join(params)})"),
                         f"{transform} of f (leaks)", function=function)
    verify_runs(sut, control, f"f stores {leaked.name} in a list; nothing uses it yet")
    used = experiment(case, both, f"{transform} of f, then {after}", function=function)
    verify_raises(sut, used, f"{after} uses {leaked.name}, a tracer f leaked from {transform}, "
                             "after that transformation returned")
