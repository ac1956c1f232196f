"""Broken SUT: flip's transpose passes the cotangent on unflipped.

Reversing an axis is a permutation, and a permutation's transpose is its
inverse; this rule treats it as the identity, a shortcut that holds for a
symmetric cotangent only.  Forward mode and values are right.  Built over
refimpl: `numpy.flip` binds a copy of refimpl's `rev` primitive with this
transpose rule.

Family: transpose.  Smallest input: `vjp(numpy.flip, np.zeros(2))[1](np.array([1.0, 0.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import deflinear
from refimpl.transpose import transpose_rules
from refimpl.vmap import vmap_rules
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "transpose"
WITNESS = Witness("vjp(numpy.flip, np.zeros(2))[1](np.array([1.0, 0.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

rev_p = structural_copy(P.rev_p)
deflinear(rev_p)
vmap_rules[rev_p] = lambda size, vals, dims, *, dimensions: (
    bind(rev_p, ops.moveaxis(vals[0], dims[0], 0), dimensions=tuple(d + 1 for d in dimensions)),
    0)
transpose_rules[rev_p] = lambda ct, x, *, dimensions: [ct]  # correct: reversed again


def flip(x, axis=None):
    """refimpl's flip, binding the copy."""
    rank = len(aval_of(x).shape)
    axes = range(rank) if axis is None else (axis,) if isinstance(axis, int) else axis
    return bind(rev_p, x, dimensions=tuple(sorted(a % rank for a in axes)))


numpy = refimpl_numpy_with(flip=flip)
