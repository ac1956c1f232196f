"""Python control flow on concrete values: an `if` on a comparison, a `for` over a range.

`jvp`, `grad` and `vjp` run the user's Python on concrete values, so a
program may branch on them: each must agree with central finite differences
of the path the program takes (the branch is known by construction, the
loop unrolled; `strategies/python_control.py`) and with the reference.
`vmap` may branch on a value that is not batched.  `jit` must refuse to
branch on a traced value: raising is right, silently following one branch
is wrong (`tests/meta/test_broken_suts.py` shows a jit that does).

Two systems' conventions differ from JAX's here by design, and an SUT
declares them (`strategies/language/conventions.py`, `STAGING`): a `jit`
that stages a Python `if` as a conditional (`jit_stages_control_flow`,
TensorFlow's AutoGraph) must then take the branch each call's inputs
select, and a `vmap` that traces its function as a graph
(`vmap_stages_function`) must then raise on the `if`, never return.
"""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.batching import stacked
from oracles.derivatives import verify_grad, verify_jvp, verify_vjp
from oracles.experiment import case_experiment
from oracles.path_derivative import path_derivative
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_raises
from strategies import cases, wrappers
from strategies.control_cases import (
    at_both_thresholds,
    control_cases,
    grad_control_cases,
    jvp_control_cases,
    vjp_control_cases,
    vmap_control_cases,
)
from strategies.language.conventions import STAGING
from strategies.python_control import render, run


def _experiment(case, wrapper, title, **kwargs):
    return case_experiment(case, wrapper, title, function=render(case.program), **kwargs)


@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_follows_python_control_flow(sut, reference, vocabulary, data):
    """jvp through a Python `if` or `for` on concrete values is the path's derivative."""
    drawn = data.draw(jvp_control_cases(vocabulary), label="drawn")
    case, tangents = drawn
    exp = _experiment(case, wrappers.jvp(case.program), "jvp(f, x, t)",
                      inputs=cases.inputs_of(case, t=tangents))
    primal = run(case.program, case.args)
    estimate = path_derivative(case, tangents)
    verify_jvp(sut, reference, exp, primal, estimate,
               "NumPy float64 and central finite differences of the branch taken")


@pytest.mark.needs("grad")
@given(data=st.data())
def test_grad_follows_python_control_flow(sut, reference, vocabulary, data):
    """grad through a Python `if` or `for` on concrete values is the path's derivative."""
    drawn = data.draw(grad_control_cases(vocabulary), label="drawn")
    case, argnums, weights, along, full = drawn
    verify_grad(sut, reference, case, argnums, weights, along, path_derivative(case, full),
                "central finite differences of loss along v, on the branch taken",
                function=render(case.program))


@pytest.mark.needs("vjp")
@given(data=st.data())
def test_vjp_follows_python_control_flow(sut, reference, vocabulary, data):
    """vjp through a Python `if` or `for` on concrete values is the path's derivative."""
    drawn = data.draw(vjp_control_cases(vocabulary), label="drawn")
    case, cotangents, along = drawn
    verify_vjp(sut, reference, case, cotangents, along, path_derivative(case, along),
               "<u, J v> by central finite differences, on the branch taken",
               function=render(case.program))


STAGED_VMAP = STAGING["vmap_stages_function"]


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_branches_on_an_unbatched_value(sut, reference, vocabulary, data):
    """vmap of f that branches in Python on an unbatched value equals a loop over the batch.

    An SUT that declares `vmap_stages_function` raises instead, and f runs eagerly."""
    drawn = data.draw(vmap_control_cases(vocabulary), label="drawn")
    case, in_axes, out_axes, batched = drawn
    exp = _experiment(case, wrappers.vmap(case.program, in_axes, out_axes),
                      f"vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})",
                      inputs=wrappers.named("x", batched))
    per_variant = [run(case.program, args) for args in case.variants]
    by_loop = Expectation(stacked(per_variant, out_axes),
                          f"NumPy float64 on each of {len(case.variants)} batch elements, "
                          f"stacked on axis {out_axes}", EXACT)
    if sut.supports(STAGED_VMAP.feature):
        verify(sut, exp, by_loop, *from_reference(reference, exp))
        return
    eager = _experiment(case, wrappers.value(case.program), "f(x) at the first batch element")
    verify(sut, eager, Expectation(per_variant[0], "NumPy float64", EXACT))
    verify_raises(sut, exp, f"{sut.name} declares {STAGED_VMAP.feature}: vmap traces f as a "
                            "staged graph, so f's Python `if` on an unbatched value must "
                            "raise; a staged `if` that returns has guessed its branch",
                  context=by_loop)


BRANCH_ON_TRACER = ("f's Python `if` reads a value computed from jit's traced arguments; "
                    "jit must refuse it (JAX raises TracerBoolConversionError), not follow "
                    "one branch for every input")


STAGED_IF = STAGING["jit_stages_control_flow"]


@pytest.mark.needs("jit", "jit_staging")
@given(data=st.data())
def test_jit_refuses_a_python_branch_on_a_traced_value(sut, vocabulary, data):
    """Eager f takes each branch (c0: then, c1: else); jit(f) must raise instead.

    On an SUT that declares `jit_stages_control_flow`, jit(f) takes the same branches."""
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
    staged = _experiment(case, jitted._replace(source=both), "g = jit(f); g(x, c0), g(x, c1)",
                         inputs=inputs)
    if sut.supports(STAGED_IF.feature):
        verify_raises(sut, staged, BRANCH_ON_TRACER, context=expected)
    else:  # the `if` staged as a conditional takes the branch each call selects
        verify(sut, staged, replace(expected, origin=f"{expected.origin}, as {sut.name} "
                                                     f"declares {STAGED_IF.feature}"))

