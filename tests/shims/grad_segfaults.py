"""refimpl, but `grad`'s result segfaults when called: a C extension's crash.

For the crash isolation of the `jaxcheck` command (tests/meta/test_jaxcheck_isolation.py):
every property that takes a gradient must be reported as crashed, with a
reproducer that crashes the same way, and every other property must run.
"""

import ctypes

from refimpl import *  # noqa: F403 (refimpl's API, but for grad)
from refimpl import grad as _grad

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose grad segfaults"


def grad(fun, argnums=0):
    gradient = _grad(fun, argnums)

    def crashing(*args):
        gradient(*args)
        ctypes.string_at(0)  # reads address 0: SIGSEGV

    return crashing
