"""Broken SUT: arccosh's slope is arcsinh's, 1 / sqrt(x^2 + 1).

The slope is 1 / sqrt(x^2 - 1): a sign inside the root, the slip between
the two inverse hyperbolic functions.  Built over refimpl: `numpy.arccosh`
binds a copy of refimpl's `acosh` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.arccosh, (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.arccosh, (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

acosh_p = elementwise_copy(P.acosh_p)
defjvp(acosh_p,  # correct: x * x - 1.0
       lambda t, out, x: ops.div(t, ops.sqrt(ops.mul(x, x) + 1.0)))

numpy = refimpl_numpy_with(arccosh=bound_elementwise(acosh_p, "arccosh"))
