"""JAX, declaring `vmap` and `concatenate` unsupported (and not offering them)."""

import jax

from tests.broken.over_jax import numpy_with

jax.config.update("jax_enable_x64", True)

__sut_unsupported__ = frozenset({"vmap", "concatenate", "while_loop_reverse"})
__version__ = f"jax {jax.__version__} without vmap"

jvp, vjp, grad, jit, lax = jax.jvp, jax.vjp, jax.grad, jax.jit, jax.lax
numpy = numpy_with()
del numpy.concatenate
