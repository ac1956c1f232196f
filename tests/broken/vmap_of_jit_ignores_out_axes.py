"""Broken SUT: vmap of a jitted function puts the batch axis first, whatever out_axes says.

vmap takes a shortcut for functions jit has compiled and forgets to pass
`out_axes` along; vmap of anything else, and jit of a vmap, are right.
Built over refimpl so the meta-test shrinks in seconds (see
`vmap_axis_one_as_zero`).  `tests/meta/test_broken_suts.py` shows the
jit-commutes identity and the stack property catch it.

Family: composition.  Smallest input: `vmap(jit(numpy.sin), out_axes=1)(np.ones((2, 3)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jvp, lax, numpy, vjp  # noqa: F401
from tests.broken import Witness

FAMILY = "composition"
WITNESS = Witness("vmap(jit(numpy.sin), out_axes=1)(np.ones((2, 3)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def jit(fun, static_argnums=()):
    jitted = refimpl.jit(fun, static_argnums=static_argnums)
    jitted.compiled_by_jit = True
    return jitted


def vmap(fun, in_axes=0, out_axes=0):
    if getattr(fun, "compiled_by_jit", False):
        return refimpl.vmap(fun, in_axes=in_axes)  # correct: out_axes=out_axes
    return refimpl.vmap(fun, in_axes=in_axes, out_axes=out_axes)
