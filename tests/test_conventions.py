"""The contract's conventions at kinks and domain edges (docs/sut-api.md).

Each row of `strategies.language.conventions.CONVENTIONS` is a function evaluated on
its kink or edge: `maximum` and `minimum` at a tie, `max`, `min` and `ptp` over an
axis at a tie, `sort`, `median` and `quantile` at a tie, `prod` and `cumprod`
at a zero, `clip` at its bounds,
`abs` and `sign` at 0, `where` with its predicate at a tie and with a
non-finite derivative on the side not taken, `x ** n` at 0 for n = 0..3,
`sqrt` and `log` at 0.  Under jvp and vjp (jitted or not), the SUT's value
and derivative must be the ones the contract states, NaN and infinities
included, and the reference's too where it follows the same convention
(`oracles/conventions.py`).  No finite difference is involved: these are
the points finite differences must avoid.

An SUT that follows another convention declares the row's feature in
`__sut_unsupported__` (the table's `feature`); the row is then skipped,
and the skip says why.  refimpl declares `tie_convention` (at a tie it
takes the second operand's tangent, one comparison cheaper than halving)
and `clip_convention`, which its clip, made of the two, follows.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.conventions import check_convention
from oracles.sut import features_in
from strategies.language.conventions import CONVENTIONS
from strategies.language.inputs import directions

MODES = ("jvp", "vjp")


def _skip_unless_followed(sut, row):
    if row.feature and not sut.supports(row.feature):
        pytest.skip(f"{sut.name} declares {row.feature}: it follows another convention for "
                    f"{row.what} than the contract's (docs/sut-api.md), which is not required "
                    "of it")
    lacking = [f for f in features_in(row.source) if not sut.supports(f)]
    if lacking:
        pytest.skip(f"{sut.name} declares {', '.join(lacking)} unsupported (__sut_unsupported__)")


# The rows evaluate at 0 on purpose (sqrt, log, x ** n, where's non-finite side):
# NumPy's divide-by-zero and invalid-value warnings there are the point, not news.
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.needs(m)) for m in MODES])
@pytest.mark.parametrize("name", list(CONVENTIONS))
@given(data=st.data())
def test_derivative_at_a_kink_follows_the_convention(sut, reference, name, mode, data):
    """At a kink or domain edge, value and derivative are the contract's, NaN and inf included."""
    row = CONVENTIONS[name]
    _skip_unless_followed(sut, row)
    inputs = data.draw(st.composite(row.inputs)(), label="inputs")
    shapes = ([x.shape for x in inputs] if mode == "jvp"
              else [y.shape for y in row.value(*inputs)])
    along = data.draw(directions(shapes), label="tangents" if mode == "jvp" else "cotangents")
    jitted = sut.supports("jit") and data.draw(st.booleans(), label="under jit")
    check_convention(sut, reference, row, mode, inputs, along, jitted)
