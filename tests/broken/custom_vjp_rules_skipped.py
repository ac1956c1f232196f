"""Broken SUT: reverse mode differentiates a custom_vjp function's program, not its rules.

refimpl with the JVP rule of `custom_vjp_call` (the first half of reverse
mode, which runs `fwd` and makes the tangent a call of `bwd`) replaced by
the rule of a plain call (jit's): the function's own program is
differentiated, so a function whose arguments stop their gradients gets a
zero gradient where its rules give the right one.  JAX and refimpl run
`fwd` and transpose with `bwd`.

Family: custom_rule.  Smallest input: `grad((lambda f: (f.defvjp(lambda x: (numpy.sin(x),
x), lambda x, g: (numpy.cos(x) * g,)), f)[1])(custom_vjp(lambda x:
numpy.sin(lax.stop_gradient(x)))))(1.0)`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    checkpoint,
    custom_jvp,
    custom_vjp,
    grad,
    jit,
    jvp,
    lax,
    numpy,
    vjp,
    vmap,
)
from refimpl.custom import custom_vjp_p
from refimpl.jit import call_jvp, jit_p
from refimpl.jvp import jvp_rules
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("grad((lambda f: (f.defvjp(lambda x: (numpy.sin(x), x), lambda x, g: "
                  "(numpy.cos(x) * g,)), f)[1])(custom_vjp(lambda x: "
                  "numpy.sin(lax.stop_gradient(x)))))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _program_differentiated(primals, tangents, *, jaxpr, fwd, bwd, num_consts, name):
    return call_jvp(jit_p, primals, tangents, jaxpr=jaxpr, name=name)


jvp_rules[custom_vjp_p] = _program_differentiated
