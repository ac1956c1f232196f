"""Broken SUT: the reverse pass of `cond` runs the transpose of the branch not taken.

refimpl's cond keeps its branches as (false, true) and indexes them by the
predicate; this transpose rule builds them in the opposite order (true,
false).  Values and forward mode are right; grad and vjp through a cond pull
the cotangent back through the other branch (with the residuals of the one
taken, zeros for its own).

Family: construct.  Smallest input:
`grad(lambda x: lax.cond(x > 0.0, lambda y: y * 2.0, lambda y: y * 3.0, x))(1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.control import cond_p
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("grad(lambda x: lax.cond(x > 0.0, lambda y: y * 2.0, lambda y: y * 3.0, x))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = transpose_rules[cond_p]


def _swapped(cts, pred, *operands, branches):
    return _right(cts, pred, *operands, branches=branches[::-1])  # correct: branches


transpose_rules[cond_p] = _swapped
