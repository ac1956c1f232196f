"""Deliberately broken SUTs: JAX or refimpl with one bug each, for meta-tests.

Each module here meets the contract (docs/sut-api.md) by re-exporting an SUT with exactly one
piece replaced by a plausible bug: JAX through this package (`from
tests.broken import *`, and `numpy_with` for the numpy namespace), or
refimpl, imported directly, where refimpl's speed makes shrinking fast.
`tests/meta/test_broken_suts.py` shows that the matching property catches
it and shrinks it to a tiny reproducer; a property no broken SUT can fail
would be toothless.
"""

from functools import partial
from types import SimpleNamespace

import jax
import jax.numpy as jnp

from oracles.sut import CONTRACT
from refimpl import numpy as refimpl_numpy
from refimpl.core import Primitive
from refimpl.vmap import _elementwise_batch, vmap_rules

jax.config.update("jax_enable_x64", True)


def numpy_with(**overrides) -> SimpleNamespace:
    """jax.numpy's contract functions, with `overrides` in place of some."""
    return SimpleNamespace(**{name: getattr(jnp, name) for name in CONTRACT["numpy"]}
                           | overrides)


def refimpl_numpy_with(**overrides) -> SimpleNamespace:
    """refimpl's numpy namespace, with `overrides` in place of some."""
    return SimpleNamespace(**({name: getattr(refimpl_numpy, name) for name in dir(refimpl_numpy)
                               if not name.startswith("_")} | overrides))


def elementwise_copy(prim) -> Primitive:
    """A copy of refimpl's elementwise `prim` (value, shape rule, cost, jit source
    and batching rule) for a shim to give a broken derivative rule of its own:
    refimpl's tables gain an entry for the copy, and no existing entry changes."""
    copy = Primitive(prim.name)
    copy.impl, copy.shape_rule, copy.cost, copy.source = (prim.impl, prim.shape_rule, prim.cost,
                                                          prim.source)
    vmap_rules[copy] = partial(_elementwise_batch, copy)
    return copy


def bound_elementwise(prim, name: str):
    """`numpy.<name>` of refimpl, binding `prim` (an `elementwise_copy`)."""
    return lambda *xs: refimpl_numpy._elementwise(prim, name, *xs)


# What every shim re-exports unchanged (`from tests.broken import *`) unless
# it overrides it by defining the name again.  `numpy` each shim builds with
# `numpy_with`: this package alone is an incomplete SUT, which
# tests/meta/test_sut_plugin.py relies on.
jvp, vjp, grad, vmap, jit, lax = jax.jvp, jax.vjp, jax.grad, jax.vmap, jax.jit, jax.lax
__version__ = f"jax {jax.__version__}, deliberately broken"
# JAX refuses reverse mode through while_loop; a shim over it says so.
__sut_unsupported__ = frozenset({"while_loop_reverse"})
__all__ = ["jvp", "vjp", "grad", "vmap", "jit", "lax", "__version__", "__sut_unsupported__"]
