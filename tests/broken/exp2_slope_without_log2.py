"""Broken SUT: exp2's slope is its value, as exp's is, without the factor log(2).

d/dx 2^x = log(2) 2^x; this rule was copied from exp's.  Built over refimpl:
`numpy.exp2` binds a copy of refimpl's `exp2` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.exp2, (0.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.exp2, (0.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

exp2_p = elementwise_copy(P.exp2_p)
defjvp(exp2_p, lambda t, out, x: ops.mul(t, out))  # correct: log(2) * out

numpy = refimpl_numpy_with(exp2=bound_elementwise(exp2_p, "exp2"))
