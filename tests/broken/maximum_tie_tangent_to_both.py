"""Broken SUT: at a tie, maximum passes the whole tangent of each operand on (t_x + t_y).

The rule is right wherever one operand is larger; where they are equal it
adds the two tangents instead of taking a weighted mean of them (JAX: half
of each), so `maximum(x, x)` has derivative 2 where `x` has 1.  Finite
differences never see it: the generator keeps maximum's operands apart.
The equivalent-programs property does (`x` against `maximum(x, x)`,
tests/test_equivalences.py), under any tie convention.  Built over refimpl:
`numpy.maximum` binds a copy of refimpl's `max` primitive with this rule.

Family: kink.  Smallest input: `grad(lambda x: numpy.maximum(x, x))(1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import instantiate, jvp_rules
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("grad(lambda x: numpy.maximum(x, x))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

max_p = elementwise_copy(P.max_p)


def _max_jvp(primals, tangents):
    x, y = primals
    tx, ty = (instantiate(t, p) for t, p in zip(tangents, primals))
    at_tie = ops.add(tx, ty)  # correct: a weighted mean, e.g. ty (refimpl) or (tx + ty) / 2
    return bind(max_p, x, y), ops.select_n(ops.gt(x, y), ops.select_n(ops.gt(y, x), at_tie, ty),
                                           tx)


jvp_rules[max_p] = _max_jvp

numpy = refimpl_numpy_with(maximum=bound_elementwise(max_p, "maximum"))
