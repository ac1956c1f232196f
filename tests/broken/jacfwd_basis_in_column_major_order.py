"""Broken SUT: jacfwd numbers a matrix input's elements column by column.

jacfwd pushes one unit tangent per input element forward; this one
enumerates the elements of an input in column-major (Fortran) order but
lays the results out in row-major order, so for an input of rank 2 or more
the Jacobian's columns are permuted: reading its input axes in reverse.
Right for scalars and vectors.

Family: derived.  Smallest input: `jacfwd(lambda x: x[0] * 2.0)(np.ones((2, 2)))`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    grad,
    hessian,
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
WITNESS = Witness("jacfwd(lambda x: x[0] * 2.0)(np.ones((2, 2)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _input_axes_reversed(jacobian, input_shape):
    shape = aval_of(jacobian).shape
    first = len(shape) - len(input_shape)
    axes = (*range(first), *reversed(range(first, len(shape))))
    return numpy.reshape(numpy.transpose(jacobian, axes), shape)


def jacfwd(fun, argnums=0):
    right = refimpl.jacfwd(fun, argnums)

    def jacobian(*args):
        return each_derivative(right(*args), argnums, 1, lambda leaf, positions: (
            _input_axes_reversed(leaf, aval_of(args[positions[0]]).shape)))

    return jacobian
