"""refimpl, slow as a real system is: seconds to import, and a sleep in every transformed call.

A real system's round of `jaxcheck check --quick` pays for its import in the
probe, the collection and every child (TensorFlow: about 10 s each), and for
a trace or a compile in every call (1 to 3 s per example under XLA).  This
shim has refimpl's answers at that cost, so a test can hold the round to its
budget (tests/meta/test_quick_round.py) and docs/performance.md can time a
newcomer's round on it.  `JAXCHECK_SLOW_IMPORT` and `JAXCHECK_SLOW_CALL` set
the seconds (default 5 and 0.5).
"""

import functools
import os
import time

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, the transformations slowed below)

__sut_unsupported__ = refimpl.__sut_unsupported__
__version__ = "refimpl, slowly"

IMPORT_SECONDS = float(os.environ.get("JAXCHECK_SLOW_IMPORT", "5"))
CALL_SECONDS = float(os.environ.get("JAXCHECK_SLOW_CALL", "0.5"))

time.sleep(IMPORT_SECONDS)


def _slow(compute):
    """`compute`, called after a sleep: a transformation that computes when called."""
    @functools.wraps(compute)
    def slowly(*args, **kwargs):
        time.sleep(CALL_SECONDS)
        return compute(*args, **kwargs)
    return slowly


def _slow_result(transform):
    """`transform`, whose returned function sleeps when called (grad, vmap, jit, ...)."""
    @functools.wraps(transform)
    def slowly(*args, **kwargs):
        return _slow(transform(*args, **kwargs))
    return slowly


jvp, vjp, linearize = _slow(refimpl.jvp), _slow(refimpl.vjp), _slow(refimpl.linearize)
grad, vmap, jit = _slow_result(refimpl.grad), _slow_result(refimpl.vmap), _slow_result(refimpl.jit)
jacfwd, jacrev = _slow_result(refimpl.jacfwd), _slow_result(refimpl.jacrev)
hessian = _slow_result(refimpl.hessian)
