"""Broken SUT: a scan's transpose, run while staging, stacks the cotangents of `xs` last step first.

refimpl with the transpose rule of `scan`, whenever a `jit` trace is beneath
it (reverse mode inside `jit`, or of a jitted function), returning the
cotangents of the scanned-over operands in the order the backward pass
visits the steps, last first, rather than flipped back to the steps' order.
Eager `grad` and `vjp` and `jit` of the value are right, and so are the
per-construct rows, each mode alone.  JAX and refimpl stack them in step
order.

Family: construct.  Smallest input: `jit(grad(lambda xs: numpy.sum(lax.scan(lambda c, x: (c + x,
c * x), 1.0, xs)[1])))(np.array([1.0, 2.0, 3.0]))`.
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
from refimpl.control import scan_p
from refimpl.transpose import transpose_rules
from tests.broken import Witness, staging

FAMILY = "construct"
WITNESS = Witness("jit(grad(lambda xs: numpy.sum(lax.scan(lambda c, x: (c + x, c * x), 1.0, "
                  "xs)[1])))(np.array([1.0, 2.0, 3.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = transpose_rules[scan_p]


def _transpose(cts, *args, num_consts, num_carry, **params):
    outs = _right(cts, *args, num_consts=num_consts, num_carry=num_carry, **params)
    if not staging():
        return outs
    start = num_consts + num_carry
    return [c if k < start or c is None else numpy.flip(c, 0) for k, c in enumerate(outs)]


transpose_rules[scan_p] = _transpose
