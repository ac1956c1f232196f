"""Broken SUT: quantile between two samples weighs each by the other's share.

NumPy's linear method gives the lower neighbour 1 - f and the upper f, f the
fractional part of q (n - 1); this one swaps them.  At a sample point (f = 0,
the two neighbours one element) it is right, so the median of an odd count,
min and max are too.

Family: semantics.  Smallest input: `numpy.quantile(np.array([0.0, 1.0]), 0.25)`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.quantile(np.array([0.0, 1.0]), 0.25)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def quantile(a, q, axis=None, keepdims=False):
    shape = aval_of(a).shape
    n = max(1, int(np.prod(shape))) if axis is None else shape[axis]
    position = q * (n - 1)
    low = np.floor(position)
    f = position - low
    if f == 0 or n < 2:
        return refimpl_numpy.quantile(a, q, axis, keepdims)
    lower = refimpl_numpy.quantile(a, low / (n - 1), axis, keepdims)
    upper = refimpl_numpy.quantile(a, (low + 1) / (n - 1), axis, keepdims)
    return lower * f + upper * (1 - f)  # correct: lower * (1 - f) + upper * f


numpy = refimpl_numpy_with(quantile=quantile)
