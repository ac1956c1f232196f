"""Broken SUT: trace's derivative is that of the main diagonal's sum whatever the offset.

The value sums the diagonal `offset` above (or below) the main one; the
derivative, tangent and cotangent, is carried by the main diagonal's sum, as
a rule written for offset 0 (an identity matrix as its cotangent) would give.
Offset 0 is right.  Built over refimpl.

Family: jvp.  Smallest input:
`jvp(lambda x: numpy.trace(x, offset=1), (np.ones((2, 2)),), (np.eye(2),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda x: numpy.trace(x, offset=1), (np.ones((2, 2)),), (np.eye(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def trace(x, offset=0):
    carrier = refimpl_numpy.trace(x, 0)  # correct: trace(x, offset)
    return stop_gradient(refimpl_numpy.trace(x, offset)) + (carrier - stop_gradient(carrier))


numpy = refimpl_numpy_with(trace=trace)
