"""Broken SUT: vjp's pullback returns the input cotangents in reverse order.

The transpose pass visits the inputs last to first and forgets to turn its
list around; `grad` is refimpl's own and right, so grad(loss) and the vjp of
loss pulled back from 1.0 disagree once there are two inputs.  Built over
refimpl so the meta-test shrinks in seconds (see `vmap_axis_one_as_zero`).
`tests/meta/test_broken_suts.py` shows the grad/vjp identity catches it.

Family: interface.  Smallest input: `vjp(lambda x, y: x * y, 1.0, 2.0)[1](1.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vmap  # noqa: F401
from tests.broken import Witness

FAMILY = "interface"
WITNESS = Witness("vjp(lambda x, y: x * y, 1.0, 2.0)[1](1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def vjp(fun, *primals):
    out, pullback = refimpl.vjp(fun, *primals)
    return out, lambda cotangent: tuple(reversed(pullback(cotangent)))
