"""Broken SUT: pad with one (before, after) pair pads the first axis only.

NumPy's `pad(x, ((1, 0),))` applies the one pair to every axis; this one
reads the pairs per axis and pads the missing ones with 0, as a rule that
zips the pairs with the axes would.  An int width and a pair per axis are
right.

Family: semantics.  Smallest input: `numpy.pad(np.ones((1, 1)), ((1, 0),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.pad(np.ones((1, 1)), ((1, 0),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def pad(x, pad_width):
    rank = len(aval_of(x).shape)
    if isinstance(pad_width, tuple) and len(pad_width) == 1 and rank > 1:
        pad_width = (*pad_width, *[(0, 0)] * (rank - 1))  # correct: the pair on every axis
    return refimpl_numpy.pad(x, pad_width)


numpy = refimpl_numpy_with(pad=pad)
