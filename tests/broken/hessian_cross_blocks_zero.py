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
from refimpl.pytree import tree_flatten, tree_unflatten
from tests.broken import Witness

FAMILY = "derived"
WITNESS = Witness("hessian(lambda x, y: x * y, argnums=(0, 1))(1.0, 2.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def hessian(fun, argnums=0):
    right = refimpl.hessian(fun, argnums)

    def second_derivatives(*args):
        if isinstance(argnums, int):
            return right(*args)
        n = len(argnums)
        leaves, tree = tree_flatten(right(*args))
        # The leaves run output by output, then input by input (row), then by input.
        return tree_unflatten(tree, [leaf if (k // n) % n == k % n else numpy.zeros_like(leaf)
                                     for k, leaf in enumerate(leaves)])

    return second_derivatives
