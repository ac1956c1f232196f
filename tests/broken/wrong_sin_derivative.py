"""Broken SUT: sin's derivative has the wrong sign (-cos x instead of cos x).

Built over refimpl, as `maximum_tangent_by_tangents` is, so the meta-test's
shrinking runs in refimpl's milliseconds, not in JAX's compiles (on JAX, the
grad row spent 3 minutes shrinking): `numpy.sin` binds a copy of refimpl's
`sin` primitive that carries the broken rule, and no existing rule changes.

Family: jvp.  Smallest input: `jvp(numpy.sin, (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sin, (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sin_p = elementwise_copy(P.sin_p)
defjvp(sin_p, lambda t, out, x: ops.neg(ops.mul(t, ops.cos(x))))  # correct: mul(t, cos(x))

numpy = refimpl_numpy_with(sin=bound_elementwise(sin_p, "sin"))
