"""`vmap` equals a loop over the batch followed by a stack along `out_axes`.

The loop runs the SUT's own unbatched `f`, so this property isolates
batching: a wrong value of `f` itself is `test_value`'s to find.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.batching import looped
from oracles.experiment import case_experiment
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import verify
from strategies import wrappers
from strategies.cases import vmap_cases


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_matches_loop_and_stack(sut, vocabulary, data):
    drawn = data.draw(vmap_cases(vocabulary), label="drawn")
    case, in_axes, out_axes, batched = drawn
    exp = case_experiment(case, wrappers.vmap(case.program, in_axes, out_axes),
                          f"vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})",
                          inputs=wrappers.named("x", batched))
    origin = f"f applied to each of {len(case.variants)} batch elements, stacked on axis {out_axes}"
    verify(sut, exp, Expectation(looped(sut, case, out_axes), origin, EXACT))
