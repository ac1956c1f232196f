"""Broken SUT: vmap traces the unmapped arguments of its first call in as constants.

A vmapped function keeps its batched trace per argument types, and an
argument with `in_axes` None is the same for every batch element, so this
vmap folds it into the trace as a constant, at its first call's value: a
later call of the same types with another unmapped argument computes with
the first one.  Mapped arguments are read afresh, every single call is
right, and a new vmapped function traces afresh; only one vmapped function
called twice with an unmapped argument changed shows it.  Inside another
transformation (its arguments tracers) it is refimpl's vmap.  Built over
refimpl.

Family: reuse.  Smallest input:
`(lambda g: (g(np.ones(2), 1.0), g(np.ones(2), 2.0)))(vmap(numpy.multiply, in_axes=(0, None)))`.
"""

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for what this module defines)
from refimpl import __sut_unsupported__  # noqa: F401
from refimpl.core import Tracer, aval_of
from refimpl.pytree import tree_flatten
from tests.broken import Witness

FAMILY = "reuse"
WITNESS = Witness("(lambda g: (g(np.ones(2), 1.0), g(np.ones(2), 2.0)))"
                  "(vmap(numpy.multiply, in_axes=(0, None)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _unmapped(in_axes, count: int) -> list[bool]:
    """Per positional argument, whether `in_axes` leaves it unmapped (None)."""
    if isinstance(in_axes, (tuple, list)):
        return [axis is None for axis in in_axes]
    return [in_axes is None] * count


def vmap(fun, in_axes=0, out_axes=0):
    mapped = refimpl.vmap(fun, in_axes=in_axes, out_axes=out_axes)
    traced = {}  # argument structure and types -> the first call's arguments

    def batched(*args):
        flat, tree = tree_flatten(args)
        if any(isinstance(x, Tracer) for x in flat):
            return mapped(*args)
        first = traced.setdefault((tree, tuple(map(aval_of, flat))), args)
        # correct: args, every argument of this call
        return mapped(*(kept if unmapped else arg for arg, kept, unmapped
                        in zip(args, first, _unmapped(in_axes, len(args)))))

    return batched
