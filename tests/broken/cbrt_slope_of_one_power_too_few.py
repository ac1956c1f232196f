"""Broken SUT: cbrt's slope divides by 3 cbrt(x), not 3 cbrt(x)^2.

d/dx x^(1/3) = 1 / (3 x^(2/3)); this rule lost one power of the value.
Equal at |x| = 1, apart elsewhere.  Built over refimpl: `numpy.cbrt` binds
a copy of refimpl's `cbrt` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.cbrt, (8.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.cbrt, (8.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

cbrt_p = elementwise_copy(P.cbrt_p)
defjvp(cbrt_p, lambda t, out, x: ops.div(t, 3.0 * out))  # correct: 3 * out * out

numpy = refimpl_numpy_with(cbrt=bound_elementwise(cbrt_p, "cbrt"))
