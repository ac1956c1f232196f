"""An SUT whose import never finishes."""

import threading

threading.Event().wait()
