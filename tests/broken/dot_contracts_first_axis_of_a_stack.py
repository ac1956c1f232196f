"""Broken SUT: `dot` with a stack of matrices on the right contracts the stack's first axis.

NumPy's `dot(a, b)` contracts a's last axis with b's second-to-last (b's
only axis for a vector).  For a vector or a matrix b, the second-to-last
axis is the first, and this `dot` always takes the first: right for every
b up to rank 2, wrong for a rank-3 b (wrong values where its first two dims
are equal, a shape error where they differ).  Traced calls only (jit, the
derivatives, vmap): eager calls run NumPy.  A bug of one operand-rank
combination, which programs drawn from the whole language seldom hold
(docs/coverage.md: dot of a vector and a rank-3 array).  Built over refimpl.

Family: jit.  Smallest input:
`jit(numpy.dot)(np.array([1.0, 2.0]), np.arange(8.0).reshape(2, 2, 2))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as _numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jit"
WITNESS = Witness("jit(numpy.dot)(np.array([1.0, 2.0]), np.arange(8.0).reshape(2, 2, 2))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _dot(a, b):
    if _numpy._eager():
        return _numpy._numpy("dot", np.dot, a, b)
    a, b, sa, sb = _numpy._promoted_pair(a, b)
    if sa.ndim == 0 or sb.ndim == 0:
        return _numpy.multiply(a, b)
    # correct: b's axis max(sb.ndim - 2, 0), its second-to-last
    _numpy._contract_check("dot", sa, sb, sa.ndim - 1, 0)
    return ops.dot_general(a, b, (((sa.ndim - 1,), (0,)), ((), ())))


numpy = refimpl_numpy_with(dot=_dot)
