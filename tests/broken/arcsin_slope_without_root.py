"""Broken SUT: arcsin's slope without its square root, 1 / (1 - x^2).

The slope is 1 / sqrt(1 - x^2); this rule has arctanh's, the one a table of
inverse-function derivatives lists beside it.  Equal at 0, apart everywhere
else in the domain.  Built over refimpl: `numpy.arcsin` binds a copy of
refimpl's `asin` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.arcsin, (0.5,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.arcsin, (0.5,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

asin_p = elementwise_copy(P.asin_p)
defjvp(asin_p, lambda t, out, x: ops.div(t, 1.0 - ops.mul(x, x)))  # correct: sqrt(1 - x^2)

numpy = refimpl_numpy_with(arcsin=bound_elementwise(asin_p, "arcsin"))
