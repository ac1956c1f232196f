"""Broken SUT: logaddexp as max(x, y) + log1p(exp(-|x - y|)): at x = y its slope is max's tie.

The usual stable formula, differentiated as written: off the diagonal it is
right, but at x = y the slope is maximum's tie convention (refimpl's: all of
it to the second operand) plus abs's at 0, which do not cancel: d/dx gives
-1/2 and d/dy 3/2 where 1/2 each is due.  logaddexp is smooth there, so
finite differences see it; drawn inputs keep x and y apart, and the special
cell "a tie" of tests/test_cells.py meets it.

Family: jvp.  Smallest input: `jvp(numpy.logaddexp, (0.0, 0.0), (1.0, 0.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.logaddexp, (0.0, 0.0), (1.0, 0.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

R = refimpl_numpy


def logaddexp(x, y):
    # correct: a rule of its own, 1 / (1 + exp(y - x)) and 1 / (1 + exp(x - y))
    return R.maximum(x, y) + R.log1p(R.exp(-R.abs(x - y)))


numpy = refimpl_numpy_with(logaddexp=logaddexp)
