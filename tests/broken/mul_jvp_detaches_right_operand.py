"""Broken SUT: mul's JVP rule takes its right operand as a constant in the left term.

d(x * y) = dx * y + x * dy; this rule's first term uses y with its own
derivative cut off (a detached copy, meant to save a trace).  The value of
the tangent is right, so every first derivative is; but d/dy of (dx * y)
is lost, so the second derivatives of every product are asymmetric:
d2(x*y)/dxdy is 1 one way and 0 the other.  refimpl with its `mul` JVP rule
replaced; refimpl's own rules multiply with it, so sin's second derivative
and others suffer too.

Family: higher_order.  Smallest input:
`jvp(lambda x: grad(lambda a: a * x)(1.0), (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from refimpl.lax import stop_gradient
from tests.broken import Witness

FAMILY = "higher_order"
WITNESS = Witness("jvp(lambda x: grad(lambda a: a * x)(1.0), (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

defjvp(P.mul_p, lambda t, out, x, y: ops.mul(t, stop_gradient(y)),  # correct: ops.mul(t, y)
        lambda t, out, x, y: ops.mul(x, t))
