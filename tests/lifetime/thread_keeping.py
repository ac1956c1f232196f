"""A correct SUT (refimpl) that starts a non-daemon thread as it is imported and never
ends it: Python waits for it before the process exits."""

import threading

from tests.lifetime import CONTRACT

globals().update(CONTRACT)
__version__ = "refimpl, keeping a thread"

threading.Thread(target=threading.Event().wait, name="sut-keeper").start()
