"""Broken SUT: vmap counts a negative `out_axes` from the end of the example, not the result.

`out_axes=-1` must put the batch axis last in the result, whose rank is one
more than an example's; this vmap resolves it against the example's rank,
so it lands one place too early (second to last).  Non-negative out_axes,
in_axes of any sign, and scalar outputs are right.  refimpl's vmap with
its output placement done by a wrapper.

Family: batching.  Smallest input: `vmap(numpy.sin, out_axes=-1)(np.ones((2, 3)))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp  # noqa: F401
from refimpl.pytree import tree_flatten, tree_unflatten
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(numpy.sin, out_axes=-1)(np.ones((2, 3)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _place(x, axis):
    example_rank = np.ndim(x) - 1
    return lax.moveaxis(x, 0, (axis + example_rank) % (example_rank + 1))  # correct: axis % ndim


def vmap(fun, in_axes=0, out_axes=0):
    if not isinstance(out_axes, int) or out_axes >= 0:
        return refimpl.vmap(fun, in_axes=in_axes, out_axes=out_axes)

    def run(*args):
        flat, tree = tree_flatten(refimpl.vmap(fun, in_axes=in_axes)(*args))
        return tree_unflatten(tree, [_place(x, out_axes) for x in flat])

    return run
