"""The program's value on the SUT equals its NumPy float64 value and the reference's."""

from hypothesis import given

from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import experiment, on_reference, verify
from strategies import wrappers as stacks
from strategies.evaluation import evaluate
from tests.cases import program_cases


@given(case=program_cases())
def test_value_matches_numpy_and_reference(sut, reference, case):
    exp = experiment(case, stacks.value(case.program), "f(x)")
    expected = [Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)]
    if reference:
        expected.append(Expectation(on_reference(reference, exp), reference.describe(), EXACT))
    verify(sut, exp, *expected)
