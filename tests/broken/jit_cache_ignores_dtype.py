"""Broken SUT: jit's cache is keyed by argument shapes and static values, not dtypes.

The executable compiled for the first call's dtypes is reused for a call of
the same shapes in another dtype, which JAX's compiled function refuses
(where JAX's jit would compile again).  Only a call that changes dtype
shows it: one jitted function on float64 inputs, then on float32 ones
(tests/test_dtypes.py).

Family: jit.  Smallest input:
`(lambda g: (g(np.ones(2)), g(np.ones(2, np.float32))))(jit(numpy.sin))`.
"""

import jax
import numpy as np
from jax._src.core import trace_state_clean

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "jit"
WITNESS = Witness("(lambda g: (g(np.ones(2)), g(np.ones(2, np.float32))))(jit(numpy.sin))",
                  shows="error")

numpy = numpy_with()


def jit(fun, static_argnums=()):
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled = {}

    def run(*args):
        # Inside a transformation, JAX's own jit: a function there may close over the
        # transformation's tracers, which an executable compiled ahead cannot take.
        if not trace_state_clean():
            return jax.jit(fun, static_argnums=static)(*args)
        dynamic = [a for i, a in enumerate(args) if i not in static]
        leaves, tree = jax.tree.flatten(dynamic)
        # correct: the leaves' dtypes belong in the key too
        key = (tree, tuple(np.shape(leaf) for leaf in leaves), tuple(args[i] for i in static))
        if key not in compiled:
            compiled[key] = jax.jit(fun, static_argnums=static).lower(*args).compile()
        return compiled[key](*dynamic)

    return run
