"""Every rewrite of `strategies/equivalences.py` turns a program into an equal one.

The property (`tests/test_equivalences.py`) checks each rewritten program in
NumPy before the SUT sees it, but draws the rare rewrites rarely (a chain of
two matmuls is in 0.1% of its programs).  Here every row is applied at every
site of a program where it applies: a hand-made program holds the patterns
drawn programs seldom do, and drawn programs the loops, closures and
conds.  Each result must equal the original at its inputs and render.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from strategies.equivalences import REWRITES, Names, check_identity, values_at
from strategies.ir import Eqn, Var, prune
from strategies.program import Program, ProgramCase, programs
from strategies.render import render_function

pytestmark = pytest.mark.meta


def _eqn(op, args, out, **params):
    return Eqn(op, tuple(args), tuple(params.items()), out, "call")


def _patterns() -> ProgramCase:
    """(x0 @ x1) @ x2, a square, a rank-2 dot, maximum, where, powers, a division."""
    x0, x1, x2 = Var("x0", (2, 3)), Var("x1", (3, 4)), Var("x2", (4, 2))
    v = [Var(f"v{i}", (2, 2)) for i in range(9)]
    v[0] = Var("v0", (2, 4))
    eqns = (_eqn("matmul", (x0, x1), v[0]), _eqn("matmul", (v[0], x2), v[1]),
            _eqn("multiply", (v[1], v[1]), v[2]), _eqn("dot", (v[2], v[1]), v[3]),
            _eqn("maximum", (v[3], 0.5), v[4]), _eqn("where", (v[4], v[1], v[4], v[3]), v[5],
                                                     cmp="greater"),
            _eqn("integer_pow", (v[5],), v[6], n=3), _eqn("divide", (v[6], 2.0), v[7]),
            _eqn("subtract", (v[7], v[2]), v[8]))
    program = Program((x0, x1, x2), eqns, (v[8],))
    rng = np.random.default_rng(0)
    args = tuple(rng.uniform(-1, 1, x.shape) for x in program.inputs)
    return ProgramCase(program, args, (args,), (False,) * 3)


PATTERNS = _patterns()
HAND_MADE = [name for name, row in REWRITES.items() if row.sites(PATTERNS.program)]


def apply_everywhere(data, case: ProgramCase, name: str) -> None:
    row = REWRITES[name]
    for site in row.sites(case.program):
        values = values_at(case.program, case.args)
        rewritten = prune(row.apply(data.draw, case.program, site, values, Names(case.program)))
        check_identity(case, rewritten, [name])
        render_function(rewritten, "f_rewritten")


def test_the_hand_made_program_holds_the_rare_patterns():
    assert {"matmul_reassociate", "product_as_power", "dot_as_matmul", "mirror_comparison",
            "maximum_as_where", "power_as_product", "divide_as_reciprocal",
            "subtract_as_add"} <= set(HAND_MADE)


@pytest.mark.parametrize("name", HAND_MADE)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_rewrite_of_the_hand_made_program_is_equal(name, data):
    apply_everywhere(data, PATTERNS, name)


@pytest.mark.parametrize("name", [name for name in REWRITES if name not in HAND_MADE])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_a_rewrite_of_a_drawn_program_is_equal(name, data):
    case = data.draw(programs(max_eqns=8), label="program")
    assume(REWRITES[name].sites(case.program))
    apply_everywhere(data, case, name)
