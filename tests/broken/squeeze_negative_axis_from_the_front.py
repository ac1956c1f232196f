"""Broken SUT: squeeze counts a negative axis from the front, -1 the first axis.

A negative axis is turned into a place with `abs(axis) - 1`, its distance
from the end read as a place from the front, so `squeeze(x, -1)` of a
(1, 2, 1) x drops its first axis, (2, 1), where (1, 2) is due, and of a
(2, 1) x refuses: its first axis is not of size 1.  Non-negative axes, None
and a vector's -1 (its first axis is its last) are right.

Family: semantics.  Smallest input: `numpy.squeeze(np.ones((1, 2, 1)), -1)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.squeeze(np.ones((1, 2, 1)), -1)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def squeeze(x, axis=None):
    if isinstance(axis, int) and axis < 0:
        axis = abs(axis) - 1  # correct: axis + the operand's rank
    return refimpl_numpy.squeeze(x, axis)


numpy = refimpl_numpy_with(squeeze=squeeze)
