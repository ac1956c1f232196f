"""Broken SUT: the transpose of `-t` hands back the cotangent itself, not its negation.

Reverse mode loses the sign of every negation in the tangent program, and
those come from more places than the user's `-x`: the tangent of `x - y`
is `tx + (-ty)`, of `cos` and of a quotient's denominator carry one too.
Forward mode (and so jvp) is right.  refimpl with its `neg` transpose rule
replaced.

Family: transpose.  Smallest input: `grad(numpy.subtract, argnums=1)(1.0, 2.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(numpy.subtract, argnums=1)(1.0, 2.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

transpose_rules[P.neg_p] = lambda ct, x: [ct]  # correct: [ops.neg(ct)]
