"""Broken SUT: the cotangent of a product's right operand is left in the product's layout.

Pulling a cotangent back to y in `x @ y` contracts it with x, which leaves
y's axes in the order (x's free axes first); the rule must permute them
into y's layout and this one does not.  The left operand's cotangent, a
matrix times a vector and a dot of two vectors are right; for a vector or a
matrix times a matrix the right operand's gradient comes out transposed (a
square one silently, another with the wrong shape).  refimpl with its
`dot_general` transpose rule replaced.

Family: transpose.  Smallest input:
`grad(lambda m: numpy.sum(numpy.matmul(np.array([1.0, 2.0]), m) * np.array([1.0,
3.0])))(np.ones((2, 2)))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import is_linear, ranges_like, transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(lambda m: numpy.sum(numpy.matmul(np.array([1.0, 2.0]), m) * "
                  "np.array([1.0, 3.0])))(np.ones((2, 2)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = transpose_rules[P.dot_general_p]


def _rhs_unpermuted(ct, x, y, *, dimension_numbers):
    if is_linear(x):
        return _right(ct, x, y, dimension_numbers=dimension_numbers)
    (xc, yc), (xb, yb) = dimension_numbers
    x_kept = [i for i in range(np.ndim(x)) if i not in xc + xb]
    y_kept = [i for i in range(np.ndim(y)) if i not in yc + yb]
    ans_batch, ans_x, _ = ranges_like(xb, x_kept, y_kept)
    # correct: then transposed by argsort(yb + y_kept + yc in the order of xc)
    return [None, ops.dot_general(ct, x, ((ans_x, tuple(x_kept)), (ans_batch, tuple(xb))))]


transpose_rules[P.dot_general_p] = _rhs_unpermuted
