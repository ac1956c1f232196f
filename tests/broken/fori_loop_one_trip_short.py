"""Broken SUT: `fori_loop(lower, upper, ...)` stops one trip before `upper`.

The loop runs `range(lower, upper - 1)`, an off-by-one in its trip count,
so every loop of n >= 1 trips runs n - 1 (a loop of one trip runs none).
Values and every derivative are those of the shorter loop.  refimpl with
its `fori_loop` bounds moved.

Family: construct.  Smallest input: `lax.fori_loop(0, 1, lambda i, c: c + 1.0, 0.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("lax.fori_loop(0, 1, lambda i, c: c + 1.0, 0.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def fori_loop(lower, upper, body_fun, init_val):
    return rlax.fori_loop(lower, max(upper - 1, lower), body_fun, init_val)  # correct: upper


class lax:  # noqa: N801  (a namespace, as docs/sut-api.md asks)
    cond, scan, while_loop = rlax.cond, rlax.scan, rlax.while_loop
    fori_loop = staticmethod(fori_loop)
