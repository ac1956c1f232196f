"""Broken SUT: maximum's tangent is the larger of the two tangents, not the larger operand's.

The rule compares the tangents where it should compare the primals, so the
tangent map is no longer linear: jvp(f, x, a t + b s) differs from
a jvp(f, x, t) + b jvp(f, x, s).  Built over refimpl so the meta-test
shrinks in seconds: `numpy.maximum` binds a copy of refimpl's `max`
primitive that carries the broken rule (refimpl's tables gain an entry for
the copy; no existing entry, and not its closed `PRIMITIVES` list, changes).
`tests/meta/test_broken_suts.py` shows the linearity identity catches it.

Family: jvp.  Smallest input: `jvp(numpy.maximum, (2.0, 1.0), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import instantiate, jvp_rules
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.maximum, (2.0, 1.0), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

max_p = elementwise_copy(P.max_p)


def _max_jvp(primals, tangents):
    tx, ty = (instantiate(t, p) for t, p in zip(tangents, primals))
    return bind(max_p, *primals), lax.max(tx, ty)  # correct: select_n(gt(x, y), ty, tx)


jvp_rules[max_p] = _max_jvp

numpy = refimpl_numpy_with(maximum=bound_elementwise(max_p, "maximum"))
