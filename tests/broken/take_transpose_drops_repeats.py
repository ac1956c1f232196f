"""Broken SUT: take's transpose puts each cotangent back where it came from instead
of adding it there, so where an index repeats, only one of its cotangents arrives.

The slip of a scatter written with assignment (`x[indices] = ct`) where an
addition is due (`np.add.at`): right for indices that are all different (a
permutation, a slice), wrong for a gather that takes one element twice,
whose gradient is the sum of both.  Values and forward mode are right.
Built over refimpl: `numpy.take` gathers with a copy of refimpl's
`take_along_axis` primitive whose transpose is this scatter.

Family: transpose.  Smallest input:
`grad(lambda x: numpy.sum(numpy.take(x, np.array([0, 0]))))(np.array([1.0]))`.
"""

from functools import partial

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import gather_jvp, jvp_rules
from refimpl.transpose import transpose_rules
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "transpose"
WITNESS = Witness("grad(lambda x: numpy.sum(numpy.take(x, np.array([0, 0]))))(np.array([1.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _put_impl(x, indices, *, axis, size):
    shape = x.shape[:axis] + (size,) + x.shape[axis + 1:]
    out = np.zeros(shape, x.dtype)
    np.put_along_axis(out, indices, x, axis)  # correct: np.add.at, so repeats add up
    return out


gather_p = structural_copy(P.take_along_axis_p)
put_p = structural_copy(P.scatter_add_p)
put_p.impl = _put_impl
put_p.source = None  # no template: jit calls the impl above


for _prim in (gather_p, put_p):
    jvp_rules[_prim] = partial(gather_jvp, _prim)
transpose_rules[gather_p] = lambda ct, x, indices, *, axis: [
    bind(put_p, ct, indices, axis=axis, size=x.shape[axis]), None]
transpose_rules[put_p] = lambda ct, x, indices, *, axis, size: [
    bind(gather_p, ct, indices, axis=axis), None]


def take(a, indices, axis=None):
    a, axis = (refimpl_numpy.ravel(a), 0) if axis is None else (a, axis)
    shape = refimpl.core.aval_of(a).shape
    axis %= len(shape)
    indices = np.asarray(indices) % shape[axis]
    spread = [len(indices) if i == axis else d for i, d in enumerate(shape)]
    where = indices.reshape([len(indices) if i == axis else 1 for i in range(len(shape))])
    return bind(gather_p, a, np.broadcast_to(where, spread), axis=axis)


numpy = refimpl_numpy_with(take=take)
