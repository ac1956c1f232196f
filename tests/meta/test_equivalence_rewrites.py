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
from strategies.language.ir import Block, Eqn, Var, prune
from strategies.language.render import render_function
from strategies.program import Program, ProgramCase, programs

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


def _nested_loops() -> ProgramCase:
    """A fori_loop whose body runs a fori_loop: both bodies call their counter `i`."""
    i, a0, b0 = Var("i", ()), Var("a0", ()), Var("b0", ())
    c0, c1, d0 = Var("c0", ()), Var("c1", ()), Var("d0", ())
    inner = Block("body1", (i, b0), (_eqn("add", (b0, i), d0),), (d0,))
    outer = Block("body0", (i, a0), (_eqn("fori_loop", (a0,), c0, trips=3, body=inner),
                                     _eqn("add", (c0, i), c1)), (c1,))
    x0, v0 = Var("x0", ()), Var("v0", ())
    program = Program((x0,), (_eqn("fori_loop", (x0,), v0, trips=2, body=outer),), (v0,))
    args = (np.float64(0.25),)
    return ProgramCase(program, args, (args,), (False,))


@given(data=st.data())
@settings(max_examples=3, deadline=None)
def test_unrolling_a_loop_leaves_the_counter_of_a_loop_inside_it_alone(data):
    """The inner body binds its own `i`: unrolling the outer loop must not make it a
    literal.  Where it did, a nested fori_loop computed other values, and a nested
    while_loop, whose counter then never moved, ran forever (seen in `thorough`)."""
    apply_everywhere(data, _nested_loops(), "loop_unroll")


def test_a_while_loop_whose_body_does_not_count_raises_rather_than_hangs():
    """The generator's NumPy meaning of a while_loop stops one step past its trips: the
    renaming bug above made a body that never counted, and the run hung for an hour
    with nothing to say where."""
    count, a0, a1 = Var("count", ()), Var("a0", ()), Var("a1", ())
    body = Block("body0", (count, a0), (_eqn("add", (a0, 1.0), a1),), (count, a1), packed=True)
    x0, v0 = Var("x0", ()), Var("v0", ())
    program = Program((x0,), (_eqn("while_loop", (x0,), v0, trips=2, body=body),), (v0,))
    with pytest.raises(RuntimeError, match="does not count"):
        values_at(program, (np.float64(0.25),))
