"""Broken SUT: hessian by several inputs leaves out the mixed second derivatives.

With a tuple `argnums`, the Hessian has a block per pair of inputs; this
one computes each input's own block (the Hessian of `f` in `x` with the
others held fixed) and returns zeros for the mixed blocks d2f/dx dy, as an
implementation that takes one input at a time would.  Right for one input.

Family: derived.  Smallest input: `hessian(lambda x, y: x * y, argnums=(0, 1))(1.0, 2.0)`.
"""

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
from tests.broken import Witness, each_derivative

FAMILY = "derived"
WITNESS = Witness("hessian(lambda x, y: x * y, argnums=(0, 1))(1.0, 2.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def hessian(fun, argnums=0):
    right = refimpl.hessian(fun, argnums)

    def second_derivatives(*args):
        return each_derivative(right(*args), argnums, 2, lambda leaf, positions: (
            leaf if positions[0] == positions[1] else numpy.zeros_like(leaf)))

    return second_derivatives
