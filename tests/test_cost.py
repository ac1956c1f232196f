"""Cost: derivatives within a constant factor of f, linear growth, linear staging.

Work is counted by one model (`oracles/cost.py`) in the IR the SUT stages
with `make_jaxpr`; the constants and their reasons are in
`oracles/tolerance.py`.  SUTs without `make_jaxpr` get the timing fallback:
the same growth families, timed by medians in this process.  Broken SUTs
that these properties catch: `tests/meta/test_cost_catches.py`.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import cost
from oracles.tolerance import (
    C_GRAD,
    C_GRAD_REFIMPL,
    C_JVP,
    C_JVP_REFIMPL,
    GROWTH_LINEAR,
    SLACK_FIXED,
    TIMING_FACTOR,
    TIMING_GROWTH,
    TIMING_REPEATS,
)
from strategies.cases import program_cases

GROWTH_FAMILIES = list(cost.FAMILIES)
TRACING_N = 32

# Every Works measured by the ratio properties, when a caller (bench/cost_report.py)
# sets this to a list: the report shows the distribution of the very programs
# the properties judge.
RECORD: list | None = None


def c_jvp(sut) -> float:
    return C_JVP_REFIMPL if sut.name == "refimpl" else C_JVP


def c_grad(sut) -> float:
    """refimpl is held to its own target; every other SUT to the cheap gradient principle."""
    return C_GRAD_REFIMPL if sut.name == "refimpl" else C_GRAD


def _measure(sut, case) -> cost.Works:
    works = cost.program_works(sut, case)
    if RECORD is not None:
        RECORD.append(works)
    return works


def _with_program(check, case):
    try:
        check()
    except cost.CostTooHigh as exc:
        exc.add_note("the program, its loss and the transformations staged:\n"
                     + cost.program_source(case))
        raise


@pytest.mark.needs("make_jaxpr", "grad", "jvp")
@given(data=st.data())
def test_grad_and_jvp_work_within_constant_factors_of_f(sut, vocabulary, data):
    case = data.draw(program_cases(vocabulary, reverse=True), label="case")
    works = _measure(sut, case)
    what = f"{sut.name}, {len(case.program.eqns)}-equation program"
    _with_program(lambda: cost.assert_bounded(
        "grad loss", works.grad, works.loss, c_grad(sut), SLACK_FIXED + works.input_elements,
        f"{what}; f = loss, slack = {SLACK_FIXED} + gradient elements"), case)
    _with_program(lambda: cost.assert_bounded(
        "jvp f", works.jvp, works.f, c_jvp(sut), SLACK_FIXED + works.output_elements,
        f"{what}; slack = {SLACK_FIXED} + tangent elements"), case)


@pytest.mark.needs("make_jaxpr", "grad")
@pytest.mark.parametrize("family", GROWTH_FAMILIES)
def test_grad_work_grows_linearly(sut, family):
    cost.assert_linear_growth(cost.growth(sut, family), GROWTH_LINEAR, sut.name)


@pytest.mark.needs("grad")
@pytest.mark.parametrize("family", GROWTH_FAMILIES)
def test_grad_time_grows_linearly_without_make_jaxpr(sut, family):
    if sut.supports("make_jaxpr"):
        pytest.skip(f"{sut.name} has make_jaxpr: test_grad_work_grows_linearly counts its "
                    "work exactly, so the timing fallback is not needed")
    result = cost.timed_growth(sut, family, TIMING_FACTOR, TIMING_REPEATS)
    cost.assert_linear_growth(result, TIMING_GROWTH, sut.name)


@pytest.mark.needs("make_jaxpr")
def test_staging_is_linear_in_program_length(sut):
    result = cost.tracing_growth(sut, TRACING_N)
    cost.assert_linear_growth(result, GROWTH_LINEAR, sut.name)
    equations = result.forward[1] / result.forward[0]
    assert equations <= GROWTH_LINEAR, (
        f"the staged program grew by {equations:.2f}, but should at most double "
        f"[{sut.name}: {result.describe()}]")
