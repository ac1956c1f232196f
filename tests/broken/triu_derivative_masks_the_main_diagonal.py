"""Broken SUT: triu's derivative keeps the upper triangle of the main diagonal whatever `k` is.

The value is `triu(x, k)`; the derivative masks the tangent (and the
cotangent) with the triangle of k = 0, as a rule written for the default
offset would.  For k = 1 the main diagonal's tangents leak through, for
k = -1 the band below it is dropped.  k = 0 is right.  Built over refimpl:
the derivative is carried by `triu(x, 0)`.

Family: jvp.  Smallest input:
`jvp(lambda x: numpy.triu(x, k=1), (np.ones((2, 2)),), (np.ones((2, 2)),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda x: numpy.triu(x, k=1), (np.ones((2, 2)),), (np.ones((2, 2)),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def triu(x, k=0):
    carrier = refimpl_numpy.triu(x, 0)  # correct: triu(x, k)
    return stop_gradient(refimpl_numpy.triu(x, k)) + (carrier - stop_gradient(carrier))


numpy = refimpl_numpy_with(triu=triu)
