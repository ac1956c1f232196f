"""Broken SUT: jit's cache is keyed by the dynamic arguments' types only, not the static values.

The first call for given argument types traces `f` with that call's static
arguments baked in; a later call with other static values but the same
types hits the cache and silently reuses them.  refimpl's jit, under a
cache of its own that leaves the static values out of the key.

Family: jit.  Smallest input:
`(lambda g: (g(1.0, 2.0), g(1.0, 3.0)))(jit(lambda x, k: x * k, static_argnums=1))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.core import aval_of
from refimpl.pytree import argnums_tuple, tree_flatten
from tests.broken import Witness

FAMILY = "jit"
WITNESS = Witness(
    "(lambda g: (g(1.0, 2.0), g(1.0, 3.0)))(jit(lambda x, k: x * k, static_argnums=1))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _with_statics(statics: dict, dynamic) -> list:
    it = iter(dynamic)
    return [statics[i] if i in statics else next(it) for i in range(len(statics) + len(dynamic))]


def jit(fun, static_argnums=()):
    static = argnums_tuple(static_argnums)
    cache = {}

    def run(*args):
        static_args = {i % len(args): args[i] for i in static}
        dynamic = [a for i, a in enumerate(args) if i not in static_args]
        flat, tree = tree_flatten(dynamic)
        key = (tree, tuple(map(aval_of, flat)))  # correct: and the static values
        if key not in cache:
            cache[key] = refimpl.jit(lambda *xs: fun(*_with_statics(static_args, xs)))
        return cache[key](*dynamic)

    return run
