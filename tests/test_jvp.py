"""`jvp` against the program's value, central finite differences, and the reference."""

import pytest
from hypothesis import given

from oracles.derivatives import check_jvp
from tests.cases import jvp_cases


@pytest.mark.needs("jvp")
@given(drawn=jvp_cases())
def test_jvp_matches_finite_differences_and_reference(sut, reference, drawn):
    case, tangents = drawn
    check_jvp(sut, reference, case, tangents)
