"""Broken SUT: at a tie, max over an axis passes the sum of the tied tangents, not their mean.

The rule picks every element equal to the max, as JAX's does, and forgets
to divide by how many there are: off ties it is right (one element is
picked), at a tie of k elements the tangent is k times too large.  Finite
differences never see it (the generator keeps the max apart from the
rest); the convention row at a tie (tests/test_conventions.py) does.
Built over refimpl: `numpy.max` binds a copy of refimpl's `reduce_max`
primitive with this rule.

Family: kink.  Smallest input: `jvp(numpy.max, (np.ones(2),), (np.ones(2),))`.
"""


import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import jvp_rules
from tests.broken import Witness, bound_reduction, refimpl_numpy_with, structural_copy

FAMILY = "kink"
WITNESS = Witness("jvp(numpy.max, (np.ones(2),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

reduce_max_p = structural_copy(P.reduce_max_p)


def _max_jvp(primals, tangents, *, axes):
    (x,), (t,) = primals, tangents
    out = bind(reduce_max_p, x, axes=axes)
    if t is None:
        return out, None
    shape = aval_of(x).shape
    at = ops.broadcast_in_dim(out, shape, [i for i in range(len(shape)) if i not in axes])
    chosen = ops.select_n(ops.lt(x, at), ops.full_like(x, 1.0), ops.full_like(x, 0.0))
    return out, ops.reduce_sum(ops.mul(t, chosen), axes)  # correct: divided by the count


jvp_rules[reduce_max_p] = _max_jvp


numpy = refimpl_numpy_with(max=bound_reduction(reduce_max_p))
