"""`jvp` against the program's value, central finite differences, and the reference."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT, FINITE_DIFFERENCES
from oracles.verify import experiment, on_reference, verify
from strategies import wrappers as stacks
from strategies.cases import inputs_of, jvp_cases
from strategies.evaluation import evaluate


def jvp_experiment(drawn):
    case, tangents = drawn
    return experiment(case, stacks.jvp(case.program), "jvp(f, x, t)",
                      inputs=inputs_of(case, t=tangents))


@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_matches_finite_differences_and_reference(sut, reference, vocabulary, data):
    drawn = data.draw(jvp_cases(vocabulary), label="drawn")
    check_jvp(sut, reference, drawn)


def check_jvp(sut, reference, drawn):
    """jvp's primal and tangent against finite differences and the reference."""
    __tracebackhide__ = True
    case, tangents = drawn
    exp = jvp_experiment(drawn)
    primal = evaluate(case.program, case.args)
    estimate = finite_diff.directional(case.program, case.args, tangents)
    zeros = [0 * p for p in primal]
    expected = [Expectation((*primal, *estimate.value), "central finite differences (Richardson)",
                            FINITE_DIFFERENCES, error=(*zeros, *estimate.error))]
    if reference:
        expected.append(Expectation(on_reference(reference, exp), reference.describe(), EXACT))
    verify(sut, exp, *expected)
