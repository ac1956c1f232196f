"""Broken SUT: sin's derivative has the wrong sign (-cos x instead of cos x).

Built over refimpl, as `maximum_tangent_by_tangents` is, so the meta-test's
shrinking runs in refimpl's milliseconds, not in JAX's compiles (on JAX, the
grad row spent 3 minutes shrinking): `numpy.sin` binds a copy of refimpl's
`sin` primitive that carries the broken rule, and no existing rule changes.
"""

from functools import partial
from types import SimpleNamespace

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.core import Primitive
from refimpl.jvp import _defjvp
from refimpl.vmap import _elementwise_batch, vmap_rules

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

sin_p = Primitive("sin")
sin_p.impl, sin_p.shape_rule, sin_p.cost, sin_p.source = (P.sin_p.impl, P.sin_p.shape_rule,
                                                          P.sin_p.cost, P.sin_p.source)
vmap_rules[sin_p] = partial(_elementwise_batch, sin_p)
_defjvp(sin_p, lambda t, out, x: ops.neg(ops.mul(t, ops.cos(x))))  # correct: mul(t, cos(x))


def _sin(x):
    return refimpl_numpy._elementwise(sin_p, "sin", x)


numpy = SimpleNamespace(**({name: getattr(refimpl_numpy, name) for name in dir(refimpl_numpy)
                            if not name.startswith("_")} | {"sin": _sin}))
