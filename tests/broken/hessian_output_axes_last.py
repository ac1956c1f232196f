"""Broken SUT: hessian lays the output's axes out after the inputs'.

For a function with an output of shape `o`, the Hessian by an input of
shape `s` has shape `o + s + s`; this one computes the matrix of second
derivatives with one row per pair of input elements and one column per
output element, the layout of a Hessian taken of each output element in
turn, and reads it back in the right shape without transposing it.  Right
for a scalar output or a scalar input.

Family: derived.  Smallest input: `hessian(lambda x: x * x[0])(np.array([1.0, 2.0]))`.
"""

from math import prod

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    grad,
    jacfwd,
    jacrev,
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
WITNESS = Witness("hessian(lambda x: x * x[0])(np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _output_axes_last(second, input_size):
    shape = aval_of(second).shape
    matrix = numpy.reshape(second, (prod(shape) // input_size, input_size))
    return numpy.reshape(numpy.transpose(matrix), shape)


def hessian(fun, argnums=0):
    right = refimpl.hessian(fun, argnums)

    def second_derivatives(*args):
        # Each leaf's trailing axes are those of two inputs: the pairs of elements.
        return each_derivative(right(*args), argnums, 2, lambda leaf, positions: (
            _output_axes_last(leaf, prod(prod(aval_of(args[i]).shape) for i in positions))))

    return second_derivatives
