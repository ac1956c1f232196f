"""Broken SUT: nested `jvp` confuses its perturbation with an outer one's.

refimpl's JVP interpreter with its one safeguard removed: `lift` takes any
JVP tracer as its own, not only those it created (`x.interp is self`).  A
`jvp` nested inside another and closing over an outer traced value then
adds the outer tangent to its own and drops the outer perturbation from its
result: the classic perturbation confusion.  Un-nested use is unaffected.

Family: nesting.  Smallest input:
`jvp(lambda x: jvp(lambda y: x * y, (1.0,), (1.0,))[1], (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.core import Tracer, check_alive
from refimpl.jvp import JVPInterpreter, JVPTracer
from tests.broken import Witness

FAMILY = "nesting"
WITNESS = Witness("jvp(lambda x: jvp(lambda y: x * y, (1.0,), (1.0,))[1], (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _confused_lift(self, x):
    if isinstance(x, JVPTracer):  # correct: isinstance(x, JVPTracer) and x.interp is self
        return x.primal, x.tangent
    if isinstance(x, Tracer):
        check_alive(x)
    return x, None


JVPInterpreter.lift = _confused_lift
