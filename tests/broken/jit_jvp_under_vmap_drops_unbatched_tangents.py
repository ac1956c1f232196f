"""Broken SUT: under `vmap`, the jvp of a jitted call drops the tangents of unbatched primals.

refimpl with the JVP rule of `jit`'s call, when a `vmap` trace is beneath
it (a derivative taken inside `vmap`), keeping only the tangents whose
primals the `vmap` batches: a primal the `vmap` leaves unbatched (a value
captured from outside it, an argument mapped with `in_axes=None`) loses its
tangent, even where the tangent itself is batched.  `jit` of a derivative,
a derivative of `jit`, and `vmap` of anything without a jitted call inside
the derivative are right.  JAX and refimpl pass every tangent on.

Family: batching.  Smallest input:
`vmap(lambda t: jvp(jit(numpy.sin), (1.0,), (t,))[1])(np.array([1.0, 2.0]))`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    checkpoint,
    core,
    custom_jvp,
    custom_vjp,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jit,
    jvp,
    lax,
    linearize,
    numpy,
    vjp,
    vmap,
)
from refimpl.jit import jit_p
from refimpl.jvp import jvp_rules
from refimpl.vmap import BatchInterpreter, BatchTracer
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(lambda t: jvp(jit(numpy.sin), (1.0,), (t,))[1])(np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = jvp_rules[jit_p]


def batching() -> bool:
    interp = core.current
    while interp is not None:
        if isinstance(interp, BatchInterpreter):
            return True
        interp = getattr(interp, "prev", None)
    return False


def _jvp(primals, tangents, **params):
    if batching():
        tangents = [t if isinstance(p, BatchTracer) else None for p, t in zip(primals, tangents)]
    return _right(primals, tangents, **params)


jvp_rules[jit_p] = _jvp
