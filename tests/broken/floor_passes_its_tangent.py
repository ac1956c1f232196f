"""Broken SUT: floor passes its operand's tangent on: a straight-through estimator.

A step is flat wherever it has a derivative.  Passing the tangent through
is a trick some training code wants on purpose (the straight-through
estimator); as floor's derivative it is wrong.  Built over refimpl:
`numpy.floor` binds a copy of refimpl's `floor` primitive with this rule.

Family: jvp.  Smallest input: `jvp(numpy.floor, (0.5,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.floor, (0.5,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

floor_p = elementwise_copy(P.floor_p)
defjvp(floor_p, lambda t, out, x: t)  # correct: no tangent (a symbolic zero)

numpy = refimpl_numpy_with(floor=bound_elementwise(floor_p, "floor"))
