"""Broken SUT: sqrt's derivative is made "safe": 0 at x = 0 instead of infinite.

A guard `where(sqrt(x) > 0, t / (2 sqrt(x)), 0)` keeps NaN and inf out of
gradients, and silently changes the derivative at the edge of sqrt's domain:
the contract (JAX) says `t * (0.5 / sqrt(0))`, +inf for t > 0.  An SUT may
follow that other convention, but must then declare `domain_edge`
(docs/sut-api.md); this one does not.  Generated programs keep sqrt's
argument >= 0.25, so only the conventions property sees it
(tests/test_conventions.py, the `sqrt_at_zero` row).  Built over refimpl:
`numpy.sqrt` binds a copy of refimpl's `sqrt` primitive with this rule.

Family: kink.  Smallest input: `jvp(numpy.sqrt, (0.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(numpy.sqrt, (0.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sqrt_p = elementwise_copy(P.sqrt_p)


def _guarded(t, out, x):
    inside = ops.gt(out, ops.zeros(aval_of(out)))
    slope = ops.div(t, ops.mul(ops.full_like(out, 2.0), out))  # correct: this, everywhere
    return ops.select_n(inside, ops.zeros(aval_of(out)), slope)


defjvp(sqrt_p, _guarded)

numpy = refimpl_numpy_with(sqrt=bound_elementwise(sqrt_p, "sqrt"))
