"""`jvp` against the program's value, central finite differences, and the reference."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.derivatives import check_jvp
from strategies.cases import jvp_cases


@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_matches_finite_differences_and_reference(sut, reference, vocabulary, data):
    """jvp of a drawn program matches its value, central finite differences and the reference."""
    case, tangents = data.draw(jvp_cases(vocabulary), label="drawn")
    check_jvp(sut, reference, case, tangents)
