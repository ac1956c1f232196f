"""Python control flow on concrete values: an `if` on a comparison, a `for` over a range.

`jvp`, `grad` and `vjp` run the user's Python on concrete values, so a
program may branch on them: each must agree with central finite differences
of the path the program takes (the branch is known by construction, the
loop unrolled; `strategies/python_control.py`) and with the reference.
`vmap` may branch on a value that is not batched.  `jit` must refuse to
branch on a traced value: raising is right, silently following one branch
is wrong (`tests/meta/test_broken_suts.py` shows a jit that does).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.errors import GeneratorBug
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT, FD_STEPS, FD_STEPS_SHARP, FINITE_DIFFERENCES
from oracles.verify import experiment, on_reference, verify, verify_raises
from strategies import wrappers as stacks
from strategies.inputs import directions
from strategies.opspec import OPS
from strategies.python_control import control_programs, path, render, run, takes_then
from tests import cases


def control_cases(**options):
    """`control_programs` whose straight-line parts use the operations the SUT supports
    (read when drawing, as `cases.program_cases` does); no constructs: the control
    flow under test is Python's own."""
    return st.deferred(lambda: control_programs(
        ops=tuple(name for name in cases.VOCABULARY if name in OPS), **options))


def _shapes(arrays):
    return [a.shape for a in arrays]


def _experiment(case, wrapper, title, **kwargs):
    return experiment(case, wrapper, title, function=render(case.program), **kwargs)


def path_derivative(case, direction, *, steps=FD_STEPS + FD_STEPS_SHARP) -> finite_diff.Estimate:
    """Finite differences of the path `f` takes, with steps at which no perturbed point
    takes the other branch.

    The threshold sits at least `MARGIN` from the predicate's value by
    construction; a predicate that moves faster than that (a sum over 125
    elements) needs a smaller step, as a kink does.  A threshold every step
    crosses is the generator's fault, reported loudly.
    """
    branch = takes_then(case.program, case.args)

    def safe(h):
        return all(takes_then(case.program, [x + k * h * v for x, v in zip(case.args, direction)])
                   == branch for k in (1, -1, 0.5, -0.5))

    steps = tuple(filter(safe, steps))
    if not steps:
        raise GeneratorBug(f"every finite-difference step crosses the threshold of the "
                           f"`if`:\n{render(case.program)}")
    return finite_diff.directional(path(case.program, branch), case.args, direction,
                                   steps=steps)


@st.composite
def jvp_control_cases(draw):
    case = draw(control_cases(), label="control program")
    return case, draw(directions(_shapes(case.args)), label="tangents")


@pytest.mark.needs("jvp")
@given(drawn=jvp_control_cases())
def test_jvp_follows_python_control_flow(sut, reference, drawn):
    case, tangents = drawn
    exp = _experiment(case, stacks.jvp(case.program), "jvp(f, x, t)",
                      inputs=cases.inputs_of(case, t=tangents))
    primal = run(case.program, case.args)
    estimate = path_derivative(case, tangents)
    zeros = [0 * p for p in primal]
    expected = [Expectation((*primal, *estimate.value),
                            "NumPy float64 and central finite differences of the branch taken",
                            FINITE_DIFFERENCES, error=(*zeros, *estimate.error))]
    if reference:
        expected.append(Expectation(on_reference(reference, exp), reference.describe(), EXACT))
    verify(sut, exp, *expected)


@st.composite
def grad_control_cases(draw):
    case = draw(control_cases(), label="control program")
    nums = draw(cases.argnums(len(case.args)), label="argnums")
    chosen = nums if isinstance(nums, tuple) else (nums,)
    weights = draw(directions(_shapes(case.program.outputs)), label="loss weights")
    along = draw(directions([case.args[i].shape for i in chosen]), label="directions")
    full = [np.zeros_like(x) for x in case.args]
    for position, v in zip(chosen, along):
        full[position] = v
    return case, nums, weights, along, full


@pytest.mark.needs("grad")
@given(drawn=grad_control_cases())
def test_grad_follows_python_control_flow(sut, reference, drawn):
    case, argnums, weights, along, full = drawn
    constants = stacks.named("w", weights)
    estimate = path_derivative(case, full)
    directional = _experiment(case, stacks.grad_along(case.program, argnums), "<grad loss, v>",
                              inputs=cases.inputs_of(case, v=along), constants=constants)
    slope = finite_diff.inner(weights, estimate.value)
    error = finite_diff.inner_error(weights, estimate.error)
    verify(sut, directional, Expectation(
        (slope,), "central finite differences of loss along v, on the branch taken",
        FINITE_DIFFERENCES, error=(error,)))
    if reference:
        whole = _experiment(case, stacks.grad(case.program, argnums), "grad(loss)",
                            constants=constants)
        verify(sut, whole, Expectation(on_reference(reference, whole), reference.describe(),
                                       EXACT))


@st.composite
def vjp_control_cases(draw):
    case = draw(control_cases(), label="control program")
    cotangents = draw(directions(_shapes(case.program.outputs)), label="cotangents")
    return case, cotangents, draw(directions(_shapes(case.args)), label="directions")


@pytest.mark.needs("vjp")
@given(drawn=vjp_control_cases())
def test_vjp_follows_python_control_flow(sut, reference, drawn):
    case, cotangents, along = drawn
    estimate = path_derivative(case, along)
    directional = _experiment(case, stacks.vjp_along(case.program), "<vjp(u), v>",
                              inputs=cases.inputs_of(case, u=cotangents, v=along))
    expected = finite_diff.inner(cotangents, estimate.value)
    error = finite_diff.inner_error(cotangents, estimate.error)
    verify(sut, directional, Expectation(
        (expected,), "<u, J v> by central finite differences, on the branch taken",
        FINITE_DIFFERENCES, error=(error,)))
    if reference:
        whole = _experiment(case, stacks.vjp(case.program), "vjp(f, x)(u)",
                            inputs=cases.inputs_of(case, u=cotangents))
        verify(sut, whole, Expectation(on_reference(reference, whole), reference.describe(),
                                       EXACT))


@st.composite
def vmap_control_cases(draw):
    """A control program whose predicate reads only unbatched inputs (in_axes None)."""
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(control_cases(variants=size), label="control program")
    axes, batched = cases.draw_batch(draw, case)
    return case, axes, cases.draw_out_axes(draw, case), batched


@pytest.mark.needs("vmap")
@given(drawn=vmap_control_cases())
def test_vmap_branches_on_an_unbatched_value(sut, reference, drawn):
    case, in_axes, out_axes, batched = drawn
    exp = _experiment(case, stacks.vmap(case.program, in_axes, out_axes),
                      f"vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})",
                      inputs=stacks.named("x", batched))
    per_variant = [run(case.program, args) for args in case.variants]
    stacked = tuple(np.stack(outs, axis=out_axes) for outs in zip(*per_variant))
    expected = [Expectation(stacked, f"NumPy float64 on each of {len(case.variants)} batch "
                                     f"elements, stacked on axis {out_axes}", EXACT)]
    if reference:
        expected.append(Expectation(on_reference(reference, exp), reference.describe(), EXACT))
    verify(sut, exp, *expected)


def at_both_thresholds(control, name: str, fun: str) -> stacks.Wrapper:
    """`name(x.., c0, c1)`: `g = fun`, then g at c0 (then branch) and at c1 (else branch)."""
    xs = stacks.names("x", len(control.inputs))
    params = ", ".join([*xs, "c0", "c1"])
    calls = [f"g({', '.join([*xs, c])})" for c in ("c0", "c1")]
    source = f"def {name}({params}):\n    g = {fun}\n    return {', '.join(calls)}\n"
    return stacks.Wrapper(source, f"{name}({params})")


BRANCH_ON_TRACER = ("f's Python `if` reads a value computed from jit's traced arguments; "
                    "jit must refuse it (JAX raises TracerBoolConversionError), not follow "
                    "one branch for every input")


@pytest.mark.needs("jit")
@given(case=control_cases(threshold_parameter=True))
def test_jit_refuses_a_python_branch_on_a_traced_value(sut, case):
    """Eager f takes each branch (c0: then, c1: else); jit(f) must raise instead."""
    c_then, c_else = case.thresholds
    inputs = cases.inputs_of(case) | {"c0": np.asarray(c_then), "c1": np.asarray(c_else)}
    expected = Expectation((*run(case.program, case.args, c_then),
                            *run(case.program, case.args, c_else)),
                           "NumPy float64 at c0 (then branch) and at c1 (else branch)", EXACT)
    eager = at_both_thresholds(case.program, "eager", "f")
    jitted = at_both_thresholds(case.program, "check", "sut.jit(f)")
    both = eager.source + "\n\n" + jitted.source  # one module: the control vouches for it
    verify(sut, _experiment(case, eager._replace(source=both), "f(x, c0), f(x, c1)",
                            inputs=inputs), expected)
    verify_raises(sut, _experiment(case, jitted._replace(source=both),
                                   "g = jit(f); g(x, c0), g(x, c1)", inputs=inputs),
                  BRANCH_ON_TRACER, context=expected)

