"""Broken SUT: median of an even count is the lower of the two middle elements, not
their mean.

torch.median's convention (and a median written as `sorted[(n - 1) // 2]`):
right for an odd count, wrong for an even one, where NumPy averages the two
middle elements.  Derivatives follow the wrong value consistently (all of
the tangent goes to one element where half is due to each of two), so the
value shows it as well as they do.

Family: semantics.  Smallest input: `numpy.median(np.array([1.0, 3.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.median(np.array([1.0, 3.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def median(a, axis=None, keepdims=False):
    shape = aval_of(a).shape
    n = max(1, int(refimpl.core.prod(shape))) if axis is None else shape[axis]
    lower = (n - 1) // 2 / max(n - 1, 1)  # correct: quantile 1/2, the two middles' mean
    return refimpl_numpy.quantile(a, lower, axis, keepdims)


numpy = refimpl_numpy_with(median=median)
