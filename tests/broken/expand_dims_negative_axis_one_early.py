"""Broken SUT: expand_dims with a negative axis inserts the new axis one place early.

A negative axis of the result is counted from the operand's rank (`axis +
rank`) instead of the result's (`axis + rank + 1`), so `expand_dims(x, -1)`
of a (2, 3) x gives (2, 1, 3) where (2, 3, 1) is due.  Non-negative axes are
right.

Family: semantics.  Smallest input: `numpy.expand_dims(np.ones(2), -1)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.expand_dims(np.ones(2), -1)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def expand_dims(x, axis):
    if axis < 0:
        axis += len(aval_of(x).shape)  # correct: the result's rank, one more
    return refimpl_numpy.expand_dims(x, axis)


numpy = refimpl_numpy_with(expand_dims=expand_dims)
