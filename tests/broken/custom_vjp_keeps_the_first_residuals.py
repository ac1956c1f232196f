"""Broken SUT: a custom_vjp function hands its backward rule the residuals of its first call.

A function with custom_vjp rules runs its `fwd` and saves what it returns as
residuals for `bwd`; this one saves them on the function object once, at
its first call in reverse mode (as a rule that keeps its context on the
function, not on the call), and gives every later backward pass those (when
they have the same types), so a function differentiated at two points gets
the first point's derivative at the second, or, traced again, a value of a
trace that has ended.  Every single call is right, and a new custom_vjp
function saves afresh; only one such function differentiated at two points
shows it.  Built over refimpl.

Family: reuse.  Smallest input:
`(lambda f: (grad(f)(1.0), grad(f)(2.0)))((lambda f: (f.defvjp(lambda x:
(numpy.sin(x), (x,)), lambda r, c: (c * numpy.cos(r[0]),)), f)[1])(custom_vjp(numpy.sin)))`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import aval_of
from refimpl.pytree import tree_flatten
from tests.broken import Witness

FAMILY = "reuse"
WITNESS = Witness("(lambda f: (grad(f)(1.0), grad(f)(2.0)))((lambda f: (f.defvjp("
                  "lambda x: (numpy.sin(x), (x,)), lambda r, c: (c * numpy.cos(r[0]),)), f)[1])"
                  "(custom_vjp(numpy.sin)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _types(tree) -> tuple:
    leaves, structure = tree_flatten(tree)
    return structure, tuple(map(aval_of, leaves))


class custom_vjp(refimpl.custom_vjp):
    def defvjp(self, fwd, bwd):
        saved = []  # (types, residuals) of the first call

        def saving_fwd(*primals):
            out, residuals = fwd(*primals)
            if not saved:
                saved.append((_types(residuals), residuals))
            types, first = saved[0]
            # correct: residuals, this call's
            return out, first if types == _types(residuals) else residuals

        super().defvjp(saving_fwd, bwd)
