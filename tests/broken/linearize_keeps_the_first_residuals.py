"""Broken SUT: linearize reuses the linear program it staged at a function's first point.

linearize stages the tangent program once and returns it as a function, as
JAX's does; this one keeps what it staged per function object and argument
types, residuals included, and hands it out again: a second linearize of
one function at other primals returns the right output, but a function
whose tangents are those of the first point.  Every single linearize is
right, and a new function object stages afresh; only one function
linearized at two points, its returned function then called, shows it.
Inside another transformation (its primals tracers) it is refimpl's
linearize.  Built over refimpl.

Family: reuse.  Smallest input:
`(lambda f: (linearize(f, 1.0)[1](1.0), linearize(f, 2.0)[1](1.0)))(numpy.sin)`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import Tracer, aval_of
from refimpl.pytree import tree_flatten
from tests.broken import Witness

FAMILY = "reuse"
WITNESS = Witness("(lambda f: (linearize(f, 1.0)[1](1.0), linearize(f, 2.0)[1](1.0)))"
                  "(numpy.sin)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_STAGED = {}  # (function, primals' structure and types) -> the first point's f_jvp


def linearize(fun, *primals):
    out, f_jvp = refimpl.linearize(fun, *primals)
    flat, tree = tree_flatten(primals)
    if any(isinstance(x, Tracer) for x in flat):
        return out, f_jvp
    key = (fun, tree, tuple(map(aval_of, flat)))
    return out, _STAGED.setdefault(key, f_jvp)  # correct: f_jvp, with these residuals
