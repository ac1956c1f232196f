"""Broken SUT: jit caches one compiled function per static arguments, ignoring shapes.

Family: jit.  Smallest input: `(lambda g: (g(np.ones(2)), g(np.ones(3))))(jit(numpy.sin))`.
"""

import jax

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "jit"
WITNESS = Witness("(lambda g: (g(np.ones(2)), g(np.ones(3))))(jit(numpy.sin))", shows="error")

numpy = numpy_with()


def jit(fun, static_argnums=()):
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled = {}

    def run(*args):
        key = tuple(args[i] for i in static)
        if key not in compiled:
            compiled[key] = jax.jit(fun, static_argnums=static).lower(*args).compile()
        return compiled[key](*(a for i, a in enumerate(args) if i not in static))

    return run
