"""An SUT that is an object inside a module, for `--sut tests.shims.objects:JAX`."""

from types import SimpleNamespace

import jax

from tests.broken.over_jax import numpy_with

jax.config.update("jax_enable_x64", True)

JAX = SimpleNamespace(jvp=jax.jvp, vjp=jax.vjp, grad=jax.grad, vmap=jax.vmap, jit=jax.jit,
                      numpy=numpy_with(), lax=jax.lax, __version__=f"jax {jax.__version__}",
                      __sut_unsupported__=frozenset({"while_loop_reverse"}))
