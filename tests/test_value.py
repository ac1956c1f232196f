"""The program's value on the SUT equals its NumPy float64 value and the reference's."""

from hypothesis import given

from oracles.experiment import case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import verify
from strategies import stacks
from strategies.ir import evaluate
from tests.cases import program_cases


@given(case=program_cases())
def test_value_matches_numpy_and_reference(sut, reference, case):
    exp = case_experiment(case, stacks.value(case.program), "f(x)")
    by_numpy = Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)
    verify(sut, exp, by_numpy, *from_reference(reference, exp))
