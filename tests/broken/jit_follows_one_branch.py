"""Broken SUT: jit decides every Python branch once, on the first call's values.

The first call for given argument shapes runs `f` eagerly on its arguments
(as JAX arrays) and records the outcome of every `bool()` of an array, that
is of every Python `if` on a value; `f` is then traced with `jax.jit`, each
`bool()` of a tracer answered from that record, and the compiled trace
serves every later call of those shapes (inside another transformation it
is JAX's jit).  Straight-line programs come out right; a program that
branches on a value silently follows the first call's branch for every
input, where JAX raises a TracerBoolConversionError.

Family: jit.  Smallest input: `jit(lambda x: x if x > 0 else -x)(1.0)`.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "jit"
WITNESS = Witness("jit(lambda x: x if x > 0 else -x)(1.0)", shows="refusal")

numpy = numpy_with()


@contextlib.contextmanager
def bool_answered_by(cls, answer):
    """While active, `bool(x)` of an instance of `cls` is `answer(x, original __bool__)`."""
    original = cls.__bool__
    cls.__bool__ = lambda x: answer(x, original)
    try:
        yield
    finally:
        cls.__bool__ = original


def _outcomes(fun, args) -> list[bool]:
    """The `bool()` results `fun(*args)` computes eagerly, in order."""
    seen = []

    def record(x, original):
        seen.append(original(x))
        return seen[-1]

    arrays = jax.tree.map(jnp.asarray, list(args))
    with bool_answered_by(type(jnp.asarray(0.0)), record):
        fun(*arrays)
    return seen


def jit(fun, static_argnums=()):
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled = {}

    def run(*args):
        dynamic = [a for i, a in enumerate(args) if i not in static]
        leaves, tree = jax.tree.flatten(dynamic)
        if any(isinstance(leaf, jax.core.Tracer) for leaf in leaves):
            return jax.jit(fun, static_argnums=static)(*args)  # inside a transformation
        key = (tree, tuple(np.shape(leaf) for leaf in leaves), tuple(args[i] for i in static))
        if key not in compiled:
            def concrete(*xs):
                it = iter(xs)
                return fun(*(args[i] if i in static else next(it) for i in range(len(args))))

            replay = iter(_outcomes(concrete, dynamic))
            with bool_answered_by(jax.core.Tracer, lambda tracer, original: next(replay)):
                compiled[key] = jax.jit(fun, static_argnums=static).lower(*args).compile()
        return compiled[key](*dynamic)

    return run
