"""Broken SUT: convolve slides the second operand without flipping it: a correlation.

Deep-learning libraries call a correlation a convolution (torch's conv1d
does not flip its kernel), and a NumPy-style convolve written over one
inherits the slip when it forgets the flip.  Right wherever the second
operand reads the same backwards; derivatives follow the wrong value
consistently, so only the value shows it.

Family: semantics.  Smallest input: `numpy.convolve(np.array([1.0, 0.0]), np.array([1.0, 2.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.convolve(np.array([1.0, 0.0]), np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def convolve(a, v, mode="full"):
    return refimpl_numpy.convolve(a, refimpl_numpy.flip(v, 0), mode)  # correct: v as it is


numpy = refimpl_numpy_with(convolve=convolve)
