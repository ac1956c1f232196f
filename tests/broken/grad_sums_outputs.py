"""Broken SUT: `grad` of a function with a non-scalar output differentiates its sum.

JAX raises "Gradient only defined for scalar-output functions"; this grad
quietly sums the output first, so `grad(jnp.sin)(x)` returns `cos(x)`
instead of refusing.  For a scalar output it is JAX's own grad.

Family: refusal.  Smallest input: `grad(numpy.sin)(np.ones(2))`.
"""

import jax
import jax.numpy as jnp

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "refusal"
WITNESS = Witness("grad(numpy.sin)(np.ones(2))", shows="refusal")

numpy = numpy_with()


def grad(fun, argnums=0):
    return jax.grad(lambda *args: jnp.sum(fun(*args)), argnums=argnums)
