"""Broken SUT: the exponent's partial of x ** y is x ** y, without its factor log(x).

The derivative of b ** y in y is b ** y log(b); the rule keeps the first
factor, as if the base were e.  Right for the base's partial, and right in
y wherever x = e.  Built over refimpl: `numpy.power` binds a copy of
refimpl's `pow` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.power, (2.0, 1.0), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.power, (2.0, 1.0), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

pow_p = elementwise_copy(P.pow_p)
defjvp(pow_p, lambda t, out, x, y: ops.mul(t, ops.mul(y, ops.div(out, x))),
       lambda t, out, x, y: ops.mul(t, out))  # correct: t * out * log(x)
_bound = bound_elementwise(pow_p, "power")


def power(x, y):
    """refimpl's power, with this pow for an exponent that is not an integer."""
    if isinstance(y, (int, float)) and float(y).is_integer():
        return refimpl_numpy.power(x, y)
    return _bound(x, y)


numpy = refimpl_numpy_with(power=power)
