"""Broken SUT: cumprod's tangent is cumprod(x) * cumsum(t / x), which is NaN where an element is 0.

The running product's textbook rule, d y_j = y_j sum_{i <= j} t_i / x_i,
holds only off zeros: at a zero, y_j / x_i is 0 / 0 where the product of
the others is due.  Away from zeros it is right, and drawn inputs stay 5/16
from 0; the special cell "a zero" of tests/test_cells.py meets it.  Built
over refimpl: `numpy.cumprod` is a custom_jvp function with this rule.

Family: jvp.  Smallest input: `jvp(numpy.cumprod, (np.array([0.0, 2.0]),), (np.ones(2),))`.
"""

from functools import cache

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.cumprod, (np.array([0.0, 2.0]),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


@cache
def _dividing(axis):
    @refimpl.custom_jvp
    def cumprod(x):
        return refimpl_numpy.cumprod(x, axis=axis)

    @cumprod.defjvp
    def rule(primals, tangents):
        (x,), (t,) = primals, tangents
        y = cumprod(x)
        return y, y * refimpl_numpy.cumsum(t / x, axis=axis)  # correct: no division

    return cumprod


def cumprod(x, axis=None):
    return _dividing(axis)(x)


numpy = refimpl_numpy_with(cumprod=cumprod)
