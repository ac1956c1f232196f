"""Dtypes: float32 in, float32 out, through every transformation; float32 with
float64 promotes to float64, and a derivative has its primal's dtype; an
integer argument is left out of grad and mapped by vmap.

A drawn stack of up to two transformations (`strategies/stacks.py`) runs
on inputs of drawn dtypes, and each output's dtype is held to the one the
contract says (`strategies/dtypes.py`, judged by `oracles/dtypes.py`).  The
values of float32 computations are judged where every stack is
(tests/test_stacks.py, a float32 example in two); a float32 result returned
as float64 passes every comparison of values, and fails here.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.dtypes import check_dtypes
from oracles.experiment import case_experiment
from oracles.reference import referee
from oracles.reproducer import Expectation
from oracles.stack_layers import stage_experiment
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_agrees
from strategies import stacks, wrappers
from strategies.cases import inputs_of, program_cases
from strategies.dtypes import (
    FLOAT32,
    FLOAT64,
    mixed_dtypes,
    mixed_programs,
    promoting,
    stack_in_dtypes,
)
from strategies.language.evaluation import evaluate
from strategies.language.inputs import directions
from strategies.wrappers import named
from tests.test_stacks import supported_layers


def _check(sut, stack, dtypes, why: str) -> None:
    stack, expected = stack_in_dtypes(stack, dtypes)
    top = len(stack.layers)
    call = f"g{top}({', '.join(stack.inputs)})"
    check_dtypes(sut, stage_experiment(stack, top, "", call, stacks.title(stack, top),
                                       stack.inputs), expected, why)


@pytest.mark.needs("float32")
@given(data=st.data())
def test_float32_inputs_give_float32_results_through_every_transformation(
        sut, vocabulary, data):
    """A stack of up to two transformations over float32 inputs returns float32."""
    stack = data.draw(stacks.stack_cases(stacks.stack_programs(vocabulary),
                                         kinds=supported_layers(sut), max_layers=2),
                      label="stack")
    _check(sut, stack, [FLOAT32] * len(stack.case.args),
           "float32 inputs give float32 results, derivatives included")


@pytest.mark.needs("float32")
@given(data=st.data())
def test_float32_with_float64_promotes_and_derivatives_keep_their_primals_dtype(
        sut, vocabulary, data):
    """float32 with float64 promotes to float64, and a derivative has its primal's dtype.

    Inputs of both dtypes (x0 float32, another float64), through a stack of
    up to two transformations."""
    stack = data.draw(stacks.stack_cases(mixed_programs(promoting(vocabulary)),
                                         kinds=supported_layers(sut), max_layers=2),
                      label="stack")
    dtypes = data.draw(mixed_dtypes(len(stack.case.args)), label="dtypes")
    _check(sut, stack, dtypes, "float32 with float64 promotes to float64 as in JAX; "
                               "a tangent, cotangent or gradient has its primal's dtype")


@pytest.mark.needs("jit", "float32")
@given(data=st.data())
def test_one_jit_compiles_again_for_float32_inputs(sut, vocabulary, data):
    """One jit(f) compiles again for float32 inputs: each result has its inputs' dtype.

    Called on float64 inputs, then on the same values in float32, each result
    also has the value of f there."""
    case = data.draw(program_cases(vocabulary), label="case")
    narrow = [np.asarray(x, np.float32) for x in case.args]
    exp = case_experiment(case, wrappers.jit_twice(case.program),
                          "one jit(f) on float64 inputs, then on float32 ones",
                          inputs=inputs_of(case, y=narrow))
    outputs = len(case.program.outputs)
    check_dtypes(sut, exp, (FLOAT64,) * outputs + (FLOAT32,) * outputs,
                 "a jitted function compiles again for inputs of another dtype")
    expected = (*evaluate(case.program, case.args), *evaluate(case.program, narrow))
    verify(sut, exp, Expectation(expected, "NumPy float64 at each set of inputs", EXACT))


@pytest.mark.needs("grad", "vmap", "jit", "integer_arguments")
@given(data=st.data(), ns=st.lists(st.sampled_from([2, -1, 3, 1, -2]), min_size=2, max_size=3))
def test_an_integer_argument_is_left_out_of_grad_and_mapped_by_vmap(
        sut, reference, vocabulary, data, ns):
    """An integer argument n is left out of grad, mapped by vmap, passed by jit.

    vmap over n of jit(grad) of n * loss by every x but n is n times grad of
    the loss, for each n (JAX gives n a float0 tangent; the contract never
    asks for one)."""
    case = data.draw(program_cases(vocabulary, reverse=True), label="case")
    weights = data.draw(directions([out.shape for out in case.program.outputs]), label="w")
    batched, looped = wrappers.integer_argument_sides(case.program)
    inputs = inputs_of(case) | {"ns": np.array(ns)}
    exp = case_experiment(case, batched, "vmap over n of jit(grad(n * loss)), by x only",
                          inputs=inputs, constants=named("w", weights))
    verify_agrees(sut, exp, looped.call, f"n times grad(loss) for each n on {sut.name}",
                  EXACT, referee(reference, exp, EXACT))
