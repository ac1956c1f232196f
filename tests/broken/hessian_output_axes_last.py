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
from refimpl.pytree import tree_flatten, tree_unflatten
from tests.broken import Witness

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
        leaves, tree = tree_flatten(right(*args))
        # Each leaf's trailing axes are those of two inputs: the pair of elements.
        return tree_unflatten(tree, [_output_axes_last(leaf, _pair_size(leaf, args, argnums, k))
                                     for k, leaf in enumerate(leaves)])

    return second_derivatives


def _pair_size(leaf, args, argnums, k):
    """The number of element pairs of the two inputs leaf k differentiates by."""
    if isinstance(argnums, int):
        return prod(aval_of(args[argnums]).shape) ** 2
    n = len(argnums)
    first, second = argnums[(k // n) % n], argnums[k % n]
    return prod(aval_of(args[first]).shape) * prod(aval_of(args[second]).shape)
