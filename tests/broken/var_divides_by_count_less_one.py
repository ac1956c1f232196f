"""Broken SUT: var divides by the count less one, torch's default, not NumPy's count.

NumPy's `var` (and `std`) divide the summed squared deviations by the count
(`ddof=0`); torch's divide by the count less one unless told otherwise
(`correction=1`), and a shim that maps the name alone inherits it.
Derivatives follow the wrong value consistently, so only the value shows it.

Family: semantics.  Smallest input: `numpy.var(np.array([1.0, 2.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from refimpl.core import prod as product
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.var(np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def var(x, axis=None, keepdims=False):
    """refimpl's var times n / (n - 1), n the count reduced; correct: refimpl's alone."""
    shape = aval_of(x).shape
    axes = range(len(shape)) if axis is None else (axis,) if isinstance(axis, int) else axis
    count = product(shape[a] for a in axes)
    return refimpl_numpy.multiply(refimpl_numpy.var(x, axis, keepdims),
                                  count / max(count - 1, 1))


numpy = refimpl_numpy_with(var=var)
