"""Broken SUT: sin's JVP rule computes cos x as a constant, outside the trace.

The rule's value is right, so every first derivative is; but the factor
cos x carries no derivative of its own (as if computed with NumPy on the
primal's value), so the derivative of sin's derivative is 0 where it is
-sin x: Hessians, jvp of grad and nested jvp go wrong.  Built over refimpl:
`numpy.sin` binds a copy of refimpl's `sin` primitive that carries the rule
(`tests.broken.stop_gradient` stands for the escape from the trace).

Family: higher_order.  Smallest input:
`jvp(lambda x: jvp(numpy.sin, (x,), (1.0,))[1], (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from refimpl.lax import stop_gradient
from tests.broken import (
    Witness,
    bound_elementwise,
    elementwise_copy,
    refimpl_numpy_with,
)

FAMILY = "higher_order"
WITNESS = Witness("jvp(lambda x: jvp(numpy.sin, (x,), (1.0,))[1], (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sin_p = elementwise_copy(P.sin_p)
defjvp(sin_p, lambda t, out, x: ops.mul(t, stop_gradient(ops.cos(x))))  # correct: ops.cos(x)

numpy = refimpl_numpy_with(sin=bound_elementwise(sin_p, "sin"))
