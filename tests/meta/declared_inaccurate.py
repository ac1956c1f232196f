"""SUTs that compute exp, sin and cos less accurately than float64, and declare it.

Over refimpl, each call of exp, sin and cos (value and derivative rules, eager,
staged and batched) is off by exactly the error the SUT declares in
`__sut_accuracy__`, ERROR (1 + |value|), with a sign that follows the input's
bits, so that errors neither cancel nor always add: the worst an SUT that
keeps its declaration can do, and harsher than MLX's float64 exp, sin and cos
(docs/findings/mlx.md, M3), whose errors reach 3.8e-6 only at the largest
arguments.

* This module: exp, sin and cos inaccurate, every derivative rule right.  No
  property may fail on it (tests/meta/test_declared_accuracy.py; the whole
  suite: docs/performance.md, "A declared accuracy").
* `undeclared`: the same, declaring nothing, which the suite must fail.
* `overclaimed`: the same, declaring a tenth of its error, which the
  one-operation property must fail: a declaration is checked, not trusted.
* `small_angle`: the same, declared, with sin's derivative the small-angle
  approximation of `tests.broken.sin_derivative_small_angle`, a rule wrong by
  x**4 / 24 (0.04 at x = 1), which the suite must still catch under the
  declaration.
"""

from types import SimpleNamespace

import numpy as np

import refimpl
from oracles.tolerance import MAX_DECLARED_ERROR
from refimpl import (  # noqa: F401
    ShapeDtypeStruct,
    __sut_unsupported__,
    export,
    grad,
    jit,
    jvp,
    lax,
    make_jaxpr,
    ops,
    vjp,
    vmap,
)
from refimpl import primitives as P
from refimpl.core import bind
from refimpl.jvp import defjvp
from tests.broken import bound_elementwise, elementwise_copy, refimpl_numpy_with

# The error each call makes, relative above 1 and absolute below: the largest a
# declaration may state.
ERROR = MAX_DECLARED_ERROR

__version__ = f"refimpl {refimpl.__version__}, exp, sin and cos off by {ERROR:g}"

__sut_accuracy__ = {name: (ERROR, "computed with a deliberate error at every call")
                    for name in ("exp", "sin", "cos")}


def _off(function):
    """`function`, off by ERROR (1 + |value|), up or down by bit 20 of the input's
    float64 (a bit that the generator's inputs vary in)."""
    def inaccurate(x):
        y = function(x)  # first, so that what refimpl's own refuses (a leaked tracer) raises
        bits = np.asarray(x, np.float64).view(np.uint64)
        sign = 1.0 - 2.0 * ((bits >> np.uint64(20)) & np.uint64(1))
        return y + sign * ERROR * (1.0 + np.abs(y))
    return inaccurate


def _copy(prim, function):
    copy = elementwise_copy(prim)
    copy.impl = _off(function)
    copy.source = None  # jit compiles a call of `impl`
    return copy


exp_p, sin_p, cos_p = _copy(P.exp_p, np.exp), _copy(P.sin_p, np.sin), _copy(P.cos_p, np.cos)
defjvp(exp_p, lambda t, out, x: ops.mul(t, out))
defjvp(cos_p, lambda t, out, x: ops.neg(ops.mul(t, bind(sin_p, x))))
defjvp(sin_p, lambda t, out, x: ops.mul(t, bind(cos_p, x)))

numpy = refimpl_numpy_with(exp=bound_elementwise(exp_p, "exp"),
                           sin=bound_elementwise(sin_p, "sin"),
                           cos=bound_elementwise(cos_p, "cos"))

_SUT = {name: globals()[name] for name in ("ShapeDtypeStruct", "__sut_unsupported__", "export",
                                           "grad", "jit", "jvp", "lax", "make_jaxpr", "vjp",
                                           "vmap")}

undeclared = SimpleNamespace(**_SUT, numpy=numpy, __version__=__version__)

# Declares a tenth of the error it makes.
overclaimed = SimpleNamespace(**_SUT, numpy=numpy, __version__=__version__,
                              __sut_accuracy__={name: (ERROR / 10, reason) for name, (_, reason)
                                                in __sut_accuracy__.items()})

# sin's derivative: 1 - x**2 / 2 for cos x (the small-angle approximation).
small_angle_sin_p = _copy(P.sin_p, np.sin)
defjvp(small_angle_sin_p, lambda t, out, x: ops.mul(t, numpy.subtract(
    1.0, numpy.multiply(0.5, ops.integer_pow(x, 2)))))

small_angle = SimpleNamespace(
    **_SUT, __version__=f"{__version__}, sin's derivative 1 - x**2 / 2",
    __sut_accuracy__=__sut_accuracy__,
    numpy=refimpl_numpy_with(**vars(numpy) | {"sin": bound_elementwise(small_angle_sin_p, "sin")}))
