"""Broken SUT: `jvp` differentiates a custom_jvp function's program instead of calling its rule.

refimpl with the JVP rule of `custom_jvp_call` replaced by the rule of a
plain call (jit's): the function's own program is differentiated, so a
function whose arguments stop their gradients gets a zero derivative where
its rule gives the right one.  JAX and refimpl call the rule, under every
transformation that differentiates.

Family: custom_rule.  Smallest input: `jvp((lambda f: (f.defjvp(lambda p, t: jvp(numpy.sin,
p, t)), f)[1])(custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x)))), (1.0,), (1.0,))`.
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
from refimpl.jit import call_jvp, jit_p
from refimpl.jvp import jvp_rules
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("jvp((lambda f: (f.defjvp(lambda p, t: jvp(numpy.sin, p, t)), f)[1])("
                  "custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x)))), (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _program_differentiated(primals, tangents, *, jaxpr, rule, num_consts, name):
    return call_jvp(jit_p, primals, tangents, jaxpr=jaxpr, name=name)


jvp_rules[custom_jvp_p] = _program_differentiated
