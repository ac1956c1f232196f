"""The program's value on the SUT equals its NumPy float64 value and the reference's."""

from hypothesis import given
from hypothesis import strategies as st

from oracles.experiment import case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import verify
from strategies import wrappers
from strategies.cases import program_cases
from strategies.evaluation import evaluate


@given(data=st.data())
def test_value_matches_numpy_and_reference(sut, reference, vocabulary, data):
    case = data.draw(program_cases(vocabulary), label="case")
    exp = case_experiment(case, wrappers.value(case.program), "f(x)")
    by_numpy = Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)
    verify(sut, exp, by_numpy, *from_reference(reference, exp))
