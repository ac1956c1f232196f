"""Broken SUT: grad runs one forward-mode pass per input element.

`grad` is `jax.jacfwd`: a JVP along every basis vector of the input (batched
with vmap), which for a scalar loss is exactly the gradient.  Every value is
right; the cost is n forward passes for an input of n elements, so the work
of `grad` grows with the input size (quadratically on the `input_size`
family) instead of staying within a constant factor of `f`.
`tests/meta/test_cost_catches.py` shows the complexity properties catch it
and the value properties pass it.

Family: cost.  Smallest input: `input_size`.
"""

import jax
import jax.numpy as jnp

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "cost"
WITNESS = Witness("input_size", shows="cost")

numpy = numpy_with()
make_jaxpr = jax.make_jaxpr


def grad(fun, argnums=0):
    def scalar(*args):
        out = fun(*args)
        if jnp.ndim(out) != 0:  # as jax.grad: only a scalar output has a gradient
            raise TypeError(f"grad requires a scalar output, got shape {jnp.shape(out)}")
        return out

    return jax.jacfwd(scalar, argnums=argnums)
