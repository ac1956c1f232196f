"""Broken SUT: arctan2(y, x) takes each operand's partial from the other's formula.

The partials are x / (x^2 + y^2) for y and -y / (x^2 + y^2) for x; the rule
pairs them with the wrong tangents, a slip of argument order that the
two-operand angle invites (NumPy's order is y first).  Built over refimpl:
`numpy.arctan2` binds a copy of refimpl's `atan2` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.arctan2, (1.0, 2.0), (1.0, 0.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.arctan2, (1.0, 2.0), (1.0, 0.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _norm(y, x):
    return ops.add(ops.mul(x, x), ops.mul(y, y))


atan2_p = elementwise_copy(P.atan2_p)
defjvp(atan2_p,  # correct: t * x / norm for y, -t * y / norm for x
       lambda t, out, y, x: ops.neg(ops.div(ops.mul(t, y), _norm(y, x))),
       lambda t, out, y, x: ops.div(ops.mul(t, x), _norm(y, x)))

numpy = refimpl_numpy_with(arctan2=bound_elementwise(atan2_p, "arctan2"))
