"""Broken SUT: `vmap` of a gather whose indices are batched takes every example's
elements at the first example's indices.

The slip of a batching rule written for constant indices (a `take` by a
literal index list, the same for every example), then met by indices the
program computed from a mapped value (an `argmax`, a sort's order): each
example needs its own.  Values, derivatives and unbatched gathers are right.
Built over refimpl: `numpy.take_along_axis` gathers with a copy of refimpl's
primitive whose batching rule keeps the indices' first example.

Family: batching.  Smallest input: `vmap(lambda x: numpy.take_along_axis(x,
numpy.argmax(x, axis=0, keepdims=True), axis=0))(np.array([[1.0, 2.0], [3.0, 0.0]]))`.
"""

from functools import partial

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import gather_jvp, jvp_rules
from refimpl.transpose import transpose_rules
from refimpl.vmap import FRONT_MOVES, front_batch, vmap_rules
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "batching"
WITNESS = Witness("vmap(lambda x: numpy.take_along_axis(x, numpy.argmax(x, axis=0, "
                  "keepdims=True), axis=0))(np.array([[1.0, 2.0], [3.0, 0.0]]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

gather_p = structural_copy(P.take_along_axis_p)


def _gather_batch(batch, vals, dims, *, axis):
    x, indices = vals
    if dims[1] is not None:  # correct: keep them, each example its own
        stacked = ops.moveaxis(indices, dims[1], 0)
        shape = aval_of(stacked).shape
        first = ops.slice(stacked, [0] * len(shape), [1, *shape[1:]])
        indices, dims = ops.reshape(first, shape[1:]), (dims[0], None)
    return front_batch(gather_p, FRONT_MOVES[P.take_along_axis_p], batch, (x, indices), dims,
                       axis=axis)


jvp_rules[gather_p] = partial(gather_jvp, gather_p)
vmap_rules[gather_p] = _gather_batch
transpose_rules[gather_p] = transpose_rules[P.take_along_axis_p]


def take_along_axis(arr, indices, axis):
    axis %= len(aval_of(arr).shape)
    return bind(gather_p, arr, indices, axis=axis)


numpy = refimpl_numpy_with(take_along_axis=take_along_axis)
