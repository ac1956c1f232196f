"""refimpl, but `jvp` never returns where Python cannot interrupt it.

Stuck in C code that holds the interpreter (simulated: SIGALRM blocked,
then a sleep), the SUT's own time limit never fires; the `jaxcheck` parent's
watchdog kills the child after two time-outs, and the property is reported
as hung with its reproducer.
"""

import signal
import time

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose jvp hangs in C"


def jvp(fun, primals, tangents):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    while True:
        time.sleep(3600)
