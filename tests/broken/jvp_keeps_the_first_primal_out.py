"""Broken SUT: jvp keeps the primal output of a function's first call.

jvp memoizes the primal output it computed per function object and argument
types (to skip the primal work when only the tangent changes), but keys it
by the function and the argument types alone, not by the primals' values:
a second jvp of one function at other primals of the same shapes returns
the first call's output beside the right tangent.  Every single call is
right, and a new function object computes afresh; only one function
differentiated at two points shows it.  Inside another transformation (its
primals tracers) it is refimpl's jvp.  Built over refimpl.

Family: reuse.  Smallest input:
`(lambda f: (jvp(f, (1.0,), (1.0,)), jvp(f, (2.0,), (1.0,))))(numpy.sin)`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import Tracer, aval_of
from refimpl.pytree import tree_flatten
from tests.broken import Witness

FAMILY = "reuse"
WITNESS = Witness("(lambda f: (jvp(f, (1.0,), (1.0,)), jvp(f, (2.0,), (1.0,))))(numpy.sin)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_OUTPUTS = {}  # (function, primals' structure and types) -> the first call's output


def jvp(fun, primals, tangents):
    out, tangent = refimpl.jvp(fun, primals, tangents)
    flat, tree = tree_flatten(tuple(primals))
    if any(isinstance(x, Tracer) for x in flat):
        return out, tangent
    key = (fun, tree, tuple(map(aval_of, flat)))
    return _OUTPUTS.setdefault(key, out), tangent  # correct: out, at these primals
