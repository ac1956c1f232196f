"""Long chains (100-200 live equations) under jvp and grad, and heavy sharing under grad.

A chain takes each result as the next equation's first operand, so every
equation reaches the output; under `sharing` one early result is also the
second operand of about half the binary operations (measured: a median of
14 uses, up to 30), so reverse mode must sum many cotangents into it.

Rounding grows with length and JAX compiles each new long program for a
while, so these run only under `--hypothesis-profile=slow`; the tolerances
are those of the short programs (finite differences carry their own error
estimate; the reference comparison is float64 rounding, far below EXACT).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.derivatives import check_grad, check_jvp
from strategies.cases import grad_cases, jvp_cases

LONG = dict(min_eqns=100, max_eqns=200, chain=True)


@pytest.mark.slow
@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_of_long_programs(sut, reference, vocabulary, data):
    """jvp of a chain of 100-200 equations matches finite differences and the reference."""
    drawn = data.draw(jvp_cases(vocabulary, **LONG), label="drawn")
    check_jvp(sut, reference, *drawn)


@pytest.mark.slow
@pytest.mark.needs("grad")
@given(data=st.data())
def test_grad_of_long_programs(sut, reference, vocabulary, data):
    """grad of a chain of 100-200 equations matches finite differences and the reference."""
    drawn = data.draw(grad_cases(vocabulary, **LONG), label="drawn")
    check_grad(sut, reference, *drawn)


@pytest.mark.slow
@pytest.mark.needs("grad")
@given(data=st.data())
def test_grad_of_heavily_shared_programs(sut, reference, vocabulary, data):
    """grad of a long chain whose early result feeds half its operations matches too."""
    drawn = data.draw(grad_cases(vocabulary, **LONG, sharing=True), label="drawn")
    check_grad(sut, reference, *drawn)
