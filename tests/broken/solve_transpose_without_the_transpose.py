"""Broken SUT: solve's transpose solves with a, not with a's transpose.

x = a^-1 b is linear in b, and its transpose maps a cotangent c to
a^-T c.  Written as a^-1 c, it is right only for a symmetric a: forward
mode and values are right, every reverse-mode derivative with respect to b
(and, through x's tangent, with respect to a) is wrong.  Built over
refimpl: `numpy.linalg.solve` binds a copy of refimpl's `solve` primitive
with this transpose.

Family: transpose.  Smallest input:
`grad(lambda b: numpy.linalg.solve(np.array([[1.0, 1.0], [0.0, 1.0]]), b)[0])(np.ones(2))`.
"""

from types import SimpleNamespace

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import instantiate, jvp_rules
from refimpl.transpose import transpose_rules
from refimpl.vmap import to_front, vmap_rules
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "transpose"
WITNESS = Witness("grad(lambda b: numpy.linalg.solve(np.array([[1.0, 1.0], [0.0, 1.0]]), b)[0])"
                  "(np.ones(2))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

solve_p = structural_copy(P.solve_p)


def _solve_jvp(primals, tangents):
    (a, b), (ta, tb) = primals, tangents
    x = bind(solve_p, a, b)
    if ta is None and tb is None:
        return x, None
    rhs = instantiate(tb, b) if ta is None else ops.sub(instantiate(tb, b), ops.matmul(ta, x))
    return x, bind(solve_p, a, rhs)


jvp_rules[solve_p] = _solve_jvp
transpose_rules[solve_p] = lambda ct, a, b: [None, bind(solve_p, a, ct)]  # correct: a's transpose
vmap_rules[solve_p] = lambda size, vals, dims: (
    bind(solve_p, *(to_front(v, d, size) for v, d in zip(vals, dims))), 0)


def solve(a, b):
    """refimpl's `linalg.solve` (NumPy 2's reading of b), binding the copy."""
    if not isinstance(a, refimpl.core.Tracer) and not isinstance(b, refimpl.core.Tracer):
        return np.linalg.solve(a, b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    vector = len(sb) == 1
    if vector:
        b, sb = refimpl_numpy.reshape(b, (sb[0], 1)), (sb[0], 1)
    lead = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
    x = bind(solve_p, refimpl_numpy.broadcast_to(a, lead + sa[-2:]),
             refimpl_numpy.broadcast_to(b, lead + sb[-2:]))
    return refimpl_numpy.reshape(x, lead + sb[-2:-1]) if vector else x


numpy = refimpl_numpy_with(linalg=SimpleNamespace(**{**vars(refimpl_numpy.linalg),
                                                     "solve": solve}))
