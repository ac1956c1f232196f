"""Broken SUT: vmap of max over an axis reduces the batch axis's neighbour, not the axis.

The batching rule moves the batch axis to the front and keeps the reduced
axes as they were, where each must move up by one: max of each example
along axis 0 becomes max along the batch axis, and the result's shape may
even be right.  Built over refimpl: `numpy.max` binds a copy of refimpl's
`reduce_max` primitive with this batching rule.

Family: batching.  Smallest input: `vmap(lambda x: numpy.max(x, 0))(np.arange(4.0).reshape(2, 2))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import jvp_rules
from refimpl.vmap import vmap_rules
from tests.broken import Witness, bound_reduction, refimpl_numpy_with, structural_copy

FAMILY = "batching"
WITNESS = Witness("vmap(lambda x: numpy.max(x, 0))(np.arange(4.0).reshape(2, 2))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

reduce_max_p = structural_copy(P.reduce_max_p)
jvp_rules[reduce_max_p] = lambda primals, tangents, *, axes: jvp_rules[P.reduce_max_p](
    primals, tangents, axes=axes)
vmap_rules[reduce_max_p] = lambda size, vals, dims, *, axes: (
    bind(reduce_max_p, ops.moveaxis(vals[0], dims[0], 0), axes=axes), 0)  # correct: a + 1


numpy = refimpl_numpy_with(max=bound_reduction(reduce_max_p))
