"""Broken SUT: the derivative of `fori_loop` misses its last iteration.

refimpl whose `fori_loop` differentiates only the first n - 1 iterations: it
runs them, then adds the last iteration's change with its derivative
stopped.  The value is right (to rounding); every derivative through a loop
of n >= 1 trips is that of n - 1 trips (`tests.broken.stop_gradient`: identity
value, zero tangent).

Family: construct.  Smallest input:
`jvp(lambda x: lax.fori_loop(0, 1, lambda i, c: c * x, 1.0), (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from refimpl.lax import stop_gradient
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("jvp(lambda x: lax.fori_loop(0, 1, lambda i, c: c * x, 1.0), (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

def fori_loop(lower, upper, body_fun, init_val):
    if upper - lower < 1:
        return rlax.fori_loop(lower, upper, body_fun, init_val)
    most = rlax.fori_loop(lower, upper - 1, body_fun, init_val)
    last = body_fun(upper - 1, most)
    return numpy.add(most, stop_gradient(numpy.subtract(last, most)))


class lax:  # noqa: N801  (a namespace, as docs/sut-api.md asks)
    cond, scan, while_loop = rlax.cond, rlax.scan, rlax.while_loop
    fori_loop = staticmethod(fori_loop)
