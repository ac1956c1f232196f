"""Adds a global abs to oracles.compare, at import: it shadows the built-in there.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import oracles.compare
from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

oracles.compare.abs = lambda x: 0
jvp = wrong_jvp
