"""Broken SUT: linearize's f_jvp pushes forward only the first tangent.

`f_jvp(*tangents)` takes one tangent per primal; this one keeps the first
and treats the others as zero, as an implementation that unpacks
`f_jvp(tangent)` (one argument) instead of `f_jvp(*tangents)` would.  Right
for a function of one input.

Family: derived.  Smallest input: `linearize(lambda x, y: x * y, 1.0, 2.0)[1](1.0, 1.0)`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jit,
    jvp,
    lax,
    numpy,
    vjp,
    vmap,
)
from tests.broken import Witness

FAMILY = "derived"
WITNESS = Witness("linearize(lambda x, y: x * y, 1.0, 2.0)[1](1.0, 1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def linearize(fun, *primals):
    out, f_jvp = refimpl.linearize(fun, *primals)
    return out, lambda first, *rest: f_jvp(first, *[numpy.zeros_like(t) for t in rest])
