"""Broken SUT: jit stages a function at its first call's values and reuses them.

A jitted function keeps what it compiled per argument types (shapes,
dtypes, static values), as JAX's does, but what it compiled holds the first
call's arguments as constants, so a later call of the same types gets the
first call's result.  Every single call is right, and a call of new shapes
or dtypes compiles afresh; only one jitted function called twice at one
shape shows it.  Inside another transformation (its arguments tracers) it is
refimpl's jit.  Built over refimpl.

Family: jit.  Smallest input: `(lambda g: (g(np.ones(2)), g(np.zeros(2))))(jit(numpy.sin))`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import Tracer, aval_of
from refimpl.pytree import argnums_tuple, tree_flatten
from tests.broken import Witness

FAMILY = "jit"
WITNESS = Witness("(lambda g: (g(np.ones(2)), g(np.zeros(2))))(jit(numpy.sin))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def jit(fun, static_argnums=(), **options):
    jitted = refimpl.jit(fun, static_argnums=static_argnums, **options)
    static = argnums_tuple(static_argnums)
    first = {}

    def run(*args):
        dynamic, tree = tree_flatten([a for i, a in enumerate(args) if i not in static])
        if any(isinstance(leaf, Tracer) for leaf in dynamic):
            return jitted(*args)
        key = (tree, tuple(map(aval_of, dynamic)), tuple(args[i] for i in static))
        # correct: jitted(*args), the values of this call
        return jitted(*first.setdefault(key, args))

    return run
