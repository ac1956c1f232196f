"""Broken SUT: a batched custom_vjp function's backward pass sums its cotangents over the batch.

refimpl with the backward pass of a custom_vjp function that `vmap` has
batched (the call reverse mode meets when it differentiates a `vmap` of the
function) given, in every example, the cotangents summed over the batch, as
if they were not batched: each example's input cotangent is pulled back from
the whole batch's.  Reverse mode alone, `vmap` alone and `vmap` of `grad`
(which batches the unbatched backward pass) are right.  JAX and refimpl
batch the backward pass example by example.

Family: custom_rule.  Smallest input: `grad(lambda x: numpy.sum(vmap((lambda f: (f.defvjp(lambda
x: (numpy.sin(x), x), lambda x, g: (numpy.cos(x) * g,)), f)[1])(custom_vjp(lambda x:
numpy.sin(lax.stop_gradient(x)))))(x) * np.array([1.0, 2.0])))(np.array([1.0, 2.0]))`.
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
from refimpl.custom import custom_vjp_p
from refimpl.jvp import jvp_rules
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("grad(lambda x: numpy.sum(vmap((lambda f: (f.defvjp(lambda x: (numpy.sin(x), "
                  "x), lambda x, g: (numpy.cos(x) * g,)), f)[1])(custom_vjp(lambda x: "
                  "numpy.sin(lax.stop_gradient(x)))))(x) * np.array([1.0, 2.0])))"
                  "(np.array([1.0, 2.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = jvp_rules[custom_vjp_p]


def _summed(bwd):
    """`bwd` of batched residuals and cotangents (batch axis first), each cotangent
    replaced by its sum over the batch."""
    def wrong(residuals, cts):
        return bwd(residuals, [numpy.broadcast_to(numpy.sum(c, axis=0), c.shape) for c in cts])
    return wrong


def _jvp(primals, tangents, *, jaxpr, fwd, bwd, num_consts, name):
    if name.startswith("vmap("):  # the call refimpl's vmap rule binds (custom.py)
        bwd = _summed(bwd)
    return _right(primals, tangents, jaxpr=jaxpr, fwd=fwd, bwd=bwd, num_consts=num_consts,
                  name=name)


jvp_rules[custom_vjp_p] = _jvp
