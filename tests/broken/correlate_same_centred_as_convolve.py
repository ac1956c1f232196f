"""Broken SUT: correlate's 'same' takes the middle of the full result where convolve
takes it, also where the second vector is the longer.

A correlation is a convolution with the second vector reversed, so it is
tempting to write it as one throughout; NumPy's 'same' then differs where
the second vector is the longer (it swaps the operands and reverses the
result, which moves the middle one step).  Right in 'full' and 'valid' and
wherever the first vector is at least as long; derivatives follow the
wrong value consistently.

Family: semantics.  Smallest input:
`numpy.correlate(np.array([1.0, 2.0]), np.array([1.0, 0.0, 0.0]), "same")`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness('numpy.correlate(np.array([1.0, 2.0]), np.array([1.0, 0.0, 0.0]), "same")')

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def correlate(a, v, mode="valid"):
    # correct: for 'same' with v the longer, the full result's middle from len(a) // 2
    return refimpl_numpy.convolve(a, refimpl_numpy.flip(v, 0), mode)


numpy = refimpl_numpy_with(correlate=correlate)
