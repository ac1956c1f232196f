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


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_branches_on_an_unbatched_value(sut, reference, vocabulary, data):
    """vmap of f that branches in Python on an unbatched value equals a loop over the batch."""
    drawn = data.draw(vmap_control_cases(vocabulary), label="drawn")
    case, in_axes, out_axes, batched = drawn
    exp = _experiment(case, wrappers.vmap(case.program, in_axes, out_axes),
                      f"vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})",
                      inputs=wrappers.named("x", batched))
    per_variant = [run(case.program, args) for args in case.variants]
    by_loop = Expectation(stacked(per_variant, out_axes),
                          f"NumPy float64 on each of {len(case.variants)} batch elements, "
                          f"stacked on axis {out_axes}", EXACT)
    verify(sut, exp, by_loop, *from_reference(reference, exp))


BRANCH_ON_TRACER = ("f's Python `if` reads a value computed from jit's traced arguments; "
                    "jit must refuse it (JAX raises TracerBoolConversionError), not follow "
                    "one branch for every input")


@pytest.mark.needs("jit", "jit_staging")
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

