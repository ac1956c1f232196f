"""Replaces the reference's jvp (refimpl.jvp), during its first call, by its own wrong one.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import refimpl
from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"


def _change():
    refimpl.jvp = jvp


jvp = on_first_call(wrong_jvp, _change)
