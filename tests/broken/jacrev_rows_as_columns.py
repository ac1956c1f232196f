"""Broken SUT: jacrev stacks the pulled-back rows as columns.

jacrev pulls back one basis cotangent per output element under `vmap` and
must stack the resulting rows on a leading axis; this one stacks them on
the last axis (`out_axes=-1`), so the (outputs x inputs) matrix comes out
transposed and is then read back in the Jacobian's shape.  Right whenever
the output or the input has one element; wrong for `x -> A x`.

Family: derived.  Smallest input: `jacrev(lambda x: x * x[0])(np.array([1.0, 2.0]))`.
"""

from math import prod

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    grad,
    hessian,
    jacfwd,
    jit,
    jvp,
    lax,
    linearize,
    numpy,
    vjp,
    vmap,
)
from refimpl.core import aval_of
from tests.broken import Witness, each_derivative

FAMILY = "derived"
WITNESS = Witness("jacrev(lambda x: x * x[0])(np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _columns_as_rows(jacobian, input_shape):
    shape = aval_of(jacobian).shape
    out_shape = shape[:len(shape) - len(input_shape)]
    matrix = numpy.reshape(jacobian, (prod(out_shape), prod(input_shape)))
    return numpy.reshape(numpy.transpose(matrix), shape)


def jacrev(fun, argnums=0):
    right = refimpl.jacrev(fun, argnums)

    def jacobian(*args):
        return each_derivative(right(*args), argnums, 1, lambda leaf, positions: _columns_as_rows(
            leaf, aval_of(args[positions[0]]).shape))

    return jacobian
