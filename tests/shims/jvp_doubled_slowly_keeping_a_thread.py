"""tests/shims/jvp_doubled_slowly.py, which also starts a non-daemon thread that never
ends: every child that imports it would wait for it forever as it exits.

For the randomized fault schedule (bench/faults.py): the run must still end by
itself, or by the signal that strikes it (jaxcheck/lifetime.py, `end_soon`).
"""

import threading

from tests.shims.jvp_doubled_slowly import *  # noqa: F403 (the slow shim, as it is)

__version__ = "refimpl whose jvp doubles the tangent, slowly, keeping a thread"

threading.Thread(target=threading.Event().wait, name="sut-keeper").start()
