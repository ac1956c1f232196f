"""`jit` is the identity on values: jitted equals eager, across values, shapes and static
arguments."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.experiment import case_experiment
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.values import check_jit
from oracles.verify import verify, verify_returns
from strategies import wrappers
from strategies.cases import inputs_of, program_cases, two_shape_cases
from strategies.language.evaluation import evaluate


@pytest.mark.needs("jit")
@given(data=st.data())
def test_jit_matches_eager_and_numpy(sut, vocabulary, data):
    """One jit(f) at two inputs of one shape equals f run eagerly on the SUT, and NumPy, at each."""
    check_jit(sut, data.draw(program_cases(vocabulary, variants=2), label="case"))


@pytest.mark.needs("jit")
@given(data=st.data())
def test_jit_retraces_for_a_new_shape(sut, vocabulary, data):
    """One jit(f) called on two shapes gives the right value at each."""
    drawn = data.draw(two_shape_cases(vocabulary), label="drawn")
    case, bigger = drawn
    exp = case_experiment(case, wrappers.jit_twice(case.program), "one jit(f) on two shapes",
                          inputs=inputs_of(case, y=bigger))
    expected = (*evaluate(case.program, case.args), *evaluate(case.program, bigger))
    verify(sut, exp, Expectation(expected, "NumPy float64 on each shape", EXACT))


@pytest.mark.needs("jit")
@given(data=st.data(), ks=st.sampled_from([(2.0, 3.0), (-1.0, 0.5)]))
def test_jit_retraces_for_a_new_static_argument(sut, vocabulary, data, ks):
    """One jit(f) with a static argument gives the right value for each of two of its values."""
    case = data.draw(program_cases(vocabulary), label="case")
    eager = case_experiment(case, wrappers.eager_static(case.program, ks), "eager")
    expected = tuple(np.asarray(v) for v in verify_returns(sut, eager, "f eagerly with each k"))
    exp = case_experiment(case, wrappers.jit_static(case.program, ks),
                          f"jit(scaled, static_argnums) with k={ks[0]!r} then k={ks[1]!r}")
    verify(sut, exp, Expectation(expected, f"{sut.name} eager, each k", EXACT))
