"""Broken SUT: a derivative taken while staging differentiates a custom_jvp function's program.

refimpl with the JVP rule of `custom_jvp_call` replaced, whenever a `jit`
trace is beneath it (a derivative taken inside `jit`, or of a jitted
function), by the rule of a plain call: the function's own program is
differentiated, so a function whose arguments stop their gradients gets a
zero derivative there.  Eager `grad`, eager `jvp` and `jit` of the value
alone use the rule and are right; so are the per-construct rows, each mode
alone.  JAX and refimpl keep the rule through staging.

Family: custom_rule.  Smallest input: `jit(grad((lambda f: (f.defjvp(lambda p, t:
jvp(numpy.sin, p, t)), f)[1])(custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x))))))(1.0)`.
"""

import refimpl
from refimpl import (  # noqa: F401
    __sut_unsupported__,
    checkpoint,
    core,
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
from refimpl.custom import custom_jvp_p
from refimpl.jit import call_jvp, jit_p
from refimpl.jvp import jvp_rules
from tests.broken import Witness, staging

FAMILY = "custom_rule"
WITNESS = Witness("jit(grad((lambda f: (f.defjvp(lambda p, t: jvp(numpy.sin, p, t)), f)[1])("
                  "custom_jvp(lambda x: numpy.sin(lax.stop_gradient(x))))))(1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = jvp_rules[custom_jvp_p]


def _rule_unless_staged(primals, tangents, *, jaxpr, rule, num_consts, name):
    if staging():
        return call_jvp(jit_p, primals, tangents, jaxpr=jaxpr, name=name)
    return _right(primals, tangents, jaxpr=jaxpr, rule=rule, num_consts=num_consts, name=name)


jvp_rules[custom_jvp_p] = _rule_unless_staged
