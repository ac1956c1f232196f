"""Broken SUT: cumsum's derivative reads a negative axis as counted from the front.

The value runs along `axis`; the derivative (tangent and cotangent) runs
along `-axis - 1`, an axis -1 taken as axis 0, as a rule that normalises a
negative axis by its magnitude would.  Non-negative axes and the flattened
operand are right; a vector has one axis either way.  Built over refimpl.

Family: jvp.  Smallest input:
`jvp(lambda x: numpy.cumsum(x, axis=-1), (np.ones((2, 2)),), (np.eye(2),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda x: numpy.cumsum(x, axis=-1), (np.ones((2, 2)),), (np.eye(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def cumsum(x, axis=None):
    along = -axis - 1 if axis is not None and axis < 0 else axis  # correct: axis
    carrier = refimpl_numpy.cumsum(x, axis=along)
    return stop_gradient(refimpl_numpy.cumsum(x, axis=axis)) + (carrier - stop_gradient(carrier))


numpy = refimpl_numpy_with(cumsum=cumsum)
