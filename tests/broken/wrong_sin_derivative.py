"""Broken SUT: sin's derivative has the wrong sign (-cos x instead of cos x)."""

import jax
import jax.numpy as jnp

from tests.broken import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken import numpy_with


@jax.custom_jvp
def sin(x):
    return jnp.sin(x)


@sin.defjvp
def _sin_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.sin(x), -jnp.cos(x) * t


numpy = numpy_with(sin=sin)
