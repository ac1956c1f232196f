"""refimpl, but `jvp` doubles the tangent and takes three seconds, and starts a process.

For the fault-injection tests of the `jaxcheck` command
(tests/meta/test_faults.py): its failure is found in the first examples, and
shrinking it takes minutes, so a signal sent a few seconds in lands while a
found failure shrinks; each call also leaves a `sleep` running, started by
the SUT, which must not outlive the run.  `JAXCHECK_SHIM_SLEEPER` names the
sleeper's marker (its duration), so a test can find its own.
"""

import os
import subprocess
import time

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)
from refimpl import jvp as _jvp

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose jvp doubles the tangent, slowly"

# Seconds each jvp call takes: a shrink of a hundred calls lasts minutes.
SECONDS = 3.0


def jvp(fun, primals, tangents):
    marker = os.environ.get("JAXCHECK_SHIM_SLEEPER")
    if marker:
        subprocess.Popen(["sleep", marker])
    time.sleep(SECONDS)
    out, tangent = _jvp(fun, primals, tangents)
    return out, 2 * tangent
