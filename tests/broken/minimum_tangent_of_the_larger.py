"""Broken SUT: minimum's tangent is the larger operand's, where it is the smaller's.

The select in the rule is the one maximum's rule makes, copied without
turning the comparison round: the value is right, the derivative comes
from the operand minimum did not return.  Built over refimpl:
`numpy.minimum` binds a copy of refimpl's `min` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.minimum, (1.0, 2.0), (1.0, 0.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import instantiate, jvp_rules
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.minimum, (1.0, 2.0), (1.0, 0.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

min_p = elementwise_copy(P.min_p)


def _min_jvp(primals, tangents):
    x, y = primals
    tx, ty = (instantiate(t, p) for t, p in zip(tangents, primals))
    return bind(min_p, x, y), ops.select_n(ops.gt(x, y), ty, tx)  # correct: ops.lt


jvp_rules[min_p] = _min_jvp

numpy = refimpl_numpy_with(minimum=bound_elementwise(min_p, "minimum"))
