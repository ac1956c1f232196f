"""Broken SUT: sqrt's derivative is 1 / sqrt x, without the factor 1/2.

A missing constant factor: every tangent through `sqrt` is twice what it
should be, at every point.  Built over refimpl: `numpy.sqrt` binds a copy of
refimpl's `sqrt` primitive that carries the broken rule.

Family: jvp.  Smallest input: `jvp(numpy.sqrt, (4.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sqrt, (4.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sqrt_p = elementwise_copy(P.sqrt_p)
defjvp(sqrt_p, lambda t, out, x: ops.div(t, out))  # correct: div(t, 2 * out)

numpy = refimpl_numpy_with(sqrt=bound_elementwise(sqrt_p, "sqrt"))
