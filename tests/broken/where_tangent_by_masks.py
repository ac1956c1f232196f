"""Broken SUT: where's tangent is mixed by arithmetic masks, `p * t_x + (1 - p) * t_y`.

Where both tangents are finite this equals selecting one, but a side not
taken whose tangent is infinite or NaN leaks into the result: `0 * inf` is
NaN.  `where(x > 0, sqrt(x), x)` at `x = 0` has tangent 1 by the contract
(forward mode selects tangents, docs/sut-api.md) and NaN here.  Generated
programs keep every value off such edges, so only the conventions property
sees it (tests/test_conventions.py, the `where_nan` row under jvp).  Built
over refimpl: `numpy.where` binds a copy of refimpl's `select_n` primitive
with this rule.

Family: kink.  Smallest input: `jvp(lambda x: numpy.where(x > 0.0, numpy.sqrt(x), x),
(0.0,), (1.0,))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as rnp
from refimpl import primitives as P
from refimpl.core import aval_of, bind
from refimpl.jvp import instantiate, jvp_rules
from tests.broken import Witness, elementwise_copy, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(lambda x: numpy.where(x > 0.0, numpy.sqrt(x), x), (0.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

select_p = elementwise_copy(P.select_n_p)


def _select_jvp(primals, tangents):
    which, if_false, if_true = primals
    out = bind(select_p, *primals)
    if all(t is None for t in tangents[1:]):
        return out, None
    t_false, t_true = (instantiate(t, c) for c, t in zip(primals[1:], tangents[1:]))
    p = ops.convert_element_type(which, np.float64)
    not_p = ops.sub(ops.full_like(p, 1.0), p)
    return out, ops.add(ops.mul(p, t_true), ops.mul(not_p, t_false))  # correct: select_n


jvp_rules[select_p] = _select_jvp


def where(condition, x, y):
    """refimpl's `numpy.where`, binding the copy."""
    if rnp._eager():
        return rnp.where(condition, x, y)
    if aval_of(condition).dtype != np.bool_:
        condition = rnp.not_equal_zero(condition)
    x, y = rnp._promote([x, y])
    shape = rnp.broadcast_shapes("where", *[aval_of(v).shape for v in (condition, x, y)])
    return bind(select_p, *[rnp.broadcast_to(v, shape) for v in (condition, y, x)])


numpy = refimpl_numpy_with(where=where)
