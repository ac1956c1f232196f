"""Broken SUT: at a tie, maximum's tangent is zero (neither operand's tangent is taken).

The rule selects `t_x` where `x > y` and `t_y` where `y > x`, and zero in
between, as if a tie were a flat spot: `maximum(x, x)` then has derivative 0
where `x` has 1.  Finite differences never see it (the generator keeps
maximum's operands apart); the equivalent-programs property does (`x`
against `maximum(x, x)`, tests/test_equivalences.py).  Built over refimpl:
`numpy.maximum` binds a copy of refimpl's `max` primitive with this rule.

Family: kink.  Smallest input: `jvp(lambda x: numpy.maximum(x, x), (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import instantiate, jvp_rules
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(lambda x: numpy.maximum(x, x), (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

max_p = elementwise_copy(P.max_p)


def _max_jvp(primals, tangents):
    x, y = primals
    tx, ty = (instantiate(t, p) for t, p in zip(tangents, primals))
    at_tie = ops.zeros(aval_of(tx))  # correct: a weighted mean of tx and ty
    return bind(max_p, x, y), ops.select_n(ops.gt(x, y), ops.select_n(ops.gt(y, x), at_tie, ty),
                                           tx)


jvp_rules[max_p] = _max_jvp

numpy = refimpl_numpy_with(maximum=bound_elementwise(max_p, "maximum"))
