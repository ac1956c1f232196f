"""Broken SUT: grad takes the argnums one at a time and freezes the arguments after each.

For argument i it differentiates with every later argument passed as a
constant, its outer tangents dropped (a stop_gradient meant to cut the
graph between passes).  Every first derivative is right; but in jvp of
grad, d(grad_i)/d(x_j) is lost for j > i while d(grad_j)/d(x_i) is kept, so
the Hessian is not symmetric.  Built over refimpl so the meta-test shrinks
in seconds.  `tests/meta/test_broken_suts.py` shows the Hessian symmetry
identity catches it.

Family: higher_order.  Smallest input:
`jvp(lambda y: grad(lambda a, b: a * b, argnums=(0, 1))(1.0, y), (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.jvp import JVPTracer
from tests.broken import Witness

FAMILY = "higher_order"
WITNESS = Witness("jvp(lambda y: grad(lambda a, b: a * b, argnums=(0, 1))(1.0, y), (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _stop_gradient(x):
    while isinstance(x, JVPTracer):
        x = x.primal
    return x


def grad(fun, argnums=0):
    nums = argnums if isinstance(argnums, tuple) else (argnums,)

    def gradient(*args):
        grads = []
        for i in nums:
            frozen = [_stop_gradient(a) if j > i else a for j, a in enumerate(args)]  # the bug
            grads.append(refimpl.grad(fun, argnums=i)(*frozen))
        return tuple(grads) if isinstance(argnums, tuple) else grads[0]

    return gradient
