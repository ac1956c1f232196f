"""Broken SUT: the transpose of an elementwise product multiplies by its dense Jacobian.

The cotangent of x in `x * y` is `ct * y`, n multiplications for n
elements; this rule builds the Jacobian as an n x n diagonal matrix and
multiplies the cotangent by it: the same values at n**2 work, so grad's
work grows quadratically with the input size where f's grows linearly.
refimpl with its `mul` transpose rule replaced.

Family: cost.  Smallest input: `input_size` (the family of `oracles.cost`, n = 8 and 16).
"""

import numpy as np

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    grad,
    jit,
    jvp,
    lax,
    make_jaxpr,
    numpy,
    ops,
    vjp,
    vmap,
)
from refimpl import primitives as P
from refimpl.core import aval_of
from refimpl.transpose import is_linear, transpose_rules
from tests.broken import Witness

FAMILY = "cost"
WITNESS = Witness("input_size", shows="cost")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _dense(ct, x, y):
    factor = y if is_linear(x) else x
    shape, n = aval_of(ct).shape, aval_of(ct).size
    diagonal = ops.mul(ops.broadcast_in_dim(ops.reshape(factor, (n,)), (n, n), (0,)), np.eye(n))
    flat = ops.dot_general(diagonal, ops.reshape(ct, (n,)), (((1,), (0,)), ((), ())))
    pulled = ops.reshape(flat, shape)  # correct: ops.mul(ct, factor), n work
    return [pulled, None] if is_linear(x) else [None, pulled]


transpose_rules[P.mul_p] = _dense
