"""Replaces math.isfinite and math.isclose, at import.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import math

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

math.isfinite = lambda x: True
math.isclose = lambda *args, **kwargs: True
jvp = wrong_jvp
