"""Broken SUT: vmap's rule for `sum(x, axis)` assumes the batch axis is x's first.

The rule shifts the summed axes by one for a batch axis in front, but does
not move the batch axis there first: with `in_axes=0` (and after most
rules, which put it in front) it is right; with the batch axis elsewhere it
sums over the wrong axes, the batch axis among them.  refimpl with its
`reduce_sum` batching rule replaced.

Family: batching.  Smallest input:
`vmap(lambda x: numpy.sum(x, axis=0), in_axes=1)(np.arange(6.0).reshape(2, 3))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(lambda x: numpy.sum(x, axis=0), in_axes=1)(np.arange(6.0).reshape(2, 3))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _batch_first(size, vals, dims, *, axes):
    # correct: ops.moveaxis(vals[0], dims[0], 0) first
    return ops.reduce_sum(vals[0], [a + 1 for a in axes]), 0


vmap_rules[P.reduce_sum_p] = _batch_first
