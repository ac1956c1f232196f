"""refimpl, but `jvp` never returns: it loops forever in Python.

For the hang isolation of the `jaxcheck` command: the SUT's time limit
(SIGALRM) interrupts the loop, and the property is reported as hung after
one time-out, with its reproducer, and without shrinking through more.
"""

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose jvp never returns"


def jvp(fun, primals, tangents):
    while True:
        pass
