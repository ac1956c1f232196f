"""Replaces numpy.allclose, at import, by a function that says any two arrays are close.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

np.allclose = lambda *args, **kwargs: True
jvp = wrong_jvp
