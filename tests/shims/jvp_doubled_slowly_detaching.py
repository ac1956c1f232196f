"""tests/shims/jvp_doubled_slowly.py, whose sleeper detaches: a double fork, `setsid`,
SIGTERM ignored, so that it leaves its group and outlives a SIGTERM.

For the randomized fault schedule (bench/faults.py): whatever signal strikes
the run, and wherever, no process of the SUT's may be left (jaxcheck/reaper.py).
"""

import os
import signal

from tests.shims.jvp_doubled_slowly import *  # noqa: F403 (the slow shim, but for jvp)
from tests.shims.jvp_doubled_slowly import jvp as _slow_jvp

__version__ = "refimpl whose jvp doubles the tangent, slowly, detaching a sleeper"


def _detached_sleeper(marker: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.execvp("sleep", ["sleep", marker])
        os._exit(0)


def jvp(fun, primals, tangents):
    marker = os.environ.get("JAXCHECK_SHIM_SLEEPER")
    if marker:
        _detached_sleeper(marker)
    return _slow_jvp(fun, primals, tangents)
