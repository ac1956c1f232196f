"""Broken SUT: `exp` is computed in float32 and widened back to float64.

A float32 step inside a float64 program: exp's value carries a relative
error up to 2**-24 (6e-8), its derivative (exp's output) the same, and
every value downstream inherits it.  Built over refimpl: `numpy.exp` binds
a copy of refimpl's `exp` primitive whose NumPy implementation (eager and
under jit) narrows its operand first.

Family: precision.  Smallest input: `numpy.exp(0.1)`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "precision"
WITNESS = Witness("numpy.exp(0.1)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

exp_p = elementwise_copy(P.exp_p)
exp_p.impl = lambda x: np.exp(np.asarray(x, np.float32)).astype(np.float64)  # correct: np.exp
exp_p.source = None  # jit compiles a call of `impl`
defjvp(exp_p, lambda t, out, x: ops.mul(t, out))

numpy = refimpl_numpy_with(exp=bound_elementwise(exp_p, "exp"))
