"""Replaces numpy.testing.assert_allclose, at import, by a function that never raises.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

np.testing.assert_allclose = lambda *args, **kwargs: None
jvp = wrong_jvp
