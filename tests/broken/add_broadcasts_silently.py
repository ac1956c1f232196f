"""Broken SUT: `numpy.add` of shapes that do not broadcast resizes its second operand.

Where NumPy and JAX raise ("operands could not be broadcast together"),
this `add` repeats or truncates the second operand to the first one's shape
(`numpy.resize` semantics) and adds: (2, 3) + (4,) silently returns a
(2, 3) array.  Every broadcastable call is JAX's own.

Family: refusal.  Smallest input: `numpy.add(np.ones((2, 3)), np.ones(4))`.
"""

import jax.numpy as jnp

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "refusal"
WITNESS = Witness("numpy.add(np.ones((2, 3)), np.ones(4))", shows="refusal")


def add(x, y):
    try:
        jnp.broadcast_shapes(jnp.shape(x), jnp.shape(y))
    except ValueError:
        y = jnp.resize(y, jnp.shape(x))
    return jnp.add(x, y)


numpy = numpy_with(add=add)
