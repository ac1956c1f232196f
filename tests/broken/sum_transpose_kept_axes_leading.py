"""Broken SUT: the transpose of `sum(x, axis)` lays the cotangent along the leading axes.

The cotangent of a reduction has the kept axes of x and must be broadcast
back along exactly those; this rule takes them to be the leading ones.
Right when the summed axes are the trailing ones (`sum(x, axis=-1)`, a full
sum); for `sum(x, axis=0)` of a square matrix the gradient comes out
transposed, and of a non-square one the broadcast fails.  refimpl with its
`reduce_sum` transpose rule replaced.

Family: transpose.  Smallest input:
`grad(lambda x: numpy.sum(numpy.sum(x, axis=0) * np.array([1.0, 2.0])))(np.ones((2, 2)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness(
    "grad(lambda x: numpy.sum(numpy.sum(x, axis=0) * np.array([1.0, 2.0])))(np.ones((2, 2)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _leading(ct, x, *, axes):
    kept = range(len(x.shape) - len(axes))  # correct: the axes of x not in `axes`
    return [ops.broadcast_in_dim(ct, x.shape, kept)]


transpose_rules[P.reduce_sum_p] = _leading
