"""Broken SUT: at a tie, sort's tangent puts both tied elements' tangents in one place.

The rule scatters each element's tangent to its rank, counted as the number
of elements smaller than it: tied elements share a rank, so one place of
the result gets both tangents and the next gets none.  Off ties the ranks
are a permutation and the rule is right; drawn inputs keep their elements
apart, and the special cell "a tie" of tests/test_cells.py meets it (along
tangents equal over the tie, where every convention agrees).  Built over
refimpl: the derivative is carried by the scatter, the value is the sort.

Family: jvp.  Smallest input: `jvp(numpy.sort, (np.ones(2),), (np.ones(2),))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sort, (np.ones(2),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

R = refimpl_numpy


def _by_rank(x):
    """x's elements along the last axis scattered to their ranks (the count of smaller)."""
    n = aval_of(x).shape[-1]
    smaller = R.where(R.less(R.expand_dims(x, -2), R.expand_dims(x, -1)), 1.0, 0.0)
    rank = R.sum(smaller, axis=-1)
    hit = R.where(R.less(R.abs(R.expand_dims(rank, -1) - np.arange(n, dtype=float)), 0.5),
                  1.0, 0.0)
    return R.sum(hit * R.expand_dims(x, -1), axis=-2)  # correct: a permutation's gather


def sort(x, axis=-1):
    x, axis = (R.ravel(x), 0) if axis is None else (x, axis)
    carrier = R.moveaxis(_by_rank(R.moveaxis(x, axis, -1)), -1, axis)
    return stop_gradient(R.sort(x, axis)) + (carrier - stop_gradient(carrier))


numpy = refimpl_numpy_with(sort=sort)
