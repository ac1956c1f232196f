"""Broken SUT: the transpose of a broadcast keeps one copy of the cotangent, not their sum.

`broadcast_in_dim` copies a value along new or size-1 dimensions; its
transpose must sum the cotangent over them.  This one takes the first copy
instead (as if a broadcast were undone by indexing), so every gradient
through an implicit broadcast, a scalar times a matrix, a vector plus a
matrix, `broadcast_to`, `expand_dims`, is too small by the number of copies.
Forward mode is right.  refimpl with its `broadcast_in_dim` transpose rule
replaced.

Family: transpose.  Smallest input:
`grad(lambda x: numpy.sum(numpy.multiply(x, np.ones(3))))(1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(lambda x: numpy.sum(numpy.multiply(x, np.ones(3))))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _first_copy(ct, x, *, shape, broadcast_dimensions):
    dims = broadcast_dimensions
    copies = [i for i in range(len(shape)) if i not in dims]
    copies += [d for i, d in enumerate(dims) if x.shape[i] == 1 and shape[d] != 1]
    if any(shape[d] == 0 for d in copies):
        return [ops.zeros(x.aval)]
    first = ops.slice(ct, [0] * len(shape), [1 if d in copies else n for d, n in enumerate(shape)])
    return [ops.reshape(first, x.shape)]  # correct: reduce_sum(ct, copies), reshaped


transpose_rules[P.broadcast_in_dim_p] = _first_copy
