"""Broken SUT: a grad function replays the backward pass it traced at its first call.

`grad(f)` traces `f`'s backward pass at its first call and keeps it per
argument types, so a later call of the same types skips the trace, as a
cache should; but the kept pass holds the first call's residuals as
constants, so it gives the first call's gradient at every later point.
Every single call is right, and a new `grad(f)` traces afresh; only one
gradient function called at two points shows it.  Inside another
transformation (its arguments tracers) it is refimpl's grad.  Built over
refimpl.

Family: reuse.  Smallest input: `(lambda g: (g(1.0), g(2.0)))(grad(numpy.sin))`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import Tracer, aval_of
from refimpl.pytree import tree_flatten
from tests.broken import Witness

FAMILY = "reuse"
WITNESS = Witness("(lambda g: (g(1.0), g(2.0)))(grad(numpy.sin))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def grad(fun, argnums=0):
    traced = refimpl.grad(fun, argnums)
    passes = {}  # argument structure and types -> the first call's gradient

    def grad_fun(*args):
        flat, tree = tree_flatten(args)
        if any(isinstance(x, Tracer) for x in flat):
            return traced(*args)
        key = (tree, tuple(map(aval_of, flat)))
        if key not in passes:
            passes[key] = traced(*args)
        return passes[key]  # correct: traced(*args), the pass at this call's residuals

    return grad_fun
