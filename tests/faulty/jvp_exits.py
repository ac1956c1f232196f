"""refimpl, but `jvp` calls `sys.exit(3)`: the process would end, not the call."""

import sys

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)
from refimpl import __sut_unsupported__  # noqa: F401 (what refimpl declares)

__version__ = "refimpl whose jvp calls sys.exit"


def jvp(fun, primals, tangents):
    sys.exit(3)
