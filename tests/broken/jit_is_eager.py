"""Broken SUT: `jit` calls the function eagerly, without tracing it.

Every value is right, so the value properties pass it; but nothing is
traced: a Python `if` on an argument silently follows its value, and a
value the function leaks (stores in a global list) is a plain array that
can be used later, where JAX raises a TracerBoolConversionError and an
UnexpectedTracerError.

Family: jit.  Smallest input: `jit(lambda x: x if x > 0 else -x)(1.0)`.
"""

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "jit"
WITNESS = Witness("jit(lambda x: x if x > 0 else -x)(1.0)", shows="refusal")

numpy = numpy_with()


def jit(fun, static_argnums=()):
    return fun
