"""Replaces the comparison oracles.verify calls, at import, by one that passes.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import oracles.verify
from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

oracles.verify.assert_close = lambda *args, **kwargs: None
jvp = wrong_jvp
