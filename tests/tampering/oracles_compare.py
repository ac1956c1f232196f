"""Replaces oracles.compare._mismatched, during its first call, by one that finds no mismatch.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import oracles.compare
from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"


def _change():
    oracles.compare._mismatched = lambda *args, **kwargs: []


jvp = on_first_call(wrong_jvp, _change)
