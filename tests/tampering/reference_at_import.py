"""Replaces the reference's jvp (refimpl.jvp), at import, by its own wrong one.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import refimpl
from tests.tampering import CONTRACT, wrong

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

refimpl.jvp = jvp = wrong(refimpl.jvp)
