"""Broken SUT: `grad` returns a float32 input's gradient in float64.

Its values are right: every comparison of values reads a result as float64
and passes it.  Only its dtype is wrong (a gradient has its primal's dtype,
docs/sut-api.md, "Dtypes").  Built over refimpl: `grad` converts what
refimpl's returns to float64, under other transformations too.

Family: dtype.  Smallest input:
`grad(lambda x: numpy.sum(numpy.sin(x)))(np.ones(2, np.float32))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl.pytree import tree_flatten, tree_unflatten
from tests.broken import Witness

FAMILY = "dtype"
WITNESS = Witness("grad(lambda x: numpy.sum(numpy.sin(x)))(np.ones(2, np.float32))",
                  shows="dtype")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def grad(fun, argnums=0):
    inner = refimpl.grad(fun, argnums)

    def widened(*args):
        leaves, tree = tree_flatten(inner(*args))
        return tree_unflatten(tree, [ops.convert_element_type(x, np.float64)  # correct: x
                                     for x in leaves])

    return widened
