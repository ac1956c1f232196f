"""refimpl, but the first `jit` call raises, and every `jvp` after it.

A flaky SUT, as a compiler with state can be: Hypothesis runs the failing
example again, and this time the SUT fails earlier in it, so the property
draws less than it did (Hypothesis's `FlakyStrategyDefinition`).  For the
meta-test that such a failure keeps the reproducer saved when it was first
met, and says that the SUT did not do the same twice.
"""

from refimpl import *  # noqa: F403 (refimpl's API, but for jit and jvp)
from refimpl import jit as _jit
from refimpl import jvp as _jvp

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose first jit call fails, and every jvp after it"

_failed = []


def jit(fun, static_argnums=()):
    compiled = _jit(fun, static_argnums=static_argnums)

    def call(*args):
        if not _failed:
            _failed.append(None)
            raise RuntimeError("the first jit call of this process fails")
        return compiled(*args)
    return call


def jvp(fun, primals, tangents):
    if _failed:
        raise RuntimeError("jvp fails once a jit call has")
    return _jvp(fun, primals, tangents)
