"""Broken SUT: remainder as C's fmod plus a sign fix held constant.

NumPy's remainder takes the divisor's sign; C's fmod takes the dividend's.
A common way to build one from the other is `fmod(x, y) + y` where the
signs differ.  This one adds that `y` as a constant, so the divisor's
partial is fmod's, -trunc(x / y), not -floor(x / y): off by one wherever
the quotient is negative.  Values and the dividend's partial are right.

Family: jvp.  Smallest input: `jvp(numpy.remainder, (-1.0, 0.75), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.remainder, (-1.0, 0.75), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def remainder(x, y):
    """fmod, then y where the signs differ, y held constant (correct: y itself)."""
    truncated = refimpl_numpy.fmod(x, y)
    differ = refimpl_numpy.less(refimpl_numpy.multiply(truncated, y), 0.0)
    return refimpl_numpy.add(truncated, stop_gradient(refimpl_numpy.where(differ, y, 0.0)))


numpy = refimpl_numpy_with(remainder=remainder)
