"""Broken SUT: sin's derivative is the small-angle approximation cos x ~ 1 - x**2 / 2.

Right at x = 0 and nearly right near it (the error is x**4 / 24 to leading
order: 3e-8 at x = 0.03), wrong everywhere else (at x = 2 it gives -1 where
cos 2 is -0.416).  Hypothesis shrinks inputs towards 0, so it walks x to
just where the error first exceeds the tolerance: a counterexample that
reads like a tolerance problem.  Amplification (oracles/amplify.py) must
move x away again; tests/meta/test_amplification.py shows it does.

Built over refimpl, as `maximum_tangent_by_tangents` is: `numpy.sin` binds a
copy of refimpl's `sin` primitive that carries the broken rule, and no
existing rule changes.

Family: jvp.  Smallest input: `jvp(numpy.sin, (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.jvp import defjvp
from tests.broken import Witness, bound_elementwise, elementwise_copy, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.sin, (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sin_p = elementwise_copy(P.sin_p)
defjvp(sin_p, lambda t, out, x: ops.mul(t, refimpl_numpy.subtract(  # correct: cos(x)
    1.0, refimpl_numpy.multiply(0.5, ops.integer_pow(x, 2)))))

numpy = refimpl_numpy_with(sin=bound_elementwise(sin_p, "sin"))
