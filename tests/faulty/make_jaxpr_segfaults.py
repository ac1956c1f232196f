"""refimpl, but the function `make_jaxpr` returns segfaults when called.

Only the cost properties stage with `make_jaxpr`, and they called the SUT
outside any experiment: a crash there left no reproducer.
"""

import ctypes

from refimpl import *  # noqa: F403 (refimpl's API, but for make_jaxpr)
from refimpl import __sut_unsupported__  # noqa: F401 (what refimpl declares)

__version__ = "refimpl whose make_jaxpr segfaults"


def make_jaxpr(fun):
    def crashing(*args):
        ctypes.string_at(0)  # reads address 0: SIGSEGV

    return crashing
