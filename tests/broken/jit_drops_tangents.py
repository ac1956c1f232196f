"""Broken SUT: a jitted function drops the tangents of every argument after the first.

jit's JVP rule pairs tangents with the first argument only, so the others
enter the compiled program as constants.  jit(jvp(f)) is right (jvp runs
inside); jvp(jit(f)), grad(jit(f)) and vjp(jit(f)) lose every derivative
with respect to the second argument on.  Built over refimpl so the
meta-test shrinks in seconds (see `vmap_axis_one_as_zero`).
`tests/meta/test_broken_suts.py` shows the jit-commutes identity and the
stack property catch it.

Family: composition.  Smallest input: `jvp(jit(lambda x, y: x * y), (1.0, 2.0), (0.0, 1.0))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.jvp import JVPTracer
from tests.broken import Witness

FAMILY = "composition"
WITNESS = Witness("jvp(jit(lambda x, y: x * y), (1.0, 2.0), (0.0, 1.0))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _without_tangent(x):
    return x.primal if isinstance(x, JVPTracer) else x


def jit(fun, static_argnums=()):
    jitted = refimpl.jit(fun, static_argnums=static_argnums)

    def run(first, *rest):
        return jitted(first, *map(_without_tangent, rest))  # correct: jitted(first, *rest)

    return run
