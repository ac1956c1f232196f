"""Broken SUT: pad's transpose slices the cotangent from the after-width, not the before.

The transpose of padding is slicing the padded cotangent back out, from
`before` to `size - after` on each axis; this rule starts at `after`, a
slip that a symmetric pad (`pad_width=1`) hides.  Forward mode and values
are right.  Built over refimpl: `numpy.pad` binds a copy of refimpl's `pad`
primitive with this transpose rule.

Family: transpose.  Smallest input:
`vjp(lambda x: numpy.pad(x, ((1, 0),)), np.zeros(2))[1](np.array([1.0, 2.0, 3.0]))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import jvp_rules
from refimpl.transpose import transpose_rules
from refimpl.vmap import vmap_rules
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "transpose"
WITNESS = Witness("vjp(lambda x: numpy.pad(x, ((1, 0),)), np.zeros(2))[1]"
                  "(np.array([1.0, 2.0, 3.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

pad_p = structural_copy(P.pad_p)


def _jvp(primals, tangents, *, padding_config):
    (x, v), (tx, _) = primals, tangents
    tx = ops.zeros(aval_of(x)) if tx is None else tx
    return (bind(pad_p, x, v, padding_config=padding_config),
            bind(pad_p, tx, ops.zeros(aval_of(v)), padding_config=padding_config))


def _batch(size, vals, dims, *, padding_config):
    (x, v), (dx, _) = vals, dims
    return bind(pad_p, ops.moveaxis(x, dx, 0), v,
                padding_config=((0, 0, 0),) + tuple(padding_config)), 0


def _transpose(ct, x, v, *, padding_config):
    start = [after for _, after, _ in padding_config]  # correct: the before-widths
    sizes = [d - lo - hi for d, (lo, hi, _) in zip(aval_of(ct).shape, padding_config)]
    limit = [s + n for s, n in zip(start, sizes)]
    return [ops.slice(ct, start, limit), None]


jvp_rules[pad_p], vmap_rules[pad_p], transpose_rules[pad_p] = _jvp, _batch, _transpose


def pad(x, pad_width):
    """refimpl's pad, binding the copy."""
    rank = len(aval_of(x).shape)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=int), (rank, 2)).tolist()
    return bind(pad_p, x, np.zeros(()), padding_config=tuple((lo, hi, 0) for lo, hi in widths))


numpy = refimpl_numpy_with(pad=pad)
