"""Broken SUT: jacfwd with a tuple `argnums` nests the inputs outside the outputs.

For a function of two outputs differentiated by two inputs, JAX returns
`((dA/dx, dA/dy), (dB/dx, dB/dy))`: the output's structure outside, the
inputs' inside.  This jacfwd returns `((dA/dx, dB/dx), (dA/dy, dB/dy))`,
the natural order of a loop over the inputs' basis tangents.  Right for one
output or one differentiated input.

Family: derived.  Smallest input: `jacfwd(lambda x, y: (x * y, 3.0 * x), argnums=(0, 1))(1.0, 2.0)`.
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
from tests.broken import Witness

FAMILY = "derived"
WITNESS = Witness("jacfwd(lambda x, y: (x * y, 3.0 * x), argnums=(0, 1))(1.0, 2.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def jacfwd(fun, argnums=0):
    right = refimpl.jacfwd(fun, argnums)

    def jacobian(*args):
        jac = right(*args)
        if isinstance(argnums, int) or not isinstance(jac, tuple | list):
            return jac
        return tuple(tuple(per_output[k] for per_output in jac) for k in range(len(argnums)))

    return jacobian
