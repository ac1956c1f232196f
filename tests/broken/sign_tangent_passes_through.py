"""Broken SUT: sign passes its operand's tangent on, as if it were the identity.

A step function is flat wherever it has a derivative; this rule was
copied from one for an odd function without its slope (`negative`'s, with
the sign dropped).  Built over refimpl: `numpy.sign` binds a copy of
refimpl's `sign` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.sign, (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sign, (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sign_p = elementwise_copy(P.sign_p)
defjvp(sign_p, lambda t, out, x: t)  # correct: no tangent (a symbolic zero)

numpy = refimpl_numpy_with(sign=bound_elementwise(sign_p, "sign"))
