"""Broken SUT: clip's derivative is 1 everywhere, the straight-through estimator.

`x + stop_gradient(clip(x) - x)` has clip's value and the identity's
derivative: a trick from training quantised networks, here standing in for
clip itself, so the tangent passes through where clip is flat.  Built
over refimpl: `numpy.clip` is that expression over refimpl's clip.

Family: jvp.  Smallest input: `jvp(lambda x: numpy.clip(x, 0.0, 1.0), (2.0,), (1.0,))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda x: numpy.clip(x, 0.0, 1.0), (2.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def clip(x, a_min, a_max):
    """clip's value, the identity's derivative (correct: refimpl_numpy.clip itself)."""
    return refimpl_numpy.add(x, stop_gradient(refimpl_numpy.subtract(
        refimpl_numpy.clip(x, a_min, a_max), x)))


numpy = refimpl_numpy_with(clip=clip)
