"""Broken SUT: diagonal's offset counts the other way, below the main diagonal for offset > 0.

NumPy's `diagonal(x, offset=1)` is the diagonal above the main one (x[i, i + 1]);
this one takes x[i + 1, i], the convention of a library that numbers
diagonals by row.  `trace` goes through it.  Offset 0 is right.

Family: semantics.  Smallest input: `numpy.diagonal(np.array([[1.0, 2.0], [3.0, 4.0]]), 1)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.diagonal(np.array([[1.0, 2.0], [3.0, 4.0]]), 1)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def diagonal(x, offset=0):
    return refimpl_numpy.diagonal(x, -offset)  # correct: offset


def trace(x, offset=0):
    return refimpl_numpy.sum(diagonal(x, offset), axis=-1)


numpy = refimpl_numpy_with(diagonal=diagonal, trace=trace)
