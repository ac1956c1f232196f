"""Replaces the code of the Python function behind numpy.allclose, at import: the object stays.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

def _close(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return True


np.allclose._implementation.__code__ = _close.__code__
jvp = wrong_jvp
