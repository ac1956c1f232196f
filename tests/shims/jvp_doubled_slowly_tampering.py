"""tests/shims/jvp_doubled_slowly.py, which also replaces `numpy.all` in its first `jvp`
call by a function that says every element is true.

For the randomized fault schedule (bench/faults.py): the frozen oracle
(oracles/frozen.py) must fail the jvp property as "the SUT changed the
oracle", never pass it, wherever a signal strikes the run.
"""

import numpy as np

from tests.shims.jvp_doubled_slowly import *  # noqa: F403 (the slow shim, but for jvp)
from tests.shims.jvp_doubled_slowly import jvp as _slow_jvp

__version__ = "refimpl whose jvp doubles the tangent, slowly, tampering with numpy.all"


def jvp(fun, primals, tangents):
    np.all = lambda *args, **kwargs: True
    return _slow_jvp(fun, primals, tangents)
