"""Broken SUT: abs's tangent is t * sign(x), so its slope at 0 is 0, not the contract's 1.

Off 0 the rule is right, and finite differences, kept off the kink, agree
with it; only the convention row at 0 (tests/test_conventions.py) sees the
slope the contract states (JAX's).  Built over refimpl: `numpy.abs` binds
a copy of refimpl's `abs` primitive with this rule.

Family: kink.  Smallest input: `jvp(numpy.abs, (0.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(numpy.abs, (0.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

abs_p = elementwise_copy(P.abs_p)
defjvp(abs_p, lambda t, out, x: ops.mul(t, bind(P.sign_p, x)))  # correct: -t where x < 0, else t

numpy = refimpl_numpy_with(abs=bound_elementwise(abs_p, "abs"))
