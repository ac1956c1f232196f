"""Broken SUT: `vmap` of `cond` with a batched predicate detaches its operands.

refimpl with the batching rule of `cond`, for a predicate that differs
between examples (where both branches run and a select picks), passing the
operands through `stop_gradient` first: values are right, and so is `vmap`
of a derivative, but a derivative taken of the `vmap` (`jvp` of `vmap`,
`grad` of `vmap`) is zero through the cond.  `vmap` alone, each derivative
alone and a cond whose predicate is the same for every example are right.
JAX and refimpl differentiate through the select.

Family: batching.  Smallest input: `jvp(vmap(lambda x: lax.cond(x > 0.0, numpy.sin, numpy.cos,
x)), (np.array([1.0, -1.0]),), (np.ones(2),))`.
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
from refimpl.control import cond_p
from refimpl.custom import stop_gradient
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("jvp(vmap(lambda x: lax.cond(x > 0.0, numpy.sin, numpy.cos, x)), "
                  "(np.array([1.0, -1.0]),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = vmap_rules[cond_p]


def _detached(size, vals, dims, **params):
    (pred, *operands), (pdim, *_) = vals, dims
    if pdim is not None:
        vals = [pred, *map(stop_gradient, operands)]
    return _right(size, vals, dims, **params)


vmap_rules[cond_p] = _detached
