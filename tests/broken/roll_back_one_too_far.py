"""Broken SUT: roll by a negative shift moves the elements one place further back than asked.

A negative shift is turned into a forward one as `n + shift - 1` (the last
index, n - 1, taken for the axis's length) where `n + shift` is due, so
`roll(x, -1)` of an axis of 3 moves it back by two, and of an axis of 2
leaves it as it is.  Forward shifts are right.

Family: semantics.  Smallest input: `numpy.roll(np.array([1.0, 2.0, 3.0]), -1)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.roll(np.array([1.0, 2.0, 3.0]), -1)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def roll(x, shift, axis=None):
    shape = aval_of(x).shape
    n = max(1, int(refimpl.core.prod(shape))) if axis is None else shape[axis]
    if shift < 0:
        shift = n + shift - 1  # correct: n + shift
    return refimpl_numpy.roll(x, shift, axis=axis)


numpy = refimpl_numpy_with(roll=roll)
