"""Long chains: programs of 100-200 equations under jvp and grad.

Rounding grows with length and JAX compiles each new long program for a
while, so these run only under `--hypothesis-profile=slow`; the tolerances
are those of the short programs (finite differences carry their own error
estimate; the reference comparison is float64 rounding, far below EXACT).
"""

import pytest
from hypothesis import given

from tests.cases import grad_cases, jvp_cases
from tests.test_grad import check_grad
from tests.test_jvp import check_jvp

LONG = dict(min_eqns=100, max_eqns=200)


@pytest.mark.slow
@pytest.mark.needs("jvp")
@given(drawn=jvp_cases(**LONG))
def test_jvp_of_long_programs(sut, reference, drawn):
    check_jvp(sut, reference, drawn)


@pytest.mark.slow
@pytest.mark.needs("grad")
@given(drawn=grad_cases(**LONG))
def test_grad_of_long_programs(sut, reference, drawn):
    check_grad(sut, reference, drawn)
