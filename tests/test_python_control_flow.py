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
from strategies import cases
from strategies import wrappers as stacks
from strategies.control_cases import (
    control_cases,
    grad_control_cases,
    jvp_control_cases,
    vjp_control_cases,
    vmap_control_cases,
)
from strategies.python_control import path, render, run, takes_then


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


@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_follows_python_control_flow(sut, reference, vocabulary, data):
    drawn = data.draw(jvp_control_cases(vocabulary), label="drawn")
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


@pytest.mark.needs("grad")
@given(data=st.data())
def test_grad_follows_python_control_flow(sut, reference, vocabulary, data):
    drawn = data.draw(grad_control_cases(vocabulary), label="drawn")
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


@pytest.mark.needs("vjp")
@given(data=st.data())
def test_vjp_follows_python_control_flow(sut, reference, vocabulary, data):
    drawn = data.draw(vjp_control_cases(vocabulary), label="drawn")
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


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_branches_on_an_unbatched_value(sut, reference, vocabulary, data):
    drawn = data.draw(vmap_control_cases(vocabulary), label="drawn")
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
@given(data=st.data())
def test_jit_refuses_a_python_branch_on_a_traced_value(sut, vocabulary, data):
    """Eager f takes each branch (c0: then, c1: else); jit(f) must raise instead."""
    case = data.draw(control_cases(vocabulary, threshold_parameter=True), label="case")
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

