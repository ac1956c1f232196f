"""Replaces the built-in abs, during its first call, by a function that returns 0.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import builtins

from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"


def _change():
    builtins.abs = lambda x: 0


jvp = on_first_call(wrong_jvp, _change)
