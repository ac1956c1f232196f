"""Broken SUT: sort's tangent keeps the operand's order instead of the sorted one.

The value is sorted; the tangent is the operand's tangent as it came, not
gathered by the permutation that sorted the values: each output's
derivative is that of the element at its position before the sort.  It is
right wherever the operand is already sorted, so only an operand out of
order shows it.  Built over refimpl: the sorted value's difference from
the operand is added with its derivative dropped.

Family: jvp.  Smallest input: `jvp(numpy.sort, (np.array([2.0, 1.0]),), (np.array([1.0, 0.0]),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sort, (np.array([2.0, 1.0]),), (np.array([1.0, 0.0]),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def sort(x, axis=-1):
    x, axis = (refimpl_numpy.ravel(x), 0) if axis is None else (x, axis)
    ordered = refimpl_numpy.sort(x, axis)
    return x + stop_gradient(ordered - x)  # correct: the sorted value, its tangent sorted alike


numpy = refimpl_numpy_with(sort=sort)
