"""Broken SUT: ptp is the element at argmax less the one at argmin, so a tie's tangent goes to one.

Gathering the largest and smallest elements by their first indices gives
ptp's value, and off ties its derivative: at a tie of the max (or the min)
the first tied element takes the whole tangent, where JAX's ptp, max less
min, shares it equally among the tied, as `max` and `min` do.  Drawn inputs
keep the max and min apart from the rest; the row `ptp_tie`
(tests/test_conventions.py) puts them on a tie.  Built over refimpl.

Family: kink.  Smallest input: `vjp(numpy.ptp, np.array([1.0, 1.0, 0.5]))[1](np.float64(1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("vjp(numpy.ptp, np.array([1.0, 1.0, 0.5]))[1](np.float64(1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

R = refimpl_numpy


def _at_first(x, largest, axis):
    """x's element at the first index of its largest (or smallest) along `axis`, kept."""
    index = R.argmax(x if largest else R.negative(x), axis=axis, keepdims=True)
    return R.take_along_axis(x, index, axis)


def ptp(x, axis=None, keepdims=False):
    if isinstance(axis, tuple):
        return R.ptp(x, axis, keepdims)
    x, axis = (R.ravel(x), 0) if axis is None else (x, axis)
    out = _at_first(x, True, axis) - _at_first(x, False, axis)  # correct: max less min
    return out if keepdims else R.squeeze(out, axis)


numpy = refimpl_numpy_with(ptp=ptp)
