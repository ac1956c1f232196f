"""Broken SUT: `vmap` of a checkpoint-ed function detaches the operands it leaves unbatched.

refimpl with the batching rule of `checkpoint` passing every operand that
`vmap` does not batch (a value the function captures from outside the
`vmap`, an argument mapped with `in_axes=None`) through `stop_gradient`:
values are right, and so is every derivative taken inside the `vmap`, but a
derivative taken of the `vmap` (`grad` of `vmap`) loses what flows through
those operands.  `vmap` alone, `grad` alone and `vmap` of `grad` are right.
JAX and refimpl batch a checkpoint as a call of its program.

Family: custom_rule.  Smallest input: `grad(lambda y: numpy.sum(vmap(lambda x: checkpoint(lambda
z: z * y)(x))(np.array([1.0, 2.0]))))(3.0)`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    checkpoint,
    custom_jvp,
    custom_vjp,
    grad,
    hessian,
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
from refimpl.custom import checkpoint_p, stop_gradient
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("grad(lambda y: numpy.sum(vmap(lambda x: checkpoint(lambda z: z * y)(x))("
                  "np.array([1.0, 2.0]))))(3.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = vmap_rules[checkpoint_p]


def _detached(size, vals, dims, **params):
    vals = [v if d is not None else stop_gradient(v) for v, d in zip(vals, dims)]
    return _right(size, vals, dims, **params)


vmap_rules[checkpoint_p] = _detached
