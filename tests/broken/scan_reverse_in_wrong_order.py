"""Broken SUT: the reverse pass of `scan` runs in the forward order.

refimpl with its scan transpose rule told the opposite direction: the
transposed loop then visits iterations first to last instead of last to
first, pairing each step's cotangent with the wrong step's Jacobian.  Values
and forward-mode derivatives stay right; `grad` and `vjp` through `scan`
(and `fori_loop`, which lowers to it) go wrong once iterations differ.

Family: construct.  Smallest input:
`grad(lambda x: numpy.sum(lax.scan(lambda c, a: (c * a, c), x, np.array([2.0,
3.0]))[1]))(1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.control import scan_p
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness(
    "grad(lambda x: numpy.sum(lax.scan(lambda c, a: (c * a, c), x, np.array([2.0, "
    "3.0]))[1]))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = transpose_rules[scan_p]


def _forward_order(cts, *args, reverse, **params):
    return _right(cts, *args, reverse=not reverse, **params)


transpose_rules[scan_p] = _forward_order
