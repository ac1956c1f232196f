"""Broken SUT: `while_loop` runs its body once before it first tests the condition.

A do-while where a while was asked for: a loop whose condition is false on
entry still runs one step.  Every loop that runs at least once is right.
refimpl with its `while_loop` wrapped.

Family: construct.  Smallest input: `lax.while_loop(lambda c: c < 0.0, lambda c: c + 1.0, 1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("lax.while_loop(lambda c: c < 0.0, lambda c: c + 1.0, 1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def while_loop(cond_fun, body_fun, init_val):
    return rlax.while_loop(cond_fun, body_fun, body_fun(init_val))  # correct: init_val


class lax:  # noqa: N801  (a namespace, as docs/sut-api.md asks)
    cond, fori_loop, scan = rlax.cond, rlax.fori_loop, rlax.scan
    while_loop = staticmethod(while_loop)
