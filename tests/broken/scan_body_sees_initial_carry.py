"""Broken SUT: every step of `scan` is handed the initial carry, not the previous step's.

A stale carry: the body closes over `init` where it should take the carry
it is passed, so each step starts afresh and the final carry is the last
step applied to `init`.  Right for scans of at most one step, or whose step
ignores the carry.  refimpl with its `scan` wrapped.

Family: construct.  Smallest input:
`lax.scan(lambda c, x: (c + x, c), 0.0, np.array([1.0, 2.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("lax.scan(lambda c, x: (c + x, c), 0.0, np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def scan(f, init, xs):
    return rlax.scan(lambda carry, x: f(init, x), init, xs)  # correct: f(carry, x)


class lax:  # noqa: N801  (a namespace, as docs/sut-api.md asks)
    cond, fori_loop, while_loop = rlax.cond, rlax.fori_loop, rlax.while_loop
    scan = staticmethod(scan)
