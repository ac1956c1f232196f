"""Broken SUT: the derivative of `x ** n` is computed from the output, `n * x ** n / x`.

Reusing the output saves a power, and is right wherever x != 0; at x = 0 it
is `0 / 0`, NaN, where the contract (JAX) says `n * x ** (n - 1)`: 0 for
n = 0 and n >= 2, 1 for n = 1.  Generated programs often start at 0, but
finite differences judge there only programs that avoid kinks; the
conventions property evaluates `x ** 0 .. x ** 3` at 0 on purpose
(tests/test_conventions.py, the `power_at_zero` row).  Built over JAX: `**`
on a JAX tracer is a `custom_jvp` power with this rule while one of this
shim's transformations runs, and JAX's own `**` again after it, so
importing the shim changes nothing for JAX elsewhere in the process.

Family: kink.  Smallest input: `jvp(lambda x: x ** 2, (0.0,), (1.0,))`.
"""

import contextlib
from functools import partial

import jax
from jax import lax as jlax

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403
from tests.broken.over_jax import numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(lambda x: x ** 2, (0.0,), (1.0,))")


@partial(jax.custom_jvp, nondiff_argnums=(1,))
def power(x, n):
    return jlax.integer_pow(x, n)


@power.defjvp
def _power_jvp(n, primals, tangents):
    (x,), (t,) = primals, tangents
    out = power(x, n)
    return out, t * (n * out / x)  # correct: t * n * x ** (n - 1)


def _pow(x, n):
    if isinstance(n, int) or (isinstance(n, float) and n.is_integer()):
        return power(x, int(n))
    return jax.numpy.power(x, n)


@contextlib.contextmanager
def _broken_pow():
    saved = jax.core.Tracer.__pow__
    jax.core.Tracer.__pow__ = _pow
    try:
        yield
    finally:
        jax.core.Tracer.__pow__ = saved


def _running(transform):
    """`transform` (jvp, vjp) with the broken `**` while it runs."""
    def run(*args, **kwargs):
        with _broken_pow():
            return transform(*args, **kwargs)
    return run


def _calling(transform):
    """`transform` (grad, vmap, jit) whose function has the broken `**` while it runs."""
    def make(fun, *args, **kwargs):
        return _running(transform(fun, *args, **kwargs))
    return make


jvp, vjp = _running(jax.jvp), _running(jax.vjp)
grad, vmap, jit = _calling(jax.grad), _calling(jax.vmap), _calling(jax.jit)
numpy = numpy_with()
