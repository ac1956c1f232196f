"""A correct SUT (refimpl) that, as it is imported, detaches a process that ignores SIGTERM:
a double fork and `setsid`, so that it leaves the group it was started in."""

import os
import signal
import time

from tests.lifetime import CONTRACT, note_pid

globals().update(CONTRACT)
__version__ = "refimpl, detaching a process"

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        note_pid()
        time.sleep(600)
    os._exit(0)
