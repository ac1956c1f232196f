"""Broken SUT: the product rule of `dot_general` (matmul, dot) keeps the left term only.

d(x @ y) = dx @ y + x @ dy; this rule forgets x @ dy, so a product's
tangent ignores its right operand, at every rank combination (vector and
matrix, matrix and matrix, stacks).  refimpl with its `dot_general` JVP rule
replaced; reverse mode linearizes with the JVP rule, so grad loses the
right operand's gradient too.

Family: jvp.  Smallest input:
`jvp(numpy.matmul, (np.ones(2), np.eye(2)), (np.zeros(2), np.eye(2)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.matmul, (np.ones(2), np.eye(2)), (np.zeros(2), np.eye(2)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

defjvp(P.dot_general_p, lambda t, out, x, y, **p: ops.dot_general(t, y, **p),
        None)  # correct: lambda t, out, x, y, **p: ops.dot_general(x, t, **p)
