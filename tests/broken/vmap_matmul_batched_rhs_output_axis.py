"""Broken SUT: vmap of a product whose right operand alone is batched misplaces the batch axis.

With only y batched, `dot_general` puts the batch axis after x's free axes
in its output; the rule reports it after the batch dimensions only, as if
x had no free axes.  Right when x is a vector (or both operands are
batched); with x a matrix, batch and rows are mixed up.  refimpl with its
`dot_general` batching rule replaced.

Family: batching.  Smallest input:
`vmap(numpy.matmul, in_axes=(None, 0))(np.ones((3, 2)), np.ones((4, 2, 5)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(numpy.matmul, in_axes=(None, 0))(np.ones((3, 2)), np.ones((4, 2, 5)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = vmap_rules[P.dot_general_p]


def _rhs_axis_after_batch(size, vals, dims, *, dimension_numbers):
    (x, y), (dx, dy) = vals, dims
    if dx is not None:
        return _right(size, vals, dims, dimension_numbers=dimension_numbers)
    (lc, rc), (lb, rb) = dimension_numbers
    y = ops.moveaxis(y, dy, 0)
    dn = ((lc, tuple(a + 1 for a in rc)), (lb, tuple(a + 1 for a in rb)))
    return ops.dot_general(x, y, dn), len(lb)  # correct: len(lb) + x's free axes


vmap_rules[P.dot_general_p] = _rhs_axis_after_batch
