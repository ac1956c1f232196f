"""Broken SUT: prod's tangent is out * sum(t / x), which is NaN where an element is 0.

The textbook rule d prod = prod * sum(dx / x) holds only off zeros: where
an element is 0, out / x is 0 / 0 for that element (NaN) where the product
of the others is due.  autograd's rule is this one (docs/findings/autograd.md, A4).
Generated programs seldom hold an exact zero, and off zeros the rule is
right; the row `prod_at_zero` (tests/test_conventions.py) shows it.  Built
over refimpl: `numpy.prod` binds a primitive of its own with this rule.

Family: kink.  Smallest input: `jvp(numpy.prod, (np.zeros(2),), (np.ones(2),))`.
"""

from functools import partial

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import Primitive, aval_of, bind
from refimpl.jvp import jvp_rules
from refimpl.vmap import FRONT_MOVES, front_batch, vmap_rules
from tests.broken import Witness, bound_reduction, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(numpy.prod, (np.zeros(2),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

reduce_prod_p = Primitive("reduce_prod", transposable=False)
reduce_prod_p.impl = lambda x, *, axes: np.prod(x, axis=axes)
reduce_prod_p.shape_rule, reduce_prod_p.cost = P.reduce_sum_p.shape_rule, P.reduce_sum_p.cost
reduce_prod_p.source = "np.prod({0}, axis={axes})"


def _prod_jvp(primals, tangents, *, axes):
    (x,), (t,) = primals, tangents
    out = bind(reduce_prod_p, x, axes=axes)
    if t is None:
        return out, None
    shape = aval_of(x).shape
    spread = ops.broadcast_in_dim(out, shape, [i for i in range(len(shape)) if i not in axes])
    return out, ops.reduce_sum(ops.mul(t, ops.div(spread, x)), axes)  # correct: no division


jvp_rules[reduce_prod_p] = _prod_jvp
vmap_rules[reduce_prod_p] = partial(front_batch, reduce_prod_p, FRONT_MOVES[P.reduce_sum_p])

numpy = refimpl_numpy_with(prod=bound_reduction(reduce_prod_p))
