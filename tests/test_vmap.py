"""`vmap` equals a loop over the batch followed by a stack along `out_axes`.

The loop runs the SUT's own unbatched `f`, so this property isolates
batching: a wrong value of `f` itself is `test_value`'s to find.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.batching import check_vmap
from strategies.cases import vmap_cases


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_matches_loop_and_stack(sut, vocabulary, data):
    """vmap equals a loop over the batch, stacked along out_axes."""
    drawn = data.draw(vmap_cases(vocabulary), label="drawn")
    check_vmap(sut, *drawn)
