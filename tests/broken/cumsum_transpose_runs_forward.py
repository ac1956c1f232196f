"""Broken SUT: cumsum's transpose is a running sum the same way, not the other way.

The adjoint of a running sum from the front is a running sum from the back
(each input reaches every output after it); this rule runs the cotangent
from the front again.  Forward mode and values are right.  Built over
refimpl: `numpy.cumsum` binds a copy of refimpl's `cumsum` primitive whose
transpose rule keeps the direction.

Family: transpose.  Smallest input: `vjp(numpy.cumsum, np.zeros(2))[1](np.array([1.0, 0.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import deflinear
from refimpl.transpose import transpose_rules
from tests.broken import Witness, bound_cumsum, refimpl_numpy_with, structural_copy

FAMILY = "transpose"
WITNESS = Witness("vjp(numpy.cumsum, np.zeros(2))[1](np.array([1.0, 0.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

cumsum_p = structural_copy(P.cumsum_p)
deflinear(cumsum_p)
transpose_rules[cumsum_p] = lambda ct, x, *, axis, reverse: [
    bind(cumsum_p, ct, axis=axis, reverse=reverse)]  # correct: reverse=not reverse


numpy = refimpl_numpy_with(cumsum=bound_cumsum(cumsum_p))
