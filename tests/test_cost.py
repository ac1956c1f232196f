"""Cost: derivatives within a constant factor of f, linear growth, linear staging.

Work is counted by one model (`oracles/cost.py`) in the IR the SUT stages
with `make_jaxpr`; the bounds and their reasons are in
`oracles/cost_bounds.py`.  SUTs without `make_jaxpr` get the timing fallback:
the same growth families, timed in this process.  Broken SUTs
that these properties catch: `tests/meta/test_cost_catches.py`.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import cost
from oracles.cost_bounds import (
    GROWTH_LINEAR,
    TIMING_FACTOR,
    TIMING_GROWTH,
    TIMING_REPEATS,
    TIMING_ROUNDS,
)
from strategies.cases import program_cases

GROWTH_FAMILIES = list(cost.FAMILIES)
TRACING_N = 32


@pytest.fixture(scope="session")
def record_works():
    """Where the ratio property reports each `cost.Works` it measures: nowhere under
    pytest; `bench/cost_report.py` calls the property with a list's `append`, so its
    table shows the very programs the property judges.  (Session-scoped: Hypothesis
    refuses function-scoped fixtures in a property.)"""
    return None


@pytest.mark.needs("make_jaxpr", "grad", "jvp")
@given(data=st.data())
def test_grad_and_jvp_work_within_constant_factors_of_f(sut, vocabulary, data, record_works):
    """grad and jvp of a drawn program stage within a constant factor of the program's work."""
    case = data.draw(program_cases(vocabulary, reverse=True), label="case")
    cost.check_constant_factors(sut, case, record=record_works)


@pytest.mark.needs("make_jaxpr", "grad")
@pytest.mark.parametrize("family", GROWTH_FAMILIES)
def test_grad_work_grows_linearly(sut, family):
    """The work grad stages (make_jaxpr's equations) grows linearly with the program."""
    cost.assert_linear_growth(cost.growth(sut, family), GROWTH_LINEAR, sut.name)


@pytest.mark.needs("grad")
@pytest.mark.parametrize("family", GROWTH_FAMILIES)
def test_grad_time_grows_linearly_without_make_jaxpr(sut, family):
    """Without make_jaxpr, the time grad takes grows linearly with the program."""
    if sut.supports("make_jaxpr"):
        pytest.skip(f"{sut.name} has make_jaxpr: test_grad_work_grows_linearly counts its "
                    "work exactly, so the timing fallback is not needed")
    result = cost.timed_growth(sut, family, TIMING_FACTOR, TIMING_REPEATS, TIMING_GROWTH,
                               TIMING_ROUNDS)
    cost.assert_linear_growth(result, TIMING_GROWTH, sut.name)


@pytest.mark.needs("make_jaxpr")
def test_staging_is_linear_in_program_length(sut):
    """Staging a program with make_jaxpr costs Python calls and equations linear in its length."""
    result = cost.tracing_growth(sut, TRACING_N)
    cost.assert_linear_growth(result, GROWTH_LINEAR, sut.name)
    equations = result.forward[1] / result.forward[0]
    assert equations <= GROWTH_LINEAR, (
        f"the staged program grew by {equations:.2f}, but should at most double "
        f"[{sut.name}: {result.describe()}]")
