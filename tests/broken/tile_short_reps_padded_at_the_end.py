"""Broken SUT: tile with fewer reps than the operand has axes pads reps with 1s at the end.

NumPy pads a short `reps` with 1s in front (it tiles the last axes); this one
pads it at the end, so `tile(x, (2, 1))` of a rank-3 x doubles the first
axis where the second is due.  An int and a `reps` as long as the rank or
longer are right.

Family: semantics.  Smallest input: `numpy.tile(np.ones((1, 1, 1)), (2, 1))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.tile(np.ones((1, 1, 1)), (2, 1))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def tile(x, reps):
    rank = len(aval_of(x).shape)
    if isinstance(reps, tuple) and len(reps) < rank:
        reps = (*reps, *(1,) * (rank - len(reps)))  # correct: the 1s in front
    return refimpl_numpy.tile(x, reps)


numpy = refimpl_numpy_with(tile=tile)
