"""Broken SUT: tanh's derivative is 1 - tanh x where it is 1 - tanh(x)**2.

The square of the output is lost from the rule: right at x = 0 (both are
1), wrong everywhere else.  Built over refimpl: `numpy.tanh` binds a copy of
refimpl's `tanh` primitive that carries the broken rule.

Family: jvp.  Smallest input: `jvp(numpy.tanh, (1.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.tanh, (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

tanh_p = elementwise_copy(P.tanh_p)
defjvp(tanh_p, lambda t, out, x: ops.mul(t, refimpl_numpy.subtract(1.0, out)))  # correct: out**2

numpy = refimpl_numpy_with(tanh=bound_elementwise(tanh_p, "tanh"))
