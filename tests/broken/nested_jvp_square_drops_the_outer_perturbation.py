"""Broken SUT: nested forward mode squares an intermediate with the outer perturbation lost.

A product whose two operands are one value (`a * a`, an intermediate used
twice) takes a fast path in forward mode: its tangent is `2 a t`, with `a`
read as a plain number.  Under one level of forward mode that is right;
under jvp of jvp, `a` carries the outer level's perturbation, and the fast
path confuses it with its own level's, taking it as already counted, so the
second derivative loses the cross term `2 a' t`: wrong for
`a = sin(x); (a * a) * a`, right for `sin(x) * sin(x)` (two values).  First
derivatives are right everywhere.  Built over refimpl.

Family: nesting.  Smallest input:
`jvp(lambda x: jvp(lambda y: (lambda a: a * a)(numpy.sin(y)), (x,), (1.0,))[1], (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import (
    __sut_unsupported__,  # noqa: F401
    ops,
)
from refimpl import primitives as P
from refimpl.jvp import JVPTracer, jvp_rules
from tests.broken import Witness

FAMILY = "nesting"
WITNESS = Witness("jvp(lambda x: jvp(lambda y: (lambda a: a * a)(numpy.sin(y)), (x,), (1.0,))[1],"
                  " (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_product = jvp_rules[P.mul_p]


def _as_number(x):
    """`x` with the perturbation of the level around it dropped (a tracer's primal)."""
    return x.primal if isinstance(x, JVPTracer) else x


def _squaring_jvp(primals, tangents, **params):
    (x, y), (t, s) = primals, tangents
    if x is not y or t is not s or t is None:
        return _product(primals, tangents, **params)
    a = _as_number(x)  # correct: x, with every outer level's perturbation
    return ops.mul(x, x), ops.add(ops.mul(t, a), ops.mul(a, t))


jvp_rules[P.mul_p] = _squaring_jvp
