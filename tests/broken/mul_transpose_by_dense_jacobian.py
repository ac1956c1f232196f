"""Broken SUT: the transpose of an elementwise product multiplies by its dense Jacobian.

The cotangent of x in `x * y` is `ct * y`, n multiplications for n
elements; this rule builds the Jacobian as an n x n diagonal matrix and
multiplies the cotangent by it: the same values at n**2 work, so grad's
work grows quadratically with the input size where f's grows linearly.
refimpl whose `grad` and `vjp` run with its `mul` transpose rule replaced
(only while they run, so a meta-test may import this shim beside refimpl).

Family: cost.  Smallest input: `input_size` (the family of `oracles.cost`, n = 8 and 16).
"""

import contextlib

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, jit, jvp, lax, make_jaxpr, numpy, ops, vmap  # noqa: F401
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


@contextlib.contextmanager
def _dense_mul_transpose():
    right = transpose_rules[P.mul_p]
    transpose_rules[P.mul_p] = _dense
    try:
        yield
    finally:
        transpose_rules[P.mul_p] = right


def vjp(fun, *primals):
    out, pullback = refimpl.vjp(fun, *primals)

    def dense_pullback(cotangent):
        with _dense_mul_transpose():
            return pullback(cotangent)

    return out, dense_pullback


def grad(fun, argnums=0):
    def gradient(*args):
        with _dense_mul_transpose():
            return refimpl.grad(fun, argnums=argnums)(*args)

    return gradient
