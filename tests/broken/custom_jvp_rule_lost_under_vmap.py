"""Broken SUT: `vmap` of a custom_jvp function batches its program and drops its rule.

refimpl with the batching rule of `custom_jvp_call` replaced by the rule of
a plain call (jit's): the batched function is a call of the batched
program, so a derivative taken outside the `vmap` differentiates the
program, and a function whose arguments stop their gradients gets a zero
derivative.  Without `vmap`, or with `vmap` outside the derivative, the
rule is used and the result is right.  JAX and refimpl batch the rule with
the program.

Family: custom_rule.  Smallest input: `jvp(vmap((lambda f: (f.defjvp(lambda p, t:
jvp(numpy.sin, p, t)), f)[1])(custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x))))),
(np.array([1.0, 2.0]),), (np.ones(2),))`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    checkpoint,
    custom_jvp,
    grad,
    jit,
    jvp,
    lax,
    numpy,
    vjp,
    vmap,
)
from refimpl.custom import custom_jvp_p
from refimpl.jit import call_vmap, jit_p
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("jvp(vmap((lambda f: (f.defjvp(lambda p, t: jvp(numpy.sin, p, t)), f)[1])("
                  "custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x))))), "
                  "(np.array([1.0, 2.0]),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _program_batched(size, vals, dims, *, jaxpr, rule, num_consts, name):
    return call_vmap(jit_p, size, vals, dims, jaxpr=jaxpr, name=name)


vmap_rules[custom_jvp_p] = _program_batched
