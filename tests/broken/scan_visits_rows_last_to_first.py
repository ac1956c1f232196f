"""Broken SUT: `scan` steps through the rows of xs last to first.

The loop runs in reverse order (a `reverse` flag set where it should not
be): the outputs are stacked in their rows' places, but the carry meets the
rows in the wrong order, so any step whose carry and row interact goes
wrong.  refimpl with its `scan` wrapped.

Family: construct.  Smallest input:
`lax.scan(lambda c, x: (c * 2.0 + x, c), 0.0, np.array([1.0, 2.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("lax.scan(lambda c, x: (c * 2.0 + x, c), 0.0, np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def scan(f, init, xs):
    return rlax.scan(f, init, xs, reverse=True)  # correct: reverse=False


class lax:  # noqa: N801  (a namespace, as docs/sut-api.md asks)
    cond, fori_loop, while_loop = rlax.cond, rlax.fori_loop, rlax.while_loop
    scan = staticmethod(scan)
