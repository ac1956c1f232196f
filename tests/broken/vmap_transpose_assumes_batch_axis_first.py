"""Broken SUT: vmap's rule for `transpose(x, perm)` assumes the batch axis is x's first.

The rule keeps axis 0 in place and permutes the others, but does not move
the batch axis to 0 first: with the batch axis elsewhere, the batch axis is
permuted as a data axis and a data axis is taken for the batch.  refimpl
with its `transpose` batching rule replaced.

Family: batching.  Smallest input:
`vmap(numpy.transpose, in_axes=1)(np.arange(6.0).reshape(2, 3))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(numpy.transpose, in_axes=1)(np.arange(6.0).reshape(2, 3))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _batch_first(size, vals, dims, *, permutation):
    # correct: ops.moveaxis(vals[0], dims[0], 0) first
    return ops.transpose(vals[0], [0] + [p + 1 for p in permutation]), 0


vmap_rules[P.transpose_p] = _batch_first
