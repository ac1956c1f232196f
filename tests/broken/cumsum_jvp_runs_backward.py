"""Broken SUT: cumsum's tangent is the running sum of the tangents from the back.

The rule binds the primitive with `reverse` turned round, the slip of a
rule written once for both directions: the value is right, the tangent of
each output is the sum of the tangents after it, not before.  Built over
refimpl: `numpy.cumsum` binds a copy of refimpl's `cumsum` primitive with
this rule.

Family: jvp.  Smallest input: `jvp(numpy.cumsum, (np.zeros(2),), (np.array([1.0, 0.0]),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import instantiate, jvp_rules
from refimpl.transpose import transpose_rules
from tests.broken import Witness, bound_cumsum, refimpl_numpy_with, structural_copy

FAMILY = "jvp"
WITNESS = Witness("jvp(numpy.cumsum, (np.zeros(2),), (np.array([1.0, 0.0]),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

cumsum_p = structural_copy(P.cumsum_p)
jvp_rules[cumsum_p] = lambda primals, tangents, *, axis, reverse: (
    bind(cumsum_p, primals[0], axis=axis, reverse=reverse),
    bind(cumsum_p, instantiate(tangents[0], primals[0]), axis=axis,
         reverse=not reverse))  # correct: reverse=reverse
transpose_rules[cumsum_p] = lambda ct, x, *, axis, reverse: [
    bind(cumsum_p, ct, axis=axis, reverse=not reverse)]


numpy = refimpl_numpy_with(cumsum=bound_cumsum(cumsum_p))
