"""The program's value on the SUT equals its NumPy float64 value and the reference's."""

from hypothesis import given
from hypothesis import strategies as st

from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import experiment, on_reference, verify
from strategies import wrappers as stacks
from strategies.cases import program_cases
from strategies.evaluation import evaluate


@given(data=st.data())
def test_value_matches_numpy_and_reference(sut, reference, vocabulary, data):
    case = data.draw(program_cases(vocabulary), label="case")
    exp = experiment(case, stacks.value(case.program), "f(x)")
    expected = [Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)]
    if reference:
        expected.append(Expectation(on_reference(reference, exp), reference.describe(), EXACT))
    verify(sut, exp, *expected)
