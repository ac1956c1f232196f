"""A correct SUT (refimpl) whose exit handler never returns."""

import atexit
import threading

from tests.lifetime import CONTRACT

globals().update(CONTRACT)
__version__ = "refimpl, with an exit handler that hangs"

atexit.register(threading.Event().wait)
