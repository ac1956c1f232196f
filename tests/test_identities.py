"""Identities that tie the SUT's own transformations together.

`<u, J t> == <J^T u, t>`: the SUT's `jvp` and `vjp` must be adjoint.  This
needs no oracle at all, so it holds an SUT to account even with no
reference, and catches a transpose rule that disagrees with its JVP rule.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.reproducer import Expectation, attached, script
from oracles.tolerance import IDENTITY, Tolerance
from oracles.verify import experiment, verify
from strategies import stacks
from strategies.inputs import directions
from tests.cases import input_shapes_of, output_shapes_of, program_cases


@st.composite
def adjoint_cases(draw):
    case = draw(program_cases(reverse=True))
    tangents = draw(directions(input_shapes_of(case)), label="tangents")
    return case, tangents, draw(directions(output_shapes_of(case)), label="cotangents")


def _scaled(magnitude: float) -> Tolerance:
    """IDENTITY with its absolute part scaled by the size of the summed terms."""
    return Tolerance(IDENTITY.rtol, IDENTITY.atol * (1 + magnitude), IDENTITY.why)


@pytest.mark.needs("jvp", "vjp")
@given(drawn=adjoint_cases())
def test_jvp_and_vjp_are_adjoint(sut, drawn):
    case, tangents, cotangents = drawn
    inputs = {f"x{i}": x for i, x in enumerate(case.args)}
    inputs |= {f"t{i}": t for i, t in enumerate(tangents)}
    inputs |= {f"u{i}": u for i, u in enumerate(cotangents)}
    forward, backward = stacks.inner_product_sides(case.program)
    lhs = experiment(case, forward, "<u, jvp(f, x, t)>", inputs=inputs)
    rhs = experiment(case, backward, "<vjp(f, x)(u), t>", inputs=inputs)
    jt = finite_diff.directional(case.program, case.args, tangents).value
    tolerance = _scaled(finite_diff.inner([np.abs(u) for u in cotangents], [np.abs(v) for v in jt]))
    origin = "the SUT's own vjp: <J^T u, t>"
    with attached(lambda: script(lhs, sut.name, Expectation((0.0,), origin, tolerance,
                                                            source=rhs.call))):
        (expected,) = rhs.run(sut)
    verify(sut, lhs, Expectation((expected,), origin, tolerance, source=rhs.call))
