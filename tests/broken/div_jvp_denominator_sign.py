"""Broken SUT: divide's tangent adds the denominator's term where it must subtract it.

d(x / y) = tx / y - ty * x / y**2; this rule adds the second term, the
quotient rule's sign misremembered.  Right wherever only the numerator
varies.  Built over refimpl: `numpy.divide` binds a copy of refimpl's `div`
primitive that carries the broken rule (`tests.broken.elementwise_copy`).

Family: jvp.  Smallest input: `jvp(numpy.divide, (1.0, 2.0), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.divide, (1.0, 2.0), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

div_p = elementwise_copy(P.div_p)
defjvp(div_p, lambda t, out, x, y: ops.div(t, y),
        lambda t, out, x, y: ops.mul(t, ops.div(out, y)))  # correct: ops.neg(...)

numpy = refimpl_numpy_with(divide=bound_elementwise(div_p, "divide"))
