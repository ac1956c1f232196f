"""refimpl, but `jvp` raises KeyboardInterrupt, as an SUT that traps SIGINT might."""

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)
from refimpl import __sut_unsupported__  # noqa: F401 (what refimpl declares)

__version__ = "refimpl whose jvp raises KeyboardInterrupt"


def jvp(fun, primals, tangents):
    raise KeyboardInterrupt
