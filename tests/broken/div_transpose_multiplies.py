"""Broken SUT: the transpose of `t / y` (linear in t) multiplies the cotangent by y.

Dividing by y is multiplying by 1 / y, and the rule applies y instead: the
gradient through every division is off by y**2 (right where y = +-1).
Forward mode is right.  refimpl with its `div` transpose rule replaced.

Family: transpose.  Smallest input: `grad(numpy.divide)(1.0, 2.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(numpy.divide)(1.0, 2.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

transpose_rules[P.div_p] = lambda ct, x, y: [ops.mul(ct, y), None]  # correct: ops.div(ct, y)
