"""JAX as a broken shim starts from it: the contract's names, re-exported
unchanged (`from tests.broken.over_jax import *`) unless the shim overrides
one by defining the name again, and `numpy_with` for its numpy namespace.

`numpy` each shim builds with `numpy_with`: this module alone is an
incomplete SUT, which tests/meta/test_sut_plugin.py relies on.
"""

from types import SimpleNamespace

import jax
import jax.numpy as jnp

from oracles.sut import CONTRACT

jax.config.update("jax_enable_x64", True)


def numpy_with(**overrides) -> SimpleNamespace:
    """jax.numpy's contract functions, with `overrides` in place of some."""
    tops = {name.partition(".")[0] for name in CONTRACT["numpy"]}  # linalg.solve: linalg
    return SimpleNamespace(**{name: getattr(jnp, name) for name in tops} | overrides)


jvp, vjp, grad, vmap, jit, lax = jax.jvp, jax.vjp, jax.grad, jax.vmap, jax.jit, jax.lax
__version__ = f"jax {jax.__version__}, deliberately broken"
# JAX refuses reverse mode through while_loop; a shim over it says so.
__sut_unsupported__ = frozenset({"while_loop_reverse"})
__all__ = ["jvp", "vjp", "grad", "vmap", "jit", "lax", "__version__", "__sut_unsupported__"]
