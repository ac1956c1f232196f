"""Broken SUT: logaddexp passes on the first operand's tangent only.

The rule was written for one operand, as if the second were a constant
(as in `log(exp(x) + c)`): where the second operand varies, its share of
the derivative, exp(y - out), is lost.  Built over refimpl:
`numpy.logaddexp` binds a copy of refimpl's `logaddexp` primitive with
this rule.

Family: jvp.  Smallest input: `jvp(numpy.logaddexp, (0.0, 0.0), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.logaddexp, (0.0, 0.0), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

logaddexp_p = elementwise_copy(P.logaddexp_p)
defjvp(logaddexp_p, lambda t, out, x, y: ops.mul(t, ops.exp(ops.sub(x, out))),
       None)  # correct: t * exp(y - out)

numpy = refimpl_numpy_with(logaddexp=bound_elementwise(logaddexp_p, "logaddexp"))
